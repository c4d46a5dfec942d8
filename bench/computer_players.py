"""Computer players' strength and thinking time (issue 16).

One computer seat of each level plays seeded games against today's bots (`SimpleBot`, and
`StrikeBot` in RISK Strike), through `pi_app.computer.matches.summarise_matches` — the
same code as `riskboard simulate --computer LEVEL`; its seat rotates round the table.
Four-player Classic: `--games` games per level (default 200), aims hard >= 45 % wins,
normal >= 30 % (25 % is parity with three bots), easy below parity (it plays like a
beginner). Every other variant: `--variant-games` games per level (default 40), reported
against its parity, no aim. Thinking time: the 99th percentile of every computer decision
(redaction of the view, rebuilding the state, choosing) over all games, aim < 100 ms.

Run: ``.venv/bin/python -m bench.computer_players [--games 200] [--variant-games 40]``.
"""

from __future__ import annotations

import argparse
import time

from pi_app.computer.matches import summarise_matches

LEVELS = ("easy", "normal", "hard")
CLASSIC_AIMS = {"hard": (">=", 0.45), "normal": (">=", 0.30), "easy": ("<", 0.25)}
AIM_P99_MS = 100.0
OTHER_VARIANTS = (("mission", 4), ("capital", 4), ("two-player", 2), ("allied", 2),
                  ("strike", 4))


def _line(text: str, ok: bool) -> str:
    return f"{text}  {'OK' if ok else 'MISS'}"


def run(games: int, variant_games: int, seed: str) -> list[str]:
    """Play the games; return the report lines (each ending OK or MISS, or a plain
    figure for the variants that have no aim)."""
    lines = []
    p99s = []
    for level in LEVELS:
        started = time.process_time()
        summary = summarise_matches("classic", 4, games, seed, [level])
        wins = summary["computer"]["wins"][level]
        rate = wins / games
        sign, aim = CLASSIC_AIMS[level]
        ok = rate >= aim if sign == ">=" else rate < aim
        p99s.append(summary["computer"]["decision_ms_p99"])
        lines.append(_line(
            f"classic 4 players, {level:<6}: {wins}/{games} wins = {rate:.1%} "
            f"(aim {sign} {aim:.0%}; {summary['finished']} finished; "
            f"{summary['seconds']:.0f} s wall, {time.process_time() - started:.0f} s CPU)",
            ok))
    for variant, players in OTHER_VARIANTS:
        for level in LEVELS:
            summary = summarise_matches(variant, players, variant_games, seed, [level])
            wins = summary["computer"]["wins"][level]
            p99s.append(summary["computer"]["decision_ms_p99"])
            lines.append(f"{variant} {players} players, {level:<6}: {wins}/{variant_games} "
                         f"wins = {wins / variant_games:.1%} (parity {1 / players:.0%}; "
                         f"{summary['finished']} finished)")
    worst = max(p99s)
    lines.append(_line(f"per-decision p99 (worst run): {worst:.1f} ms "
                       f"(aim < {AIM_P99_MS:.0f} ms)", worst < AIM_P99_MS))
    return lines


def main() -> None:
    """Command-line entry: print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant-games", type=int, default=40)
    parser.add_argument("--seed", default="computer")
    args = parser.parse_args()
    for line in run(args.games, args.variant_games, args.seed):
        print(line, flush=True)


if __name__ == "__main__":
    main()
