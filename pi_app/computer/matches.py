"""Headless games with computer seats against today's bots (`riskboard simulate --computer`,
`bench/computer_players.py`).

Each computer seat decides from `redact(state, seat)`, exactly what it gets at the table;
the other seats are `SimpleBot` (board variants) or `StrikeBot` (RISK Strike), which read
the state as they always have. Decision times of the computer seats are collected.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from pi_app.computer.player import ComputerPlayer
from pi_app.redaction import redact
from pi_app.rules import HouseRules, apply, game_info, new_game, waiting_for

MAX_TURNS = 5000


@dataclass
class MatchResult:
    """One finished (or turn-capped) game: its final state, commands played, how long
    each computer decision took (seconds), and `digest`, a SHA-256 of the game's journal
    (every command in order): the same seed gives the same digest in any process."""

    state: Any
    commands: int
    decision_seconds: list[float] = field(default_factory=list)
    digest: str = ""


def _awaited(state: Any) -> str | None:
    if game_info(state.variant).card_game:
        from pi_app.rules.strike.queries import waiting_for as strike_waiting_for

        awaited = strike_waiting_for(state)
        return awaited[0] if awaited else None
    return waiting_for(state)


def play_match(variant: str, colours: list[str], computers: dict[str, str], rng: Any,
               house_rules: HouseRules | None = None, max_turns: int = MAX_TURNS) -> MatchResult:
    """Play one game of `variant`; `computers` maps a seat to its level, the rest are the
    standard bots. `rng` is the game's dice (a `RandomSource`)."""
    if game_info(variant).card_game:
        from pi_app.computer.strike_bot import StrikeBot

        bot: Any = StrikeBot()
        state = new_game(variant, colours, None, rng).state
    else:
        from pi_app.computer.simple_bot import SimpleBot

        bot = SimpleBot()
        state = new_game(variant, colours, house_rules or HouseRules(), rng).state
    players = {seat: ComputerPlayer(level) for seat, level in computers.items()}
    result = MatchResult(state, 0)
    journal = hashlib.sha256()
    while state.winner is None and state.turn < max_turns:
        seat = _awaited(state)
        if seat is None:
            break
        computer = players.get(seat)
        if computer is None:
            command = bot.choose(state, seat)
        else:
            started = time.perf_counter()
            command = computer.decide(redact(state, seat))
            result.decision_seconds.append(time.perf_counter() - started)
        state = apply(state, command, rng).state
        result.commands += 1
        journal.update(json.dumps(command.to_dict(), sort_keys=True).encode() + b"\n")
    result.state = state
    result.digest = journal.hexdigest()
    return result


def computer_seats(colours: list[str], levels: list[str], game: int) -> dict[str, str]:
    """Seats for `levels` in game number `game`: they rotate round the table game by game,
    so each level plays every seat position (first player, last) equally often."""
    n = len(colours)
    return {colours[(game + i) % n]: level for i, level in enumerate(levels)}


def summarise_matches(variant: str, players: int, games: int, seed: int | str,
                      levels: list[str], house_rules: HouseRules | None = None,
                      game_done: Any = None) -> dict[str, Any]:
    """Play `games` games (game g with `SeededSource(f"{seed}:{g}")`) with computer seats of
    `levels` against the bots; the `riskboard simulate` summary plus `computer`."""
    from pi_app.dice import SeededSource
    from pi_app.rules.board import load_roster

    colours = list(load_roster().colours[:players])
    winners = dict.fromkeys(colours, 0)
    wins = dict.fromkeys(levels, 0)
    finished = commands = turns = 0
    seconds: list[float] = []
    journals = hashlib.sha256()
    started = time.perf_counter()
    for game in range(games):
        seats = computer_seats(colours, levels, game)
        result = play_match(variant, colours, seats, SeededSource(f"{seed}:{game}"),
                            house_rules)
        commands += result.commands
        journals.update(result.digest.encode())
        turns += result.state.turn
        seconds.extend(result.decision_seconds)
        winner = result.state.winner
        if winner is not None:
            finished += 1
            winners[winner] += 1
            if winner in seats:
                wins[seats[winner]] += 1
        if game_done is not None:
            game_done()
    seconds.sort()
    p99 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.99))] if seconds else 0.0
    return {"variant": variant, "players": players, "seed": seed, "games": games,
            "finished": finished, "winners": winners, "commands": commands, "turns": turns,
            "seconds": round(time.perf_counter() - started, 3), "digest": journals.hexdigest(),
            "computer": {"levels": list(levels), "wins": wins,
                         "decisions": len(seconds), "decision_ms_p99": round(p99 * 1000, 2)}}
