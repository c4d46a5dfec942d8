"""A maker practising a bring-up from outside: `riskboard serve --sim --miswired SEED` in a
child process, driven over the documented HTTP routes only (issue 33).

The maker's eyes are the virtual board's answer (`GET /api/virtual/board`: each LED's colour
as the true chain shows it, and which territory each LED lies in, as /virtual draws them);
the hands are `POST /api/virtual/touch` (a territory touched, held down and let go, a token
or marker on its reader), `POST /api/virtual/button` and `POST /api/virtual/replug` (a
reader's cable moved to another mux port); the phone is the bring-up API
(`/api/host/bringup`). `tests/bringup/table_maker.TableMaker` walks the steps with them.
"""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class HttpError(Exception):
    """A refused request: its status and the body's error code."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body = status, body
        self.code = (body.get("error") or {}).get("code") if isinstance(body, dict) else None


class Http:
    """JSON over HTTP with the host PIN, to one served table. Commands keep under the
    table's command rate (10 a second, `pi_app.web.create_app`), as a person's hands do,
    and one the table still finds too quick (429) waits as asked and goes again."""

    COMMAND_GAP_S = 0.11

    def __init__(self, base: str, pin: str) -> None:
        self.base, self.pin = base, pin
        self._last_post = 0.0

    def call(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
             headers: dict[str, str] | None = None) -> Any:
        for _attempt in range(5):
            if method == "POST":
                time.sleep(max(0.0, self._last_post + self.COMMAND_GAP_S - time.monotonic()))
                self._last_post = time.monotonic()
            try:
                return self._call(method, path, body, raw, headers)
            except HttpError as exc:
                if exc.status != 429:
                    raise
                time.sleep(float((exc.body.get("error") or {}).get("params", {}).get("wait", 1)))
        return self._call(method, path, body, raw, headers)

    def _call(self, method: str, path: str, body: Any, raw: bytes | None,
              headers: dict[str, str] | None) -> Any:
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        sent = {"Content-Type": "application/json", "X-Host-Pin": self.pin}
        sent.update(headers or {})
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={k: v for k, v in sent.items() if v})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                answer = json.loads(exc.read() or b"{}")
            except ValueError:
                answer = {}
            raise HttpError(exc.code, answer) from None

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: Any = None) -> Any:
        return self.call("POST", path, body if body is not None else {})


@dataclass
class SeenBoard:
    """The board as /virtual shows it: which territory (or "status:<name>", or None) each
    LED lies in, the control buttons it has, whether its sensors are NFC readers, and how
    many tokens and markers each colour has (counts: the page never needs their UIDs)."""

    owners: list[str | None]
    channel_of: dict[str, int]
    controls: dict[str, int]
    nfc: bool
    tokens: dict[str, list[str]] = field(default_factory=dict)
    markers: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def read(cls, http: Http) -> SeenBoard:
        board = http.get("/api/virtual/board")
        owners: list[str | None] = [None] * len(board["leds"])
        for territory, leds in board["territory_leds"].items():
            for i in leds:
                owners[i] = territory
        for name, leds in board["status_leds"].items():
            for i in leds:
                owners[i] = f"status:{name}"
        tags = board.get("tags") or {}
        return cls(owners, {t: i for i, t in enumerate(board["territory_leds"])},
                   {name: i for i, name in enumerate(board["buttons"])}, bool(board["nfc"]),
                   {c: ["?"] * n for c, n in (tags.get("tokens") or {}).items()},
                   {c: ["?"] * n for c, n in (tags.get("markers") or {}).items()})


class HttpHands:
    """The maker's hands and eyes on the virtual board, over its public routes."""

    def __init__(self, http: Http, board: SeenBoard, hold_s: float = 0.05) -> None:
        self.http, self.board, self.hold_s = http, board, hold_s
        self.probe = next(iter(board.tokens), None)  # any token will do to find a reader

    def _touch(self, territory: str, action: str, **more: Any) -> None:
        body = {"territory": territory, "action": action, **more}
        if self.board.nfc and "player" not in body and self.probe is not None:
            body["player"] = self.probe
        self.http.post("/api/virtual/touch", body)

    def down(self, territory: str) -> None:
        """Hold `territory` (a finger on its button, a tag left on its reader)."""
        self._touch(territory, "down")

    def up(self, territory: str) -> None:
        """Let go of `territory`."""
        self._touch(territory, "up")

    def press(self, control: str) -> None:
        """A short press of a control button."""
        self.http.post("/api/virtual/button", {"button": control, "action": "down"})
        time.sleep(self.hold_s)
        self.http.post("/api/virtual/button", {"button": control, "action": "up"})

    def tag(self, territory: str, colour: str, kind: str, index: int) -> None:
        """Put `colour`'s token or marker number `index` on `territory`'s reader and off."""
        tag = "token" if kind == "tokens" else f"marker-{index + 1}"
        self._touch(territory, "touch", player=colour, tag=tag)

    def leds(self) -> list[tuple[int, int, int]]:
        """Every LED as the board shows it now."""
        return [tuple(rgb) for rgb in self.http.get("/api/virtual/board")["leds"]]  # type: ignore[misc]


