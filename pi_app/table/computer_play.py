"""The computer seats at the table (issue 16): its pace, its moves and the host's settings.

The seats themselves (levels, pause, the held step, the bots) are `pi_app.computer.seats`;
this is how the table runs them. `ComputerPlay` is a timed part (`pi_app.table.timers`):
it is due when the game awaits a computer seat, at once, while the computer plays a phase
or the game needs its decision, or once its held step is released (Confirm pressed, the
pieces moved on an NFC board, or `confirm_after_s` passed on a button board). Each command
is announced, then submitted and journaled like a phone's, and gathered into the phase's
held step (`ComputerSeats.gather`); once the phase is over the step's pieces are lit to be
moved by hand. While the step waits (even when the turn has passed to a human seat) and
while only computer seats may act, touches and presses are refused, except Confirm
releasing the held step and a human's answer to a decision the game needs now (a defence).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

from pi_app.computer.seats import ComputerSeats, before_move
from pi_app.journal import Journal
from pi_app.rules import GameState, RuleError
from pi_app.session import GameSession
from pi_app.table.board_inputs import BoardReader
from pi_app.table.gestures import CONFIRM, EMPTY, InputEvent, Press, Refusal, Selection
from pi_app.table_api import CommandRejected

log = logging.getLogger("riskboard.table")


class PlayingTable(Protocol):
    """What the computer's play uses of the table (`TableCore`): the seats, the game and
    whom it awaits, the board reader (are the pieces where the step put them?), the journal
    (the seats' settings), the clock, and the selection, refusal and publishing."""

    computers: ComputerSeats
    session: GameSession | None
    journal: Journal
    board: BoardReader
    paused: bool
    selection: Selection

    @property
    def state(self) -> GameState | None: ...

    def awaited(self) -> list[str]: ...

    def clock(self) -> float: ...

    def settled(self, selection: Selection) -> Selection: ...

    def clear_refusal(self) -> None: ...

    def refuse(self, refusal: Refusal, actor: str | None) -> None: ...

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool) -> int: ...


class ComputerPlay:
    """Runs the core's computer seats (`core.computers`)."""

    def __init__(self, core: PlayingTable) -> None:
        self.core = core

    def deadline(self, now: float) -> float | None:
        """When the computer acts next: now while it plays its phase or the game needs its
        decision, else when its held step releases by itself (NFC boards poll the board)."""
        core = self.core
        computers, state = core.computers, core.state
        if core.paused or core.session is None or core.session.status != "running":
            return None
        if computers.to_play(state, core.awaited()) is not None and \
                not computers.must_wait(state):
            return now
        if computers.waiting() is None:
            return None
        tracking = core.board.tracker is not None
        if computers.release_due(now, tracking, not core.board.mismatches):
            return now
        later = computers.next_release()
        if tracking:  # poll the board while it waits for the pieces
            later = min(later, now + 0.25) if later is not None else now + 0.25
        return later

    def tick(self, now: float) -> None:
        """Play a step when one is due."""
        due = self.deadline(now)
        if due is not None and now >= due:
            self.step()

    def step(self) -> None:
        """Release a held step that is done by itself, then play one command for the
        seat the game waits for (see the module docstring)."""
        core = self.core
        session, state = core.session, core.state
        if session is None or state is None:
            return
        computers = core.computers
        now = core.clock()
        released: list[dict[str, Any]] = []
        seat = computers.to_play(state, core.awaited())
        if computers.waiting() is not None and (seat is None or computers.must_wait(state)):
            if not computers.release_due(now, core.board.tracker is not None,
                                         not core.board.mismatches):
                return
            computers.hold = None
            released = [{"type": "computer_released"}]
        if seat is None:
            if released:
                core.publish(released, state_changed=False)
            return
        command = computers.decide(state, seat)
        data = command.to_dict()
        before = before_move(data, state)
        try:
            _seq, events = session.submit(command)
        except RuleError as exc:  # a bug in the computer: stop it rather than loop
            log.error("event=table.computer_refused player=%s code=%s command=%s", seat,
                      exc.code, data)
            core.computers = computers.configure({"paused": True}, list(state.players))
            core.publish([*released, {"type": "computer_stopped", "player": seat,
                                      "code": exc.code}], state_changed=False)
            return
        log.info("event=table.computer_played player=%s type=%s", seat, data["type"])
        computers.gather(data, before, session.state, core.clock())
        core.selection = core.settled(EMPTY)
        core.clear_refusal()
        core.publish([*released, computers.announcement(data),
                      *(e.to_dict() for e in events)], state_changed=True)

    def hold(self) -> Any:
        """The computer's held step while the table waits for the humans to copy it (even
        when the turn has passed to another seat); None while the computer still plays its
        phase or is paused."""
        return self.core.computers.waiting()

    def on_input(self, event: InputEvent, where: str | None) -> bool:
        """A touch or press while the computer plays or its step waits: Confirm releases
        the held step; a human's decision the game needs now (a defence) goes to the game;
        anything else is refused until the step is copied, or while only a computer seat
        may act. True if handled."""
        core = self.core
        state, computers = core.state, core.computers
        if not computers.levels or state is None:
            return False
        waiting = core.awaited()
        hold = self.hold()
        humans_decide = bool(waiting) and not all(p in computers.levels for p in waiting)
        if hold is not None and isinstance(event, Press) and event.button == CONFIRM:
            computers.hold = None
            core.publish([{"type": "computer_released"}], state_changed=False)
            return True
        if hold is not None and not (humans_decide and state.pending is not None):
            self._refuse(hold.players, where)
            return True
        if waiting and not humans_decide:
            self._refuse(waiting, where)
            return True
        return False

    def _refuse(self, seats: list[str], where: str | None) -> None:
        names = ", ".join(p.capitalize() for p in seats)
        self.core.refuse(Refusal("computer_turn", f"The computer plays {names}: move its "
                                 "pieces as the lights show, then press Confirm.", where), None)

    def configure(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The host's `computer` action, journaled first."""
        core = self.core
        if core.session is None or core.state is None:
            raise CommandRejected("no_game", "No game is running.")
        try:
            computers = core.computers.configure(dict(params), list(core.state.players))
        except ValueError as exc:
            raise CommandRejected("bad_computer", str(exc), 400) from None
        core.journal.set_computer_seats(core.session.game_id, computers.to_journal())
        core.computers = computers
        public = computers.public()
        log.info("event=table.computer_seats seats=%s paused=%s", public["seats"],
                 public["paused"])
        core.publish([{"type": "computer_seats", **public}], state_changed=False)
        return public

    def pause_after_undo(self) -> list[dict[str, Any]]:
        """After an undo: if the computer would play next it is paused (journaled), so an
        undo never makes it roll the same attack again with fresh dice; the host resumes
        it. The events to publish with the undo."""
        core = self.core
        assert core.session is not None and core.state is not None
        computers = core.computers
        computers.hold = None
        if computers.to_play(core.state, core.awaited()) is None:
            return []
        core.computers = computers.configure({"paused": True}, list(core.state.players))
        core.journal.set_computer_seats(core.session.game_id, core.computers.to_journal())
        return [{"type": "computer_seats", **core.computers.public()}]
