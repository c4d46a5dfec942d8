"""What the table knows beside the game's state, for `pi_app.table.awaiting`.

`GameFacts` gathers, on the loop thread, the session's status, the host's pause, the dice
seed once the game is over (read from the journal once per game), the computer seats and
their held step (`ComputerPlay.hold()`, with its public `moves`), and who eliminated whom
(noted from the events as the core publishes them: the state keeps only who is out).
"""

from __future__ import annotations

from typing import Any, Protocol

from pi_app.computer.seats import ComputerSeats
from pi_app.journal import Journal
from pi_app.rules import GameState
from pi_app.session import GameSession
from pi_app.table.awaiting import Awaiting, TableFacts, held_from
from pi_app.table.computer_play import ComputerPlay
from pi_app.table.kinds import waits


class FactsTable(Protocol):
    """What the facts are gathered from (`TableCore`): the session and its journal (the
    seed), the pause, the game, the computer seats and their play (the held step)."""

    session: GameSession | None
    journal: Journal
    paused: bool
    computers: ComputerSeats
    computer: ComputerPlay

    @property
    def state(self) -> GameState | None: ...


class GameFacts:
    """The core's facts for `awaiting` (see the module docstring)."""

    def __init__(self, core: FactsTable) -> None:
        self.core = core
        self._eliminated_by: tuple[int | None, dict[str, str]] = (None, {})
        self._seed: tuple[int | None, str | None] = (None, None)

    def now(self) -> TableFacts:
        """The table's facts now."""
        core = self.core
        session = core.session
        if session is None:
            return TableFacts(status=None)
        game, by = self._eliminated_by
        return TableFacts(status=session.status, paused=core.paused, seed=self.seed(),
                          computers=dict(core.computers.levels),
                          computers_paused=core.computers.paused,
                          held=held_from(core.computer.hold(),
                                         core.computers.public().get("holding"), core.state),
                          eliminated_by=dict(by) if game == session.game_id else {})

    def awaiting(self, state: Any) -> Awaiting:
        """What the table waits for in `state` (the live state or a reader's copy of it)."""
        return waits(state, self.now())

    def seed(self) -> str | None:
        """The game's dice seed once it is over (None while it runs): public then."""
        session = self.core.session
        if session is None or session.status == "running":
            return None
        if self._seed[0] != session.game_id:
            self._seed = (session.game_id, self.core.journal.secret_seed(session.game_id))
        return self._seed[1]

    def note(self, events: list[dict[str, Any]]) -> None:
        """Who eliminated whom in the running game, as its events pass."""
        session = self.core.session
        if session is None:
            return
        game, by = self._eliminated_by
        if game != session.game_id:
            by = {}
            self._eliminated_by = (session.game_id, by)
        for event in events:
            if event.get("type") == "eliminated" and event.get("by"):
                by[str(event["player"])] = str(event["by"])
