"""A table without hardware or journal: gestures in, rules applied, selection kept as the
loop keeps it (settled after every accepted command). For the gesture tests."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules import GameState, RuleError, apply
from pi_app.table.gestures import EMPTY, Decision, InputEvent, Selection, interpret, settle


class BoardPlay:
    """Feeds touches and presses through `interpret` and applies the commands."""

    def __init__(self, state: GameState, seed: int = 5) -> None:
        self.state = state
        self.rng = SeededSource(seed)
        self.selection: Selection = EMPTY
        self.actions = 0
        self.events: list[dict] = []

    def do(self, event: InputEvent) -> Decision:
        """One touch or press; raises AssertionError if the rules refuse its command."""
        self.actions += 1
        decision = interpret(self.state, self.selection, event)
        if decision.refusal is not None:
            return decision
        if decision.command is not None:
            trial = self.state.copy()
            try:
                outcome = apply(trial, decision.command, self.rng)
            except RuleError as exc:
                raise AssertionError(f"{decision.command} refused: {exc.message}") from exc
            self.state = outcome.state
            self.events.extend(e.to_dict() for e in outcome.events)
            self.selection = settle(self.state, decision.selection)
        else:
            self.selection = decision.selection
        return decision
