"""Do the computer's levels mean something? (issue 23.11)

One computer seat plays four-player games against three of the standard bots (`SimpleBot`
in Classic, `StrikeBot` in RISK Strike), its seat rotating round the table game by game so
it plays every seat position equally often (`pi_app.computer.matches.computer_seats`; use
a multiple of 4 games). Each level plays the same seeded dice streams
(`SeededSource(f"{seed}:{game}")`), on seeds other than the ones the levels were tuned
on (tuning used "tune"). Win rates come with 95 % Wilson intervals, and the gap between
two levels with a 95 % Newcombe interval (the hybrid score interval of a difference of two
independent proportions).

Aims: Classic hard at least 10 points above normal; Strike's levels differ (hard above
normal above easy).

Run: ``.venv/bin/python -m bench.computer_levels [--games 160] [--seed levels]
[--variant classic|strike|both]`` (about 50 ms of CPU per Classic game, 15 ms per Strike
game: 160 games of each level take well under a minute of CPU).
"""

from __future__ import annotations

import argparse
import math
import time

from pi_app.computer.matches import summarise_matches

Z = 1.959963984540054  # two-sided 95 %
GAP_AIM = 0.10  # Classic: hard at least this far above normal


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate of `wins` in `games`."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def gap_interval(wins_a: int, wins_b: int, games: int) -> tuple[float, float, float]:
    """(rate a - rate b, and its 95 % Newcombe interval), both over `games` games."""
    pa, pb = wins_a / games, wins_b / games
    la, ua = wilson(wins_a, games)
    lb, ub = wilson(wins_b, games)
    gap = pa - pb
    return (gap, gap - math.sqrt((pa - la) ** 2 + (ub - pb) ** 2),
            gap + math.sqrt((ua - pa) ** 2 + (pb - lb) ** 2))


def play(variant: str, levels: tuple[str, ...], games: int, seed: str) -> dict[str, int]:
    """Wins of one computer seat of each level in `games` four-player games."""
    wins = {}
    for level in levels:
        started = time.process_time()
        summary = summarise_matches(variant, 4, games, seed, [level])
        wins[level] = summary["computer"]["wins"][level]
        low, high = wilson(wins[level], games)
        print(f"{variant:8} {level:<6} {wins[level]:>3}/{games} wins = "
              f"{wins[level] / games:6.1%}  95 % [{low:6.1%}, {high:6.1%}]  "
              f"(parity 25 %; {summary['finished']} finished; "
              f"{time.process_time() - started:.0f} s CPU)", flush=True)
    return wins


def report_gap(variant: str, wins: dict[str, int], high: str, low: str, games: int,
               aim: float) -> bool:
    """Print the gap between two levels; whether it meets `aim` (its point estimate)."""
    gap, lower, upper = gap_interval(wins[high], wins[low], games)
    ok = gap >= aim
    print(f"{variant:8} {high} - {low}: {gap * 100:+.1f} points  "
          f"95 % [{lower * 100:+.1f}, {upper * 100:+.1f}]  "
          f"(aim >= {aim * 100:+.0f})  {'OK' if ok else 'MISS'}", flush=True)
    return ok


def main() -> int:
    """Play the games and print the table; exit 1 if an aim is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=160)
    parser.add_argument("--seed", default="levels")
    parser.add_argument("--variant", choices=("classic", "strike", "both"), default="both")
    args = parser.parse_args()
    ok = True
    if args.variant in ("classic", "both"):
        wins = play("classic", ("normal", "hard"), args.games, args.seed)
        ok &= report_gap("classic", wins, "hard", "normal", args.games, GAP_AIM)
    if args.variant in ("strike", "both"):
        wins = play("strike", ("easy", "normal", "hard"), args.games, args.seed)
        ok &= report_gap("strike", wins, "hard", "normal", args.games, 0.0001)
        ok &= report_gap("strike", wins, "normal", "easy", args.games, 0.0001)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
