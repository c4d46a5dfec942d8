"""`riskboard verify-dice DB GAME`: check every journaled roll against the revealed seed.

Exit 0 when the seed matches the commitment and reproduces every draw (see `pi_app.dice`
for the derivation), 1 at the first mismatch (reported), 2 when the check cannot run.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pi_app.cli.replay import open_record
from pi_app.dice import commitment_of, verify_draws


def register(subparsers: Any) -> None:
    """Add the `verify-dice` subcommand."""
    parser = subparsers.add_parser(
        "verify-dice", help="recompute every roll of a journaled game from its revealed seed",
        description="Check that the revealed dice seed matches the commitment published at "
                    "game start and reproduces every roll and shuffle in the journal.")
    parser.add_argument("db", help="the journal file (SQLite)")
    parser.add_argument("game", help="the game id")
    parser.add_argument("--seed", help="a seed (hex) to check instead of the journal's")
    parser.add_argument("--reveal", action="store_true",
                        help="host: reveal the seed of a game that has ended, then check it")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Verify the dice; exit 0 all match, 1 mismatch, 2 cannot check."""
    opened = open_record(args.db, args.game, "verify-dice")
    if opened is None:
        return 2
    journal, record = opened
    game = record.game
    try:
        seed_hex = args.seed or game.revealed_seed
        if seed_hex is None and args.reveal:
            if game.status == "running":
                print(f"riskboard verify-dice: game {game.id} is still running; its seed is "
                      "revealed only after the game.", file=sys.stderr)
                return 2
            seed_hex = journal.reveal(game.id)
        if seed_hex is None:
            print(f"riskboard verify-dice: game {game.id}'s seed is not revealed yet; it is "
                  "revealed when the game ends (the host may use --reveal after the game, or "
                  "pass --seed).", file=sys.stderr)
            return 2
    finally:
        journal.close()
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        print(f"riskboard verify-dice: the seed must be hex, got {seed_hex!r}.", file=sys.stderr)
        return 2
    if commitment_of(seed) != game.commitment:
        print(f"MISMATCH: sha256 of the seed is {commitment_of(seed)}, but the game committed "
              f"to {game.commitment} at its start.")
        return 1
    physical = bool(game.house_rules.get("physical_dice", False))
    checked, mismatch = verify_draws(seed, [(e.seq, e.draws) for e in record.entries],
                                     physical)
    if mismatch is not None:
        print(f"MISMATCH at {mismatch.sentence()} ({checked} earlier draws matched).")
        return 1
    typed = " (typed physical dice are not derived from the seed and were skipped)" \
        if physical else ""
    print(f"OK: the seed matches commitment {game.commitment} and reproduces all {checked} "
          f"draws of {len(record.entries)} journal entries of game {game.id}{typed}.")
    if record.torn_at is not None:
        print(f"Note: the journal is torn at seq {record.torn_at}; rows from there were not "
              "checked.")
    return 0
