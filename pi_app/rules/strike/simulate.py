"""Bots play complete RISK Strike games headless: `simulate_strike(players, games, seed)`.

The summary matches the board game's `riskboard simulate`: games, finished, winners
(colour -> wins), commands, turns, seconds, variant, players, seed. A reaction window is
answered by every awaited bot in seat order; the table's timer is never needed.
"""

from __future__ import annotations

import time
from typing import Any

from pi_app.dice import SeededSource
from pi_app.rules.board import load_roster
from pi_app.rules.strike.bot import StrikeBot
from pi_app.rules.strike.engine import apply, new_game
from pi_app.rules.strike.queries import waiting_for
from pi_app.rules.strike.state import StrikeState

MAX_TURNS = 2000


def play_bot_game(colours: list[str], seed: int | str, bot: StrikeBot | None = None,
                  max_turns: int = MAX_TURNS) -> tuple[StrikeState, int]:
    """Play one bot game from a seeded source; return the final state and commands applied."""
    rng = SeededSource(seed)
    chooser = bot or StrikeBot()
    state = new_game(colours, None, rng).state
    commands = 0
    while state.winner is None and state.turn <= max_turns:
        player = waiting_for(state)[0]
        state = apply(state, chooser.choose(state, player), rng).state
        commands += 1
    return state, commands


def simulate_strike(players: int, games: int, seed: int | str) -> dict[str, Any]:
    """Play `games` bot games with `players` seats; return the summary dict."""
    colours = list(load_roster().colours[:players])
    winners = dict.fromkeys(colours, 0)
    finished = commands = turns = 0
    started = time.perf_counter()
    for game in range(games):
        state, count = play_bot_game(colours, f"{seed}:{game}")
        commands += count
        turns += state.turn
        if state.winner is not None:
            finished += 1
            winners[state.winner] += 1
    seconds = time.perf_counter() - started
    return {"variant": "strike", "players": players, "seed": seed, "games": games,
            "finished": finished, "winners": winners, "commands": commands, "turns": turns,
            "seconds": round(seconds, 3)}
