"""Build game states in a chosen position, and scripted dice, for rules tests."""

from __future__ import annotations

from typing import Any

from pi_app.dice import ReplaySource, SeededSource
from pi_app.rules import GameState, HouseRules, new_game
from pi_app.rules.board import load_map
from pi_app.rules.state import ATTACK

BOARD = load_map()
THREE = ["red", "blue", "green"]


def dice(*rolls: tuple[int, ...] | list[int]) -> ReplaySource:
    """A source that returns exactly these rolls, in order, and refuses anything else."""
    return ReplaySource([["d", list(r)] for r in rolls])


def no_chance() -> ReplaySource:
    """A source with no draws: any die or shuffle the command asks for fails the test."""
    return ReplaySource([])


def position(players: list[str] | None = None, territories: dict[str, Any] | None = None,
             phase: str = ATTACK, current: str | None = None,
             hands: dict[str, list[str]] | None = None, reserves: dict[str, int] | None = None,
             house_rules: HouseRules | None = None, default_armies: int = 1,
             variant: str = "classic", **extra: Any) -> GameState:
    """A game of `variant` in play (setup done, turn 1): territories dealt round-robin in
    map order with `default_armies` each, then `territories` overrides as
    {id: [owner, armies]}; `extra` sets any other state attribute."""
    players = players or list(THREE)
    rules = house_rules or HouseRules()
    state = new_game(variant, players, rules, SeededSource(0)).state
    for i, tid in enumerate(BOARD.territories):
        state.owner[tid] = players[i % len(players)]
        state.armies[tid] = default_armies
    for tid, (owner, armies) in (territories or {}).items():
        state.owner[tid] = owner
        state.armies[tid] = armies
    state.phase = phase
    state.current_player = current or players[0]
    state.turn = 1
    state.reserves = dict.fromkeys(players, 0)
    if reserves:
        state.reserves.update(reserves)
    if hands:
        for p, cards in hands.items():
            state.hands[p] = list(cards)
            for c in cards:
                state.deck.remove(c)
    for key, value in extra.items():
        setattr(state, key, value)
    return state


def owned_by(state: GameState, player: str) -> list[str]:
    """Territories of `player` in map order."""
    return [t for t in BOARD.territories if state.owner[t] == player]


def refused(state: GameState, command: Any, code: str, rng: Any = None) -> None:
    """Assert `command` is refused with `code` and a sentence, and changes nothing."""
    import pytest

    from pi_app.rules import RuleError, apply

    before = state.to_dict()
    with pytest.raises(RuleError) as err:
        apply(state, command, rng or no_chance())
    assert err.value.code == code, err.value.message
    assert err.value.message
    assert state.to_dict() == before
