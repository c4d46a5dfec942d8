"""`riskboard simulate`: bots play complete games headless and a summary is printed.

    riskboard simulate --variant classic --players 4 --games 10 --seed 1 [--json]
    riskboard simulate --variant mission --rule mission_deck=euro14
    riskboard simulate --variant two-player          (two-player and allied: 2 seats)

Variants: classic, mission, capital, two-player (with neutral), allied, and strike (its own
engine, `pi_app.rules.strike`). `--players` defaults to 4 (2 for two-player and allied).
`--rule KEY=VALUE` sets a house rule (VALUE as JSON, else text), e.g.
`--rule capital_short_game=true`. With --json exactly one JSON object is printed: games,
finished, winners (colour -> wins), commands, turns, seconds, variant, players, seed.
A refused setting (player count, house rule) exits with 2 and a sentence.

    riskboard simulate --computer hard --games 200        (computer players, issue 16)

`--computer LEVEL` (easy, normal, hard; repeatable) seats a computer player deciding from
its redacted view (`pi_app.computer`) against the standard bots; its seat rotates round the
table game by game. The summary then also has `computer`: {"levels": [...], "wins":
{level: games won}, "decision_ms_p99": ...}, and `digest`: a SHA-256 over every game's
commands, so anyone can check that the same seed gave them the same games (in any
process: no decision depends on the interpreter's hash seed).

While the games run, a progress bar (tqdm) counts them on stderr when stderr is a terminal;
otherwise (a pipe, a file, a test) nothing is written there. Standard output is the same
either way.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, RuleError, apply, new_game, waiting_for
from pi_app.rules.board import load_roster
from pi_app.rules.variants import VARIANT_NAMES, game_info, get_variant

MAX_TURNS = 5000


def register(subparsers: Any) -> None:
    """Add the `simulate` subcommand."""
    parser = subparsers.add_parser("simulate", help="let bots play complete games headless")
    parser.add_argument("--variant", default="classic", choices=VARIANT_NAMES)
    parser.add_argument("--players", type=int, default=None,
                        help="seats (default 4; 2 for two-player and allied)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="0", help="seed for the dice (int or text)")
    parser.add_argument("--setup", choices=("default", "claim", "deal"), default="default")
    parser.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                        help="a house rule, e.g. mission_deck=euro14 (repeatable)")
    parser.add_argument("--computer", action="append", default=[], metavar="LEVEL",
                        choices=("easy", "normal", "hard"),
                        help="seat a computer player of LEVEL against the bots (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def simulate(variant: str, players: int, games: int, seed: int | str,
             house_rules: HouseRules | None = None,
             game_done: Callable[[], None] | None = None) -> dict[str, Any]:
    """Play `games` bot games and return the summary dict (see module docstring);
    `game_done` is called after each game (progress)."""
    colours = list(load_roster().colours[:players])
    bot = SimpleBot()
    winners = dict.fromkeys(colours, 0)
    finished = commands = turns = 0
    started = time.perf_counter()
    for game in range(games):
        rng = SeededSource(f"{seed}:{game}")
        state = new_game(variant, colours, house_rules or HouseRules(), rng).state
        choose = bot.choose
        while state.winner is None and state.turn < MAX_TURNS:
            player = waiting_for(state)
            assert player is not None
            state = apply(state, choose(state, player), rng).state
            commands += 1
        turns += state.turn
        if state.winner is not None:
            finished += 1
            winners[state.winner] += 1
        if game_done is not None:
            game_done()
    seconds = time.perf_counter() - started
    return {"variant": variant, "players": players, "seed": seed, "games": games,
            "finished": finished, "winners": winners, "commands": commands, "turns": turns,
            "seconds": round(seconds, 3)}


def house_rules_from(setup: str, rules: list[str]) -> HouseRules:
    """HouseRules from `--setup` and `--rule KEY=VALUE` options (RuleError if refused)."""
    values: dict[str, Any] = {"setup": setup}
    for item in rules:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise RuleError("bad_house_rules", f"--rule needs KEY=VALUE, got {item!r}.")
        try:
            values[key] = json.loads(text)
        except json.JSONDecodeError:
            values[key] = text
    return HouseRules.from_dict(values)


def run(args: argparse.Namespace) -> int:
    """Run the simulation from parsed arguments; print the summary; return the exit code."""
    if args.players is None:
        args.players = game_info(args.variant).default_players
    roster = load_roster()
    if not 1 <= args.players <= len(roster.colours):
        print(f"--players must be between 1 and {len(roster.colours)}, got {args.players}.",
              file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games must be at least 1.", file=sys.stderr)
        return 2
    if len(args.computer) > args.players:
        print("--computer names more seats than --players has.", file=sys.stderr)
        return 2
    if args.computer:
        return _run_computer(args)
    if game_info(args.variant).card_game:
        return _run_strike(args)
    try:
        get_variant(args.variant)
    except RuleError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    with GameProgress(args.games, f"{args.variant} games") as game_done:
        try:
            summary = simulate(args.variant, args.players, args.games, seed,
                               house_rules_from(args.setup, args.rule), game_done)
        except RuleError as exc:
            print(exc.message, file=sys.stderr)
            return 2
    return _print(args, summary, seed)


class GameProgress:
    """A tqdm bar of `total` games on stderr when stderr is a terminal, else nothing.

    `with GameProgress(n, "label") as game_done:` gives the function to call after each
    game; the bar is cleared when the block ends, so the summary stands alone."""

    def __init__(self, total: int, label: str) -> None:
        self._bar: Any = None
        if sys.stderr.isatty():
            from tqdm import tqdm  # only on a terminal: a plain run does not import it

            self._bar = tqdm(total=total, desc=label, unit="game", file=sys.stderr,
                             leave=False, dynamic_ncols=True,
                             # every finished game is drawn: games take milliseconds, and a
                             # short run must not end before the bar first counts one
                             mininterval=0, miniters=1)

    def __enter__(self) -> Callable[[], None] | None:
        return None if self._bar is None else self._advance

    def _advance(self) -> None:
        self._bar.update(1)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


def _run_strike(args: argparse.Namespace) -> int:
    """RISK Strike has its own engine and bot; its summary has the same shape."""
    from pi_app.computer.strike_games import simulate_strike
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    started = time.perf_counter()
    try:
        summary = simulate_strike(args.players, args.games, seed, SeededSource)
    except RuleError as exc:
        print(exc.message, file=sys.stderr)
        return 2
    summary["seconds"] = round(time.perf_counter() - started, 3)
    return _print(args, summary, seed)


def _run_computer(args: argparse.Namespace) -> int:
    """Games with computer seats (`--computer`) against the standard bots."""
    from pi_app.computer.matches import summarise_matches

    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    with GameProgress(args.games, f"{args.variant} games") as game_done:
        try:
            rules = (None if game_info(args.variant).card_game else
                     house_rules_from(args.setup, args.rule))
            summary = summarise_matches(args.variant, args.players, args.games, seed,
                                        args.computer, rules, game_done)
        except RuleError as exc:
            print(exc.message, file=sys.stderr)
            return 2
    code = _print(args, summary, seed)
    if not args.json:
        computer = summary["computer"]
        for level, wins in computer["wins"].items():
            print(f"  computer {level:<6} {wins} wins")
        print(f"  computer decisions: p99 {computer['decision_ms_p99']:.1f} ms")
    return code


def _print(args: argparse.Namespace, summary: dict[str, Any], seed: int | str) -> int:
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return 0
    print(f"{summary['games']} {args.variant} games with {args.players} bots (seed {seed}): "
          f"{summary['finished']} finished in {summary['seconds']:.2f} s, "
          f"{summary['commands']} commands, {summary['turns']} turns")
    for colour, wins in summary["winners"].items():
        print(f"  {colour:<7} {wins} wins")
    return 0
