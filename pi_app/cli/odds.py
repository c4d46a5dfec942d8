"""`riskboard odds S D`: exact odds of taking a territory of D armies from one of S.

S and D are capped at MAX_ARMIES (1000): no real board holds more in one territory, and
the computation grows with S * D (1000 x 1000 answers in about a second on a Pi-class
core; beyond the cap the command exits 2 with a sentence).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from pi_app.rules.odds import battle_odds

MAX_ARMIES = 1_000


def register(subparsers: Any) -> None:
    """Add the `odds` subcommand."""
    parser = subparsers.add_parser(
        "odds",
        help="exact odds of a territory attack, both sides rolling the most dice",
        description="Odds of conquering a territory of D armies from a source of S armies "
        "(one army stays behind), both sides always rolling the most dice allowed.",
    )
    parser.add_argument("source", help="armies in the attacking territory (S)")
    parser.add_argument("target", help="armies in the defending territory (D)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def _armies(text: str, what: str, minimum: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"The {what} must be a whole number of armies, got {text!r}.") from None
    if not minimum <= value <= MAX_ARMIES:
        raise ValueError(
            f"The {what} must hold between {minimum} and {MAX_ARMIES} armies, got {value}.")
    return value


def run(args: argparse.Namespace) -> int:
    """Print the odds; exit 2 with a sentence on bad input."""
    try:
        source = _armies(args.source, "source territory", 1)
        target = _armies(args.target, "target territory", 1)
    except ValueError as exc:
        print(f"riskboard odds: {exc}", file=sys.stderr)
        return 2
    odds = battle_odds(source, target)
    if args.json:
        print(json.dumps(odds.to_dict()))
        return 0
    print(f"Attack {target} defenders from a territory of {source} armies "
          f"({source - 1} can attack, both sides rolling the most dice):")
    print(f"  chance of conquest:        {float(odds.p_conquer):.2%}")
    print(f"  expected attacker losses:  {float(odds.expected_attacker_losses):.2f}")
    print(f"  expected defender losses:  {float(odds.expected_defender_losses):.2f}")
    return 0
