"""The computer seats at the table (issue 16): its pace, its moves and the host's settings.

The seats themselves (levels, pause, the held step, the bots) are `pi_app.computer.seats`;
this is how the table runs them. `ComputerPlay` is a timed part (`pi_app.table.timers`):
it is due when the game awaits a computer seat, at once, or once its held step is released
(Confirm pressed, the pieces moved on an NFC board, or `confirm_after_s` passed on a
button board). Each step is announced, then submitted and journaled like a phone's; its
pieces are then lit to be moved by hand. While only computer seats may act, touches and
presses are refused, except Confirm releasing the held step.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pi_app.rules import RuleError
from pi_app.table.gestures import CONFIRM, EMPTY, InputEvent, Press, Refusal
from pi_app.table_api import CommandRejected

if TYPE_CHECKING:
    from pi_app.table.core import TableCore

log = logging.getLogger("riskboard.table")


class ComputerPlay:
    """Runs the core's computer seats (`core.computers`)."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    def deadline(self, now: float) -> float | None:
        """When the computer acts next (now, or when its held step releases by itself)."""
        core = self.core
        computers, state = core.computers, core.state
        if core.paused or core.session is None or core.session.status != "running":
            return None
        if computers.to_play(state, core.awaited()) is None:
            return None
        tracking = core.board.tracker is not None
        if not computers.must_wait(state):
            return now
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
        """Play one command for the seat the game waits for (see the module docstring)."""
        core = self.core
        session, state = core.session, core.state
        if session is None or state is None:
            return
        computers = core.computers
        seat = computers.to_play(state, core.awaited())
        if seat is None:
            return
        now = core.clock()
        if computers.must_wait(state) and not computers.release_due(
                now, core.board.tracker is not None, not core.board.mismatches):
            return
        command = computers.decide(state, seat)
        data = command.to_dict()
        try:
            _seq, events = session.submit(command)
        except RuleError as exc:  # a bug in the computer: stop it rather than loop
            log.error("event=table.computer_refused player=%s code=%s command=%s", seat,
                      exc.code, data)
            core.computers = computers.configure({"paused": True}, list(state.players))
            core.publish([{"type": "computer_stopped", "player": seat, "code": exc.code}],
                         state_changed=False)
            return
        log.info("event=table.computer_played player=%s type=%s", seat, data["type"])
        computers.hold = computers.held_step(data, core.clock())
        core.selection = core.settled(EMPTY)
        core.clear_refusal()
        core.publish([computers.announcement(data), *(e.to_dict() for e in events)],
                     state_changed=True)

    def hold(self) -> Any:
        """The computer's held step while the game waits for that computer (None when a
        human is to act: their own selection and Confirm are theirs then)."""
        computers = self.core.computers
        if computers.hold is None or computers.to_play(self.core.state,
                                                       self.core.awaited()) is None:
            return None
        return computers.hold

    def on_input(self, event: InputEvent, where: str | None) -> bool:
        """A touch or press while the computer plays: Confirm releases its held step;
        anything else is refused while only a computer seat may act. True if handled."""
        core = self.core
        state, computers = core.state, core.computers
        if not computers.levels or state is None:
            return False
        waiting = core.awaited()
        if self.hold() is not None and isinstance(event, Press) and event.button == CONFIRM:
            computers.hold = None
            core.publish([{"type": "computer_released"}], state_changed=False)
            return True
        if waiting and all(p in computers.levels for p in waiting):
            names = ", ".join(p.capitalize() for p in waiting)
            core.refuse(Refusal("computer_turn", f"The computer plays {names}: move its "
                                "pieces as the lights show, then press Confirm.", where), None)
            return True
        return False

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
