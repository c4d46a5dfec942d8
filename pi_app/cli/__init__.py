"""The `riskboard` command line: one subcommand per module in this package.

Each module in `pi_app.cli` that defines `register(subparsers)` adds its own
subcommand; `register` must set `func` (taking the parsed args, returning an
exit code) with `parser.set_defaults(func=...)`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    """Build the top-level parser with every subcommand module registered."""
    parser = argparse.ArgumentParser(
        prog="riskboard",
        description="A smart RISK table: rules, fair dice, lights and a status page.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
