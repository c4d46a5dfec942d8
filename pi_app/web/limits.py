"""Rate limits: a token bucket per client address and endpoint group; the host PIN's guard
(wrong PINs per address and at the whole table); the event streams' slots."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

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


class PinGuard:
    """Limits wrong host PINs per address (`per_address`, e.g. 5 a minute) and at the whole
    table (`total`, e.g. 30 a minute from every address together).

    Only wrong PINs count. An address at its own limit waits, even with the right PIN. Once
    the table-wide limit is reached, every attempt is refused (429) except the right PIN from
    an address that has not given a wrong one lately (its own bucket is full): the host can
    still sign in while a crowd of addresses is guessing. Each such burst is logged once
    (`event=host.pin_guessing`) and kept for the host page (`alert`)."""

    def __init__(self, per_address: RateLimiter, total: RateLimiter,
                 wall: Callable[[], float] = time.time) -> None:
        self.per_address = per_address
        self.total = total
        self._wall = wall
        self._lock = threading.Lock()
        self._burst: dict[str, object] | None = None  # the last burst, for the host page
        self._addresses: set[str] = set()  # addresses in that burst
        self._recent: deque[tuple[float, str]] = deque()  # wrong PINs of the last minute

    def check(self, key: str, right: bool) -> PinVerdict:
        """Judge one attempt from address `key`; `right` says whether the PIN matched."""
        if self.per_address.exhausted(key):
            wait = self.per_address.wait_seconds(key)
            return PinVerdict(False, 429, "rate_limited", f"Too many wrong PINs from this "
                              f"device: wait {wait} s. Until then even the right PIN is "
                              "refused here.", {"wait": wait})
        if self.total.exhausted("table"):
            if right and self.per_address.untouched(key):
                return PinVerdict(True)
            if not right:
                self._wrong(key)
            wait = self.total.wait_seconds("table")
            return PinVerdict(False, 429, "pin_guessing", f"Too many wrong PINs at this table "
                              f"in the last minute: someone may be guessing. Wait {wait} s; "
                              "a device that has given no wrong PIN can still sign in.",
                              {"wait": wait})
        if right:
            return PinVerdict(True)
        self._wrong(key)
        return PinVerdict(False, 403, "bad_pin", "The host PIN is wrong.")

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
                                         "addresses": len(self._addresses)}
        if started is not None:
            log.warning("event=host.pin_guessing wrong=%d addresses=%d limit_per_minute=%d",
                        started["wrong"], started["addresses"], round(self.total.rate * 60))

    def alert(self) -> dict[str, object] | None:
        """The last burst of PIN guessing (None if there was none): when it began and was
        last seen, how many wrong PINs and from how many addresses, and whether the
        table-wide limit still holds."""
        with self._lock:
            if self._burst is None:
                return None
            if self._burst["active"] and self.total.untouched("table"):
                self._burst["active"] = False
            return dict(self._burst)


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
