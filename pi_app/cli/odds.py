"""`riskboard odds S D`: exact odds of taking a territory of D armies from one of S.

S and D are capped at the rules' `MAX_ARMIES` (1000, `pi_app.rules.odds`, the web's cap too):
no real board holds more in one territory, and the computation grows with S * D (1000 x 1000
answers in about a second on a Pi-class core; beyond the cap the command exits 2 with a
sentence).

Quick to start: `pi_app.rules.odds` is pure and needs nothing else of the rules engine,
but importing it through its package would load the whole engine first (the package's
`__init__` imports every module, about three times Python's own start-up). So, unless the
engine is loaded already, the module file is loaded on its own (`odds_module`).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # typing costs start-up time; annotations are strings here anyway
    from collections.abc import Callable
    from types import ModuleType
    from typing import Any


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


def odds_module() -> ModuleType:
    """`pi_app.rules.odds`, without loading the rules package when it is not loaded yet
    (see the module docstring)."""
    if "pi_app.rules" in sys.modules:
        from pi_app.rules import odds

        return odds
    path = Path(__file__).resolve().parent.parent / "rules" / "odds.py"
    spec = importlib.util.spec_from_file_location("pi_app_cli_odds_engine", path)
    if spec is None or spec.loader is None:  # pragma: no cover - the file ships with us
        from pi_app.rules import odds

        return odds
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def battle_odds_function() -> Callable[[int, int], Any]:
    """`pi_app.rules.odds.battle_odds` (loaded as `odds_module` does)."""
    return odds_module().battle_odds


def _armies(text: str, what: str, minimum: int, most: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"The {what} must be a whole number of armies, got {text!r}.") from None
    if not minimum <= value <= most:
        raise ValueError(
            f"The {what} must hold between {minimum} and {most} armies, got {value}.")
    return value


def run(args: argparse.Namespace) -> int:
    """Print the odds; exit 2 with a sentence on bad input."""
    rules_odds = odds_module()
    try:
        source = _armies(args.source, "source territory", 1, rules_odds.MAX_ARMIES)
        target = _armies(args.target, "target territory", 1, rules_odds.MAX_ARMIES)
    except ValueError as exc:
        print(f"riskboard odds: {exc}", file=sys.stderr)
        return 2
    odds = rules_odds.battle_odds(source, target)
    if args.json:
        import json

        print(json.dumps(odds.to_dict()))
        return 0
    print(f"Attack {target} defenders from a territory of {source} armies "
          f"({source - 1} can attack, both sides rolling the most dice):")
    print(f"  chance of conquest:        {float(odds.p_conquer):.2%}")
    print(f"  expected attacker losses:  {float(odds.expected_attacker_losses):.2f}")
    print(f"  expected defender losses:  {float(odds.expected_defender_losses):.2f}")
    return 0
