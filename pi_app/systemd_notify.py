"""Tell systemd how the service is doing: sd_notify over $NOTIFY_SOCKET, no dependency.

The riskboard unit is `Type=notify` with `WatchdogSec=`: systemd waits for READY=1
before it counts the service as started, and restarts it when WATCHDOG=1 pings stop
(a hung orchestrator). Outside systemd ($NOTIFY_SOCKET unset) every call is a no-op
that returns False, so the same code runs on a laptop and in tests.

    notifier = Notifier.from_environment()
    notifier.ready("serving on :8080")
    heartbeat = notifier.heartbeat()      # call heartbeat.beat() from the main loop
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping

NOTIFY_SOCKET_ENV = "NOTIFY_SOCKET"
WATCHDOG_USEC_ENV = "WATCHDOG_USEC"
WATCHDOG_PID_ENV = "WATCHDOG_PID"


def _socket_address(value: str) -> str | bytes | None:
    """The AF_UNIX address named by $NOTIFY_SOCKET ('@name' = abstract namespace)."""
    if value.startswith("/"):
        return value
    if value.startswith("@") and len(value) > 1:
        return b"\0" + value[1:].encode()
    return None  # vsock and other forms are not used on a Pi


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds systemd allows between WATCHDOG=1 pings, or None when no watchdog is set.

    Like sd_watchdog_enabled(3): honours $WATCHDOG_PID so a child process does not
    believe the parent's watchdog is its own.
    """
    env = os.environ if environ is None else environ
    try:
        usec = int(env.get(WATCHDOG_USEC_ENV, ""))
    except ValueError:
        return None
    if usec <= 0:
        return None
    pid = env.get(WATCHDOG_PID_ENV, "").strip()
    if pid and pid != str(os.getpid()):
        return None
    return usec / 1_000_000


class Notifier:
    """Sends state lines to the service manager; every method returns True if sent."""

    def __init__(self, socket_path: str | None, interval: float | None = None) -> None:
        self._address = _socket_address(socket_path) if socket_path else None
        self.watchdog_interval = interval

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Notifier:
        """A notifier for the socket and watchdog systemd handed this process (if any)."""
        env = os.environ if environ is None else environ
        return cls(env.get(NOTIFY_SOCKET_ENV) or None, watchdog_interval(env))

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self._address is not None

    def notify(self, *lines: str) -> bool:
        """Send raw `KEY=value` lines in one datagram; False when not under systemd."""
        if self._address is None or not lines:
            return False
        for line in lines:
            if "\n" in line:
                raise ValueError(f"a notify line must not contain a newline: {line!r}")
        payload = "\n".join(lines).encode("utf-8")
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(payload, self._address)
            except OSError:
                return False  # systemd gone (shutdown) must never crash the table
        return True

    def ready(self, status: str | None = None) -> bool:
        """Startup finished: systemd marks the unit active (and starts the watchdog clock)."""
        lines = ["READY=1"]
        if status:
            lines.append(f"STATUS={_one_line(status)}")
        return self.notify(*lines)

    def status(self, text: str) -> bool:
        """A one-line status shown by `systemctl status riskboard`."""
        return self.notify(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        """Ping the watchdog: the service is alive and its main loop is turning."""
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        """The service is shutting down cleanly (so a slow stop is not a hang)."""
        lines = ["STOPPING=1"]
        if status:
            lines.append(f"STATUS={_one_line(status)}")
        return self.notify(*lines)

    def reloading(self) -> bool:
        """The service is reloading its config; send ready() when done."""
        return self.notify("RELOADING=1")

    def heartbeat(self, clock: Callable[[], float] = time.monotonic) -> Heartbeat:
        """A rate-limited pinger for the main loop (pings at half the watchdog interval)."""
        return Heartbeat(self, clock)


class Heartbeat:
    """Pings the watchdog at most every half interval, however often `beat()` is called.

    Call `beat()` from the loop whose liveness matters (the table orchestrator),
    never from a dedicated thread: a thread would keep pinging while the loop hangs.
    """

    def __init__(self, notifier: Notifier, clock: Callable[[], float] = time.monotonic) -> None:
        self._notifier = notifier
        self._clock = clock
        interval = notifier.watchdog_interval
        self.period = interval / 2 if interval else None
        self._last: float | None = None

    @property
    def longest_sleep(self) -> float | None:
        """How long the loop may sleep between two `beat()` calls: a sixth of the watchdog
        interval (5 s of systemd's 30), so pings are at most two thirds of it apart (a ping
        is due half an interval after the last, and may be found due that late); None
        without a watchdog."""
        return self.period / 3 if self.period is not None else None

    def beat(self) -> bool:
        """Ping if due; True when a ping was sent."""
        if self.period is None or not self._notifier.enabled:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.period:
            return False
        sent = self._notifier.watchdog()
        if sent:
            self._last = now
        return sent


def _one_line(text: str) -> str:
    return " ".join(text.split())
