"""Parts of the table that may be missing at start: the LED strip and the control buttons.

A Pi on its first day often lacks one: SPI not enabled yet, a button on a wrong pin, GPIO
lines busy with another program. The table must not die for it: rules, journal, web and
sensors run on, the part is opened again in the background with a growing pause
(`Backoff`: 2 s, 4 s, 8 s ... up to a minute), and its fault is one sentence
(`fault`) for `/api/status`, the host page and `riskboard doctor`.

`Supervised(what, opener)` holds one such part: `start()` tries `opener()` at once (a
healthy part is there before the table starts) and, when that raises, keeps trying on a
daemon thread until it works or `close()` is called. `SupervisedStrip` and
`SupervisedButtons` put it behind the interfaces the painter and the service use.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from hardware.output_stage import OutputStage, Pixel

log = logging.getLogger(__name__)

T = TypeVar("T")


class Backoff:
    """The pauses between attempts: `first`, doubling each time, never above `most`."""

    def __init__(self, first: float = 2.0, most: float = 60.0) -> None:
        if first <= 0 or most < first:
            raise ValueError("backoff needs 0 < first <= most")
        self.first = first
        self.most = most
        self._next = first

    def next(self) -> float:
        """The pause before the next attempt (and grow the one after it)."""
        pause = self._next
        self._next = min(self._next * 2, self.most)
        return pause

    def reset(self) -> None:
        """Start again from `first` (the part worked)."""
        self._next = self.first


class Supervised(Generic[T]):
    """One part opened by `opener()`, retried in the background while it fails.

    `what` names the part in sentences ("The LED strip"); `on_open(part)` runs once the part
    works (e.g. to show the current frame); `plural` when `what` names several things.
    `backoff` sets the pauses between attempts (tests pass short ones)."""

    def __init__(self, what: str, opener: Callable[[], T], *,
                 on_open: Callable[[T], None] | None = None,
                 backoff: Backoff | None = None, plural: bool = False) -> None:
        self.what = what
        self.plural = plural
        self._opener = opener
        self._on_open = on_open
        self._backoff = backoff or Backoff()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.part: T | None = None
        self.fault: str | None = None
        self.attempts = 0
        self.next_retry_s: float | None = None

    @property
    def running(self) -> bool:
        """True while the part works."""
        return self.part is not None

    def start(self) -> bool:
        """Try once now; on failure keep trying on a daemon thread. True if it works now."""
        if self._attempt():
            return True
        self._thread = threading.Thread(target=self._retry, name=f"retry {self.what}",
                                        daemon=True)
        self._thread.start()
        return False

    def _attempt(self) -> bool:
        self.attempts += 1
        try:
            part = self._opener()
        except Exception as exc:  # any failure to open is a fault to show, never a crash
            first = self.fault is None
            self.fault = _sentence(exc)
            level = logging.WARNING if first else logging.INFO
            log.log(level, "event=part.missing part=%r attempt=%d error=%r", self.what,
                    self.attempts, exc)
            return False
        with self._lock:
            if self._stop.is_set():  # closed while opening: do not keep it
                _close_quietly(part)
                return True
            self.part = part
        if self.fault is not None:
            log.warning("event=part.recovered part=%r attempts=%d", self.what, self.attempts)
        self.fault = None
        self.next_retry_s = None
        self._backoff.reset()
        if self._on_open is not None:
            try:
                self._on_open(part)
            except Exception as exc:
                log.warning("event=part.on_open_failed part=%r error=%r", self.what, exc)
        return True

    def _retry(self) -> None:
        while not self._stop.is_set():
            self.next_retry_s = self._backoff.next()
            if self._stop.wait(self.next_retry_s):
                return
            if self._attempt():
                return

    def status(self) -> dict[str, object]:
        """`state` running / missing / closed, the fault sentence, attempts, next pause."""
        state = "closed" if self._stop.is_set() else (
            "running" if self.part is not None else "missing")
        return {"state": state, "fault": self.fault, "attempts": self.attempts,
                "retry_in_s": self.next_retry_s}

    def fault_sentence(self) -> str | None:
        """One sentence for people while the part is missing, else None."""
        if self.part is not None or self.fault is None:
            return None
        verb, it = ("are", "them") if self.plural else ("is", "it")
        return (f"{self.what} {verb} not working: {self.fault.rstrip('.')}. The game goes on "
                f"without {it}; riskboard keeps trying to start {it}.")

    def close(self) -> None:
        """Stop retrying and close the part if it is open; calling it again does nothing."""
        with self._lock:
            self._stop.set()
            part, self.part = self.part, None
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)
        if part is not None:
            _close_quietly(part)


def _sentence(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text or type(exc).__name__


def _close_quietly(part: Any) -> None:
    try:
        part.close()
    except Exception as exc:
        log.warning("event=part.close_failed error=%r", exc)


class SupervisedStrip:
    """An LED strip that may be missing: frames shown meanwhile are dropped, the latest is
    kept and shown as soon as the strip works. `output` is the strip's own output stage
    (the opener must build the strip with it), so the painter's floor and brightness are
    right before the strip exists."""

    def __init__(self, opener: Callable[[], Any], count: int, output: OutputStage, *,
                 backend: str, backoff: Backoff | None = None) -> None:
        self.count = count
        self.output = output
        self.backend = backend
        self._latest: tuple[Pixel, ...] | None = None
        self.frames_dropped = 0
        self.supervisor: Supervised[Any] = Supervised(
            "The LED strip", opener, on_open=self._opened, backoff=backoff)

    def start(self) -> bool:
        """Open the strip now, or keep trying in the background (see `Supervised`)."""
        return self.supervisor.start()

    def _opened(self, strip: Any) -> None:
        if self._latest is not None:
            strip.show(self._latest)

    @property
    def fault(self) -> str | None:
        """The sentence saying why the strip is missing, or None when it works."""
        return self.supervisor.fault_sentence()

    def show(self, pixels: Sequence[Pixel]) -> None:
        """Show a frame, or keep it for when the strip works."""
        self._latest = tuple(pixels)
        strip = self.supervisor.part
        if strip is None:
            self.frames_dropped += 1
            return
        strip.show(pixels)

    def close(self) -> None:
        """Stop retrying; darken and release the strip if it was open."""
        self.supervisor.close()

    def __getattr__(self, name: str) -> Any:
        # what only some backends have (the memory strip's frames and last) is asked of
        # the strip itself, while it works
        supervisor = self.__dict__.get("supervisor")
        part = supervisor.part if supervisor is not None else None
        if part is None or name.startswith("__"):
            raise AttributeError(name)
        return getattr(part, name)

    def get_status(self) -> dict[str, object]:
        """The strip's own status when it works, with the part's state and fault."""
        strip = self.supervisor.part
        inner: dict[str, object] = dict(strip.get_status()) if strip is not None else {
            "backend": self.backend, "count": self.count}
        return {**inner, **self.supervisor.status(), "frames_dropped": self.frames_dropped}


class SupervisedButtons:
    """The control buttons when they may be missing: `get_status()` is each button's pin
    and pressed state while they work, empty while they do not (see `fault`)."""

    def __init__(self, opener: Callable[[], Any], pins: dict[str, int], *,
                 backoff: Backoff | None = None) -> None:
        self.pins = dict(pins)
        self.supervisor: Supervised[Any] = Supervised("The control buttons", opener,
                                                      backoff=backoff, plural=True)

    def start(self) -> bool:
        """Open the buttons now, or keep trying in the background (see `Supervised`)."""
        return self.supervisor.start()

    @property
    def fault(self) -> str | None:
        """The sentence saying why the buttons are missing, or None when they work."""
        return self.supervisor.fault_sentence()

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the buttons this table has."""
        return tuple(self.pins)

    @property
    def answered_by(self) -> str:
        """Which pin library really drives the buttons (the open `ControlButtons`'
        `answered_by`: "LGPIO" on a Pi, "Mock" under GPIOZERO_PIN_FACTORY=mock); "" while
        they are missing."""
        return getattr(self.supervisor.part, "answered_by", "") or ""

    def get_status(self) -> dict[str, object]:
        """Each working button's pin and whether it is pressed now (empty while missing)."""
        buttons = self.supervisor.part
        return dict(buttons.get_status()) if buttons is not None else {}

    def close(self) -> None:
        """Stop retrying and release the pins."""
        self.supervisor.close()
