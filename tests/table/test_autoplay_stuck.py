"""autoplay.play gives up on a game that no longer moves with a RuntimeError naming the
phase it is stuck in, for RISK Strike too (whose state has no board `pending`)."""

from __future__ import annotations

from typing import Any

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import strike
from pi_app.table.autoplay import play
from pi_app.table.gestures import Selection


class DeafTable:
    """A table that takes every phone command and never changes its game."""

    def __init__(self, state: Any) -> None:
        self.state, self.submitted = state, 0

    def do(self, gesture: Any) -> None:
        raise AssertionError("only phone commands are expected")

    def submit(self, player: str, command: dict[str, Any]) -> None:
        self.submitted += 1

    def wait(self, revision: int, timeout: float) -> None:
        pass

    def look(self) -> tuple[Any, Selection, int]:
        return self.state, Selection(), 0


def test_a_stuck_strike_game_is_reported_with_its_phase() -> None:
    state = strike.new_game(["red", "blue"], None, SeededSource(1)).state
    table = DeafTable(state)
    with pytest.raises(RuntimeError, match=f"the bot is stuck in {state.phase}$"):
        play(table, max_moves=100, by_phone=lambda _state: True)
    assert table.submitted > 20