class HttpPhone:
    """The maker's phone: the bring-up API, as the bring-up page calls it."""

    def __init__(self, http: Http) -> None:
        self.http = http

    def state(self) -> dict[str, Any]:
        return self.http.get("/api/host/bringup")

    def answer(self, what: str, value: Any = None) -> None:
        self.http.post("/api/host/bringup/answer", {"what": what, "value": value})

    def start(self, pace: float) -> dict[str, Any]:
        return self.http.post("/api/host/bringup/start", {"pace": pace})

    def save(self) -> dict[str, Any]:
        return self.http.post("/api/host/bringup/save", {})


def replug_silent_readers(http: Http, phone: HttpPhone) -> list[str]:
    """What a maker does on reading the bring-up page's silent-reader sentence: find the
    named territory's reader cable on the board and plug it into the port the Pico looks
    on. Returns the territories moved."""
    moved = []
    silent = [r["channel"] for r in phone.state().get("silent_readers", [])]
    unscanned = http.get("/api/virtual/board")["sensors"].get("unscanned", [])
    for reader, channel in zip(unscanned, silent, strict=False):
        http.post("/api/virtual/replug", {"territory": reader["territory"], "port": channel})
        moved.append(reader["territory"])
    return moved


@contextmanager
def served(data: Path, profile: str, seed: int, *, hold_time: float = 0.2,
           timeout: float = 90.0) -> Iterator[Http]:
    """`riskboard serve --sim` with `profile`, miswired by `seed`, on a free loopback port;
    yields its `Http` (with the host PIN it printed), stopped with SIGTERM after."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data.mkdir(parents=True, exist_ok=True)
    config = data / "config.toml"
    config.write_text(f'[board]\nprofile = "{profile}"\nmiswired = {seed}\n\n'
                      f"[buttons]\nhold_time = {hold_time}\n\n"
                      f'[storage]\ndata_dir = "{data / "data"}"\n')
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISKBOARD_HOST_PIN", "RISKBOARD_CONFIG")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port), "--data",
         str(data / "data"), "--config", str(config)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()],
                     daemon=True).start()
    try:
        pin, deadline = None, time.monotonic() + timeout
        while pin is None and time.monotonic() < deadline:
            try:
                found = re.search(r"host PIN (\d{6,})", lines.get(timeout=0.5))
                pin = found.group(1) if found else None
            except queue.Empty:
                if proc.poll() is not None:
                    raise RuntimeError("riskboard serve exited") from None
        if pin is None:
            raise RuntimeError("riskboard serve printed no host PIN")
        http = Http(f"http://127.0.0.1:{port}", pin)
        while time.monotonic() < deadline:
            try:
                if http.get("/api/state")["state"].get("players"):
                    break
            except OSError:
                pass
            time.sleep(0.1)
        yield http
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
