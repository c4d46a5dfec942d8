"""The `riskboard` command line: one subcommand per module in this package.

Each module in `pi_app.cli` that defines `register(subparsers)` adds its own subcommand;
`register` must set `func` (taking the parsed args, returning an exit code) with
`parser.set_defaults(func=...)`, and the module must be listed in `SUBCOMMANDS`.

Quick to start (issue 15 item 4): a run imports only the module of the subcommand it
names. The others appear in `riskboard --help` through their line in `SUBCOMMANDS`, so the
rules engine, Flask or SQLite are never loaded for a command that does not use them.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# subcommand: (module in pi_app.cli, the help line `riskboard --help` shows for it; the
# same as the module's own, which a test checks)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "bringup": ("bringup", "teach the table how the board is wired (--print-steps: what it takes)"),
    "doctor": ("doctor", "check serial port, firmware, LEDs, buttons and config"),
    "odds": ("odds", "exact odds of a territory attack, both sides rolling the most dice"),
    "replay": ("replay", "print a journaled game turn by turn"),
    "serve": ("serve", "run the table and its status pages"),
    "simulate": ("simulate", "let bots play complete games headless"),
    "table-card": ("table_card",
                   "write a printable card with the table's Wi-Fi and page QR codes"),
    "verify-dice": ("verify_dice",
                    "recompute every roll of a journaled game from its revealed seed"),
}


def chosen_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand `argv` names (its first word that is not an option), if any."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


class _PrintVersion(argparse.Action):
    """`--version`: print "riskboard <version>" and exit 0 (the version is read only now)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from pi_app.version import version_line

        print(version_line())
        parser.exit()


def build_parser(only: str | None = None, *, everything: bool = True) -> argparse.ArgumentParser:
    """The top-level parser. With `everything`, every subcommand's module is imported and
    registered in full; else only `only`'s is, and the others are one-line entries."""
    parser = argparse.ArgumentParser(
        prog="riskboard",
        description="A smart RISK table: rules, fair dice, lights and a status page.",
    )
    parser.add_argument("--version", action=_PrintVersion,
                        help="print the installed riskboard's version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_line) in SUBCOMMANDS.items():
        if everything or name == only:
            module = importlib.import_module(f"{__name__}.{module_name}")
            module.register(subparsers)
        else:
            subparsers.add_parser(name, help=help_line, add_help=False)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(chosen_subcommand(words), everything=False)
    args = parser.parse_args(words)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    return int(func(args) or 0)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
