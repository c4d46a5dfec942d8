"""Rate limits: a token bucket per client address and endpoint group; the host PIN's guard
(wrong PINs per address and at the whole table); the event streams' slots."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

log = logging.getLogger("riskboard.web")


class RateLimiter:
    """Allows `rate` requests per second with bursts of `burst`, per key (e.g. an address)."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        """Take one request from `key`'s bucket; False when it is empty."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            if tokens < 1.0:
                self._buckets[key] = (tokens, now)
                return False
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > 10_000:  # a flood of addresses must not grow memory forever
                self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
            return True

    def exhausted(self, key: str) -> bool:
        """True when `key`'s bucket is empty right now (without taking from it)."""
        return self.level(key) < 1.0

    def level(self, key: str) -> float:
        """How many requests `key` may make right now (`burst` for a key never seen)."""
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.rate)

    def untouched(self, key: str) -> bool:
        """True when `key` has taken nothing that has not refilled yet (a full bucket)."""
        return self.level(key) >= float(self.burst)

    def wait_seconds(self, key: str) -> int:
        """Whole seconds until `key` may make one more request (0: now)."""
        missing = 1.0 - self.level(key)
        return 0 if missing <= 0 else int(missing / self.rate) + 1


@dataclass(frozen=True)
class PinVerdict:
    """What the PIN guard says of one attempt: let it through (`ok`), or refuse it with
    `status` (403 wrong PIN, 429 limited), a stable `code`, a sentence, and the `params`
    a page words the code with (`wait`: seconds before trying again)."""

    ok: bool
    status: int = 200
    code: str = ""
    message: str = ""
    params: dict[str, object] = field(default_factory=dict)


class HostDevices:
    """The devices signed in as host: each got a random id when it gave the right PIN (the
    host page keeps it and sends it with the PIN); only a hash of it is kept, in `path`
    (0600) when given, so a restart keeps them. An id is only ever made here: a device
    presenting one the table did not issue is a new device (no fixation). A device that
    gives `MAX_WRONG` wrong PINs is forgotten."""

    FILE_NAME = "host_devices.json"
    LIMIT = 16  # the newest devices kept
    MAX_WRONG = 5

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._lock = threading.Lock()
        self._known: dict[str, int] = {}  # id hash -> wrong PINs given since its last right one
        if path is not None and path.is_file():
            try:
                kept = json.loads(path.read_text(encoding="utf-8"))
                self._known = {str(h): 0 for h in kept.get("devices", [])}
            except (OSError, ValueError, AttributeError):
                self._known = {}

    def known(self, device: str | None) -> bool:
        """True when `device` is an id this table issued and still remembers."""
        if not device:
            return False
        with self._lock:
            return _digest(device) in self._known

    def issue(self) -> str:
        """A new device id, remembered from now on."""
        device = secrets.token_urlsafe(32)
        with self._lock:
            self._known[_digest(device)] = 0
            while len(self._known) > self.LIMIT:
                self._known.pop(next(iter(self._known)))
            self._save()
        return device

    def right(self, device: str) -> None:
        """The device gave the right PIN: its count of wrong ones starts over."""
        with self._lock:
            if self._known.get(_digest(device)):
                self._known[_digest(device)] = 0

    def wrong(self, device: str) -> None:
        """The device gave a wrong PIN; at `MAX_WRONG` it is forgotten (a stolen id
        must not guess on)."""
        with self._lock:
            key = _digest(device)
            if key not in self._known:
                return
            self._known[key] += 1
            if self._known[key] >= self.MAX_WRONG:
                self._known.pop(key)
                self._save()

    def _save(self) -> None:
        if self._path is None:
            return
        tmp = self._path.with_suffix(".tmp")
        try:
            from pi_app.storage import make_data_dir

            make_data_dir(self._path.parent)  # private (0700), like every data folder
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump({"devices": list(self._known)}, out)
            os.replace(tmp, self._path)
        except OSError:
            log.warning("event=host.devices_not_saved path=%s", self._path)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "replace")).hexdigest()


