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
    """Caps the open event streams, per client address and in all: each holds a server
    thread, so neither one guest nor a crowd of addresses may take the threads that pages
    and commands need."""

    def __init__(self, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: dict[str, int] = {}
        self._count = 0

    def acquire(self, key: str) -> str | None:
        """Take a slot for `key`: None when granted, else why not (`"client"`: this address
        holds `per_client` streams; `"server"`: `total` streams are open)."""
        with self._lock:
            n = self._open.get(key, 0)
            if n >= self.per_client:
                return "client"
            if self._count >= self.total:
                return "server"
            self._open[key] = n + 1
            self._count += 1
            return None

    def release(self, key: str) -> None:
        """Give a slot back (the stream ended)."""
        with self._lock:
            n = self._open.get(key, 0)
            if n <= 0:
                return
            self._count -= 1
            if n == 1:
                self._open.pop(key)
            else:
                self._open[key] = n - 1

    def open_count(self, key: str | None = None) -> int:
        """How many streams `key` holds now (all of them when `key` is None)."""
        with self._lock:
            return self._count if key is None else self._open.get(key, 0)
