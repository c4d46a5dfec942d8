"""Play whole variant games with bots, and set up variant positions, for the variant tests."""

from __future__ import annotations

from typing import Any

from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import SeededSource
from pi_app.rules import Event, GameState, HouseRules, apply, new_game, waiting_for

COLOURS = ["red", "blue", "green", "yellow", "black", "pink"]
BOT = SimpleBot()


def bot_game(variant: str, players: int, seed: int | str, house_rules: HouseRules | None = None,
             max_commands: int = 40_000) -> tuple[GameState, list[list[Event]]]:
    """A complete bot game: the final state and the events of every command (setup first)."""
    rng = SeededSource(seed)
    outcome = new_game(variant, COLOURS[:players], house_rules or HouseRules(), rng)
    state = outcome.state
    history = [outcome.events]
    for _ in range(max_commands):
        if state.winner is not None:
            break
        player = waiting_for(state)
        assert player is not None
        outcome = apply(state, BOT.choose(state, player), rng)
        history.append(outcome.events)
    return state, history


def event_types(history: list[list[Event]]) -> list[str]:
    """Every event type of a game, in order."""
    return [e.type for events in history for e in events]


def events_of(history: list[list[Event]], kind: str) -> list[dict[str, Any]]:
    """The JSON form of every event of type `kind` in a game."""
    return [e.to_dict() for events in history for e in events if e.type == kind]