class PinGuard:
    """Limits wrong host PINs per address (`per_address`, e.g. 5 a minute) and at the whole
    table (`total`, e.g. 30 a minute from every address together), whatever the number of
    addresses.

    Only wrong PINs count. An address at its own limit waits, even with the right PIN. Once
    the table-wide limit is reached (a crowd is guessing), a PIN from a device not signed
    in as host is not even judged: right or wrong, it is refused alike (429
    `pin_guessing`), so a crowd learns nothing from it, however many addresses it has.
    Devices signed in as host before (`devices`, their id) are not held. A new device
    needs a hand on the board: a long Confirm on the board while sign-ins are being refused
    (`board_press`) opens a window of `window_s` seconds in which the next
    `window_attempts` PINs are judged again (the first right one signs its device in and
    closes it); windows open at most every `window_gap_s` seconds. So at most `total`
    wrong PINs a minute plus `window_attempts` per window are ever judged. Each burst is
    logged once (`event=host.pin_guessing`) and kept for the host page (`alert`)."""

    def __init__(self, per_address: RateLimiter, total: RateLimiter,
                 wall: Callable[[], float] = time.time, *, devices: HostDevices | None = None,
                 clock: Callable[[], float] = time.monotonic, window_s: float = 60.0,
                 window_attempts: int = 3, window_gap_s: float = 20.0,
                 event: str = "host.pin_guessing") -> None:
        self.per_address = per_address
        self.event = event  # the log's name for a burst (the seat codes have their own)
        self.total = total
        self.devices = devices or HostDevices()
        self._wall = wall
        self._clock = clock
        self.window_s = window_s
        self.window_attempts = window_attempts
        self.window_gap_s = window_gap_s
        self._lock = threading.Lock()
        self._burst: dict[str, object] | None = None  # the last burst, for the host page
        self._addresses: set[str] = set()  # addresses in that burst
        self._recent: deque[tuple[float, str]] = deque()  # wrong PINs of the last minute
        self._asked: float | None = None  # when a new device was last refused for the crowd
        self._window: list[float] | None = None  # [closes at, attempts left] after a press
        self._opened: float | None = None  # when the last window opened

    def check(self, key: str, right: bool, device: str | None = None) -> PinVerdict:
        """Judge one attempt from address `key` (`device`: its host-device id, if any);
        `right` says whether the PIN matched."""
        if self.per_address.exhausted(key):
            wait = self.per_address.wait_seconds(key)
            return PinVerdict(False, 429, "rate_limited", f"Too many wrong PINs from this "
                              f"device: wait {wait} s. Until then even the right PIN is "
                              "refused here.", {"wait": wait})
        if device is not None and self.devices.known(device):
            return self._judge(key, right, device)
        if not self.total.exhausted("table") or self._take_window():
            return self._judge(key, right, None)
        self._refused(key)
        wait = self.total.wait_seconds("table")
        return PinVerdict(False, 429, "pin_guessing", "Too many wrong PINs at this table: "
                          f"someone may be guessing the host PIN. Wait {wait} s and try again, "
                          "or hold Confirm on the board for a second, then sign in within a "
                          "minute. A device already signed in as host is not held.",
                          {"wait": wait})

    def _judge(self, key: str, right: bool, device: str | None) -> PinVerdict:
        if right:
            if device is not None:
                self.devices.right(device)
            with self._lock:
                if self._window is not None and device is None:
                    self._window = None  # the new device is in: the window has served
            return PinVerdict(True)
        if device is not None:
            self.devices.wrong(device)
        self._wrong(key)
        return PinVerdict(False, 403, "bad_pin", "The host PIN is wrong.")

    def _take_window(self) -> bool:
        """Use one of the attempts the last press on the board opened, if it is open."""
        with self._lock:
            window = self._window
            if window is None:
                return False
            if self._clock() >= window[0] or window[1] < 1:
                self._window = None
                return False
            window[1] -= 1
            return True

    def board_press(self, button: str, long: bool) -> bool:
        """A control-button press on the board (the table's `watch_presses`): a long
        Confirm while new devices are being refused for a crowd opens a sign-in window and
        is the host's (True: the game does not see it); anything else is the game's."""
        if not ((button == "confirm" and long) or button == "cards"):
            return False
        now = self._clock()
        with self._lock:
            asked = self._asked is not None and now - self._asked < self.window_s
            open_now = self._window is not None and now < self._window[0]
            too_soon = self._opened is not None and now - self._opened < self.window_gap_s
            if not asked or open_now or too_soon:
                return False
            self._window = [now + self.window_s, float(self.window_attempts)]
            self._opened = now
        log.warning("event=host.board_confirm window_s=%d attempts=%d", round(self.window_s),
                    self.window_attempts)
        return True

    def _refused(self, key: str) -> None:
        """A new device's attempt refused for the crowd, unjudged: it counts nowhere (right
        and wrong must leave the same trace), only in the burst shown to the host."""
        with self._lock:
            self._asked = self._clock()
            burst = self._burst
            if burst is not None and burst["active"]:
                self._addresses.add(key)
                burst.update(refused=int(burst.get("refused", 0)) + 1,  # type: ignore
                             addresses=len(self._addresses), last_at=_iso(self._wall()))

    def _wrong(self, key: str) -> None:
        """Count a wrong PIN against `key` and the table; start (and log) a burst when the
        table's limit is reached, or add to the one going on."""
        self.per_address.allow(key)
        self.total.allow("table")
        started = None
        with self._lock:
            now = self._wall()
            self._recent.append((now, key))
            while self._recent and now - self._recent[0][0] > 60.0:
                self._recent.popleft()
            burst = self._burst
            if burst is not None and burst["active"] and not self.total.untouched("table"):
                self._addresses.add(key)
                burst.update(wrong=int(burst["wrong"]) + 1,  # type: ignore[call-overload]
                             addresses=len(self._addresses), last_at=_iso(now))
            elif self.total.exhausted("table"):
                self._addresses = {k for _t, k in self._recent}
                started = self._burst = {"active": True, "since": _iso(now),
                                         "last_at": _iso(now), "wrong": len(self._recent),
                                         "refused": 0, "addresses": len(self._addresses)}
        if started is not None:
            log.warning("event=%s wrong=%d addresses=%d limit_per_minute=%d", self.event,
                        started["wrong"], started["addresses"], round(self.total.rate * 60))

    def alert(self) -> dict[str, object] | None:
        """The last burst of PIN guessing (None if there was none): when it began and was
        last seen, how many wrong PINs were judged (`wrong`) and how many more attempts
        were refused unjudged (`refused`), from how many addresses, and whether the
        table-wide limit still holds."""
        with self._lock:
            if self._burst is None:
                return None
            quiet = self._asked is None or self._clock() - self._asked >= self.window_s
            if self._burst["active"] and self.total.untouched("table") and quiet:
                self._burst["active"] = False
            return dict(self._burst)


