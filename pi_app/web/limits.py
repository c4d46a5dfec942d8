"""Rate limits: a token bucket per client address and endpoint group."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


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
        now = self._clock()
        with self._lock:
            tokens, last = self._buckets.get(key, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - last) * self.rate) < 1.0


class StreamSlots:
    """Caps the open event streams per client address: each holds a server thread, so one
    guest on the Wi-Fi must not be able to take them all."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}

    def acquire(self, key: str) -> bool:
        """Take a slot for `key`; False when it already has `per_client` streams open."""
        with self._lock:
            n = self._open.get(key, 0)
            if n >= self.per_client:
                return False
            self._open[key] = n + 1
            return True

    def release(self, key: str) -> None:
        """Give a slot back (the stream ended)."""
        with self._lock:
            n = self._open.get(key, 0) - 1
            if n <= 0:
                self._open.pop(key, None)
            else:
                self._open[key] = n

    def open_count(self, key: str) -> int:
        """How many streams `key` holds now."""
        with self._lock:
            return self._open.get(key, 0)
