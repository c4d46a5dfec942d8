"""`riskboard verify-dice DB GAME`: check every journaled roll against the revealed seed.

Exit 0 when every row's checksum holds and the seed matches the commitment and reproduces
every draw with the derivation version the commitment names (see `pi_app.dice`; a version-2
game's recorded stream positions are checked too); 1 when any row fails its checksum
("seq N fails its checksum: altered or corrupt"; the rows after it are still checked), a
seq is missing, or a draw does not match or is malformed; 2 when the check cannot run.
The journal is opened read-only and never migrated; only `--reveal` writes (the reveal).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from typing import Any

from pi_app.cli.replay import open_journal
from pi_app.dice import commitment_of, dice_version_of, verify_all_draws
from pi_app.journal import AuditRow, Journal, JournalError

MAX_REPORTED = 20  # mismatched draws printed before stopping


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
    """Verify the rows and the dice; exit 0 all match, 1 altered/mismatch, 2 cannot check."""
    opened = open_journal(args.db, args.game, "verify-dice")
    if opened is None:
        return 2
    journal, game_id = opened
    try:
        game = journal.game(game_id)
        rows = journal.audit_rows(game_id)
    except (JournalError, sqlite3.DatabaseError) as exc:
        print(f"riskboard verify-dice: {exc}.", file=sys.stderr)
        return 2
    finally:
        journal.close()
    seed_hex = args.seed or game.revealed_seed
    if seed_hex is None and args.reveal:
        if game.status == "running":
            print(f"riskboard verify-dice: game {game.id} is still running; its seed is "
                  "revealed only after the game.", file=sys.stderr)
            return 2
        with Journal(args.db) as writer:
            seed_hex = writer.reveal(game.id)
    if seed_hex is None:
        print(f"riskboard verify-dice: game {game.id}'s seed is not revealed yet; it is "
              "revealed when the game ends (the host may use --reveal after the game, or "
              "pass --seed).", file=sys.stderr)
        return 2
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError:
        print(f"riskboard verify-dice: the seed must be hex, got {seed_hex!r}.", file=sys.stderr)
        return 2
    version = dice_version_of(game.commitment)
    if commitment_of(seed, version) != game.commitment:
        print(f"MISMATCH: sha256 of the seed is {commitment_of(seed, 1)}, but the game "
              f"committed to {game.commitment} at its start.")
        return 1
    failed = _row_problems(rows)
    for problem in failed:
        print(problem)
    readable = _readable_prefix(rows)
    physical = bool(game.house_rules.get("physical_dice", False))
    checked, mismatches = verify_all_draws(
        seed, [(r.seq, r.draws) for r in readable], physical, limit=MAX_REPORTED,
        version=version, positions={r.seq: r.dice_at for r in readable})
    for mismatch in mismatches:
        print(f"MISMATCH at {mismatch.sentence()}.")
    if mismatches:
        more = " (reporting stopped there)" if len(mismatches) >= MAX_REPORTED else ""
        print(f"FAILED: {len(mismatches)} draw(s) do not match the seed{more}; {checked} "
              "draws matched.")
        return 1
    if len(readable) < len(rows):
        print(f"Note: seq {rows[len(readable)].seq}'s draws are unreadable, so the draws after "
              "it could not be checked.")
    if failed:
        print(f"FAILED: {len(failed)} row problem(s) in game {game.id}; the {checked} draws "
              "that could be checked match the seed.")
        return 1
    typed = " (typed physical dice are not derived from the seed and were skipped)" \
        if physical else ""
    print(f"OK: every row's checksum holds; the seed matches commitment {game.commitment} and "
          f"reproduces all {checked} draws of {len(rows)} journal entries of game "
          f"{game.id} (dice derivation version {version}){typed}.")
    return 0


def _row_problems(rows: list[AuditRow]) -> list[str]:
    """One sentence per row failing its checksum or per missing seq."""
    problems = []
    expected = 0
    for row in rows:
        for missing in range(expected, row.seq):
            problems.append(f"seq {missing} is missing: rows were removed or lost")
        expected = row.seq + 1
        if not row.ok:
            problems.append(f"seq {row.seq} fails its checksum: altered or corrupt")
    return problems


def _readable_prefix(rows: list[AuditRow]) -> list[AuditRow]:
    """Rows up to the first whose draws are not readable (the dice counter is lost there)."""
    for index, row in enumerate(rows):
        if row.draws is None:
            return rows[:index]
    return rows