class CodeGuard:
    """The host PIN's guard (`PinGuard`) over seat codes: wrong codes per address and at the
    whole table, with the codes' own refusals (`code_rate_limited`, `code_guessing`,
    `bad_seat_code`)."""

    def __init__(self, per_address: RateLimiter, total: RateLimiter) -> None:
        self.guard = PinGuard(per_address, total, event="join.code_guessing")

    def check(self, key: str, right: bool) -> PinVerdict:
        """Judge one code typed at address `key` (`right`: it is a live seat's code)."""
        verdict = self.guard.check(key, right)
        if verdict.ok:
            return verdict
        wait = verdict.params.get("wait", 0)
        if verdict.code == "rate_limited":
            return PinVerdict(False, 429, "code_rate_limited", "Too many wrong seat codes "
                              f"from this device: wait {wait} s. Until then even the right "
                              "code is refused here; scanning the QR code still works.",
                              {"wait": wait})
        if verdict.code == "pin_guessing":
            return PinVerdict(False, 429, "code_guessing", "Too many wrong seat codes at "
                              "this table: someone may be guessing them. Wait "
                              f"{wait} s and try again, or scan the seat's QR code.",
                              {"wait": wait})
        return PinVerdict(False, 403, "bad_seat_code", "No seat has this code now. Check it "
                          "on the host page: a seat's code changes when the seat is moved and "
                          "stops working once a phone holds the seat.")


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds")


class StreamSlots:
    """Caps the open event streams: each holds a server thread, so neither one guest nor a
    crowd of addresses may take the threads that pages, commands and the players need.

    Seats and the host come first: their private streams are always admitted
    (`acquire_priority`), one per seat token (or the host), the newest replacing the
    oldest, which is told to end. Their share is `reserved` of the `total` (a seat per
    colour and the host). Anonymous spectators share what is left (`spectators`), at most
    `per_client` per address (`acquire`)."""

    def __init__(self, per_client: int, total: int, reserved: int = 7) -> None:
        self.per_client = per_client
        self.total = total
        self.reserved = reserved
        self.spectators = max(1, total - reserved)
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self._count = 0
        self._priority: dict[str, threading.Event] = {}  # holder key -> its "replaced" flag

    def acquire(self, key: str) -> str | None:
        """Take a spectator's slot for address `key`: None when granted, else why not
        (`"client"`: this address holds `per_client` streams; `"server"`: the spectators'
        share is taken)."""
        with self._lock:
            n = self._open.get(key, 0)
            if n >= self.per_client:
                return "client"
            if self._count >= self.spectators:
                return "server"
            self._open[key] = n + 1
            self._count += 1
            return None

    def release(self, key: str) -> None:
        """Give a spectator's slot back (the stream ended)."""
        with self._lock:
            n = self._open.get(key, 0)
            if n <= 0:
                return
            self._count -= 1
            if n == 1:
                self._open.pop(key)
            else:
                self._open[key] = n - 1

    def acquire_priority(self, holder: str) -> threading.Event:
        """Admit the stream of `holder` (a seat token's hash, or "host") whatever else is
        open; a stream it already had is told to end (its event is set). Returns this
        stream's own event: set once a newer stream of the same holder replaced it."""
        replaced = threading.Event()
        with self._lock:
            older = self._priority.get(holder)
            self._priority[holder] = replaced
        if older is not None:
            older.set()
        return replaced

    def release_priority(self, holder: str, mine: threading.Event) -> None:
        """The priority stream ended; its slot is free unless a newer one holds it now."""
        with self._lock:
            if self._priority.get(holder) is mine:
                self._priority.pop(holder)

    def open_count(self, key: str | None = None) -> int:
        """How many spectator streams `key` holds now (all streams, the seats' and the
        host's too, when `key` is None)."""
        with self._lock:
            return self._count + len(self._priority) if key is None else self._open.get(key, 0)
