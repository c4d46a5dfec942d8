"""Game positions for the table tests, built through the rules (plus a few direct edits)."""

from __future__ import annotations

from pi_app.dice import SeededSource
from pi_app.rules import GameState, HouseRules, load_map, new_game

BOARD = load_map()


def dealt_game(seed: int = 3, **rules: object) -> GameState:
    """A 3-player Classic game after a deal setup (phase setup_place)."""
    return new_game("classic", ["red", "blue", "green"], HouseRules(setup="deal", **rules),
                    SeededSource(seed)).state


def attack_position(state: GameState, player: str = "red") -> GameState:
    """`state` turned into `player`'s attack phase with 5 armies on their territories."""
    state.phase = "attack"
    state.turn = 1
    state.current_player = player
    state.pending = None
    for t, owner in state.owner.items():
        state.armies[t] = 5 if owner == player else 2
    for p in state.reserves:
        state.reserves[p] = 0
    return state


def border_pair(state: GameState, player: str = "red") -> tuple[str, str]:
    """An own territory of `player` and an enemy neighbour of it."""
    for t in state.territories_of(player):
        for n in BOARD.neighbours[t]:
            if state.owner[n] != player:
                return t, n
    raise AssertionError("no border")
