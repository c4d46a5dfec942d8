"""Bots play complete RISK Strike games headless: `simulate_strike(players, games, seed,
source_for)`.

Pure like the rules it plays (it lives beside the bot, outside them): the caller passes
`source_for(text) -> RandomSource` (the CLI uses `SeededSource`) and times the run
itself. The summary matches the board game's `riskboard simulate` minus `seconds` (added
by the CLI): games, finished, winners (colour -> wins), commands, turns, variant,
players, seed. A reaction window is answered by every awaited bot in seat order; the
table's timer is never needed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_app.computer.strike_bot import StrikeBot
from pi_app.rules.board import load_roster
from pi_app.rules.strike.engine import apply, new_game
from pi_app.rules.strike.queries import waiting_for
from pi_app.rules.strike.state import StrikeState

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

MAX_TURNS = 2000


def play_bot_game(colours: list[str], rng: RandomSource, bot: StrikeBot | None = None,
                  max_turns: int = MAX_TURNS) -> tuple[StrikeState, int]:
    """Play one bot game with `rng`; return the final state and commands applied."""
    chooser = bot or StrikeBot()
    state = new_game(colours, None, rng).state
    commands = 0
    while state.winner is None and state.turn <= max_turns:
        player = waiting_for(state)[0]
        state = apply(state, chooser.choose(state, player), rng).state
        commands += 1
    return state, commands


def simulate_strike(players: int, games: int, seed: int | str,
                    source_for: Callable[[str], RandomSource]) -> dict[str, Any]:
    """Play `games` bot games with `players` seats, game g with `source_for(f"{seed}:{g}")`;
    return the summary dict (no timing: the caller measures)."""
    colours = list(load_roster().colours[:players])
    winners = dict.fromkeys(colours, 0)
    finished = commands = turns = 0
    for game in range(games):
        state, count = play_bot_game(colours, source_for(f"{seed}:{game}"))
        commands += count
        turns += state.turn
        if state.winner is not None:
            finished += 1
            winners[state.winner] += 1
    return {"variant": "strike", "players": players, "seed": seed, "games": games,
            "finished": finished, "winners": winners, "commands": commands, "turns": turns}
