"""The table as the web sees it while the service is still starting.

`riskboard serve` answers HTTP before the table is up (issue 15 item 4): the pages are
static shells and come at once, while the rules engine, the journal, the Pico's link and
the demo game start behind them. Until then the web talks to a `StartingTable`: every
call of the `TableService` waits for the real table (`attach`) for up to `wait_s` seconds
and then goes to it, so a phone that opens the page during start-up simply gets its first
answer a moment later. If the table cannot start (`fail`), or takes longer than `wait_s`,
the call is refused with 503 and a sentence.

The journal's seat tokens (`seat_tokens`, `store_seat_tokens`) are not offered: the web
asks for them while it is built, before the table exists, and would wait for itself. The
web's seats start from their file, and serve installs the journal's once the table is up
(`pi_app.cli.serve.adopt_journaled_seats`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from pi_app.table_api import CommandRejected

WAIT_S = 60.0
NOT_BEFORE_START = frozenset({"seat_tokens", "store_seat_tokens"})


class StartingTable:
    """A `TableService` that forwards to the real one once it is attached."""

    def __init__(self, wait_s: float = WAIT_S) -> None:
        self.wait_s = wait_s
        self._ready = threading.Event()
        self._service: Any = None
        self._failure: str | None = None

    def attach(self, service: Any) -> None:
        """The table is up: every waiting and later call goes to `service`."""
        self._service = service
        self._ready.set()

    def fail(self, reason: str) -> None:
        """The table could not start: calls are refused with `reason`."""
        self._failure = reason
        self._ready.set()

    @property
    def ready(self) -> bool:
        """True once the real table is attached."""
        return self._service is not None

    def _table(self) -> Any:
        if not self._ready.wait(self.wait_s) or self._service is None:
            why = self._failure or "it is still starting; try again in a moment"
            raise CommandRejected("table_starting", f"The table is not ready: {why}.", 503)
        return self._service

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_") or name in NOT_BEFORE_START:
            raise AttributeError(name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(self._table(), name)(*args, **kwargs)

        call.__name__ = name
        return call
