"""`riskboard replay DB GAME`: print a journaled game turn by turn, with every roll.

The journal is opened read-only and never migrated (see `Journal(read_only=True)`).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from pathlib import Path
from typing import Any

from pi_app.journal import Entry, GameRecord, Journal, JournalError


def register(subparsers: Any) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay", help="print a journaled game turn by turn",
        description="Replay a game from its journal and print every command and what it "
                    "caused, turn by turn.")
    parser.add_argument("db", help="the journal file (SQLite)")
    parser.add_argument("game", help="the game id")
    parser.set_defaults(func=run)


def open_journal(db: str, game: str, command: str) -> tuple[Journal, int] | None:
    """Open a journal read-only and check the game id, or print a sentence and return None."""
    try:
        game_id = int(game)
    except ValueError:
        print(f"riskboard {command}: a game id is a whole number, got {game!r}.", file=sys.stderr)
        return None
    if not Path(db).is_file():
        print(f"riskboard {command}: there is no journal file at {db}.", file=sys.stderr)
        return None
    try:
        journal = Journal(db, read_only=True)
    except (JournalError, OSError, sqlite3.DatabaseError) as exc:
        print(f"riskboard {command}: {exc}.", file=sys.stderr)
        return None
    return journal, game_id


def open_record(db: str, game: str, command: str) -> tuple[Journal, GameRecord] | None:
    """Open a journal read-only and read one game, or print a sentence and return None."""
    opened = open_journal(db, game, command)
    if opened is None:
        return None
    journal, game_id = opened
    try:
        return journal, journal.load(game_id)
    except (JournalError, ValueError, sqlite3.DatabaseError) as exc:
        journal.close()
        print(f"riskboard {command}: {exc}.", file=sys.stderr)
        return None


def describe(data: dict[str, Any]) -> str:
    """One line for a command or event dict: its type, then its fields."""
    fields = " ".join(f"{k}={_value(v)}" for k, v in data.items() if k not in ("type", "player"))
    who = f"{data['player']}: " if "player" in data else ""
    return f"{who}{data.get('type', '?')} {fields}".rstrip()


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_value(v) for v in value) + "]"
    return str(value)


def _battle(event: dict[str, Any]) -> str:
    """One line for a roll: the board game's names territories and counts losses; RISK
    Strike's has no territories and lists the losing side of each die pair (`losers`)."""
    if "from" in event:
        where = f"battle {event['from']} -> {event['to']}"
        a_lost, d_lost = event["attacker_losses"], event["defender_losses"]
    else:
        where = f"battle {event['attacker']} vs {event['defender']}"
        losers = list(event.get("losers", []))
        a_lost, d_lost = losers.count("attacker"), losers.count("defender")
    return (f"{where}: {event['attacker']} rolls {_value(event['attack_dice'])}, "
            f"{event['defender']} rolls {_value(event['defence_dice'])}; "
            f"{event['attacker']} loses {a_lost}, {event['defender']} loses {d_lost}")


def _undone(entry: Entry) -> str:
    return f"  #{entry.seq:<5} (undone) {describe(entry.command)}"


def run(args: argparse.Namespace) -> int:
    """Print the game; exit 1 if a bad row has good rows after it (altered or corrupt: the
    game is printed up to it), 2 with a sentence if the journal or game cannot be read."""
    from pi_app.session import replay_steps  # the rules load only when a game is replayed

    opened = open_record(args.db, args.game, "replay")
    if opened is None:
        return 2
    journal, record = opened
    game = record.game
    print(f"Game {game.id}: {game.variant}, players {', '.join(game.players)}, "
          f"started {game.created_at}, {game.status}")
    print(f"Dice commitment (sha256 of the seed): {game.commitment}"
          + (f"; seed revealed: {game.revealed_seed}" if game.revealed_seed else ""))
    undone = [e for e in record.entries if e.undone]
    turn = None
    try:
        for entry, state, events in replay_steps(record):
            while undone and undone[0].seq < entry.seq:
                print(_undone(undone.pop(0)))
            if entry.seq == 0:
                print("Setup")
                rules = entry.command["house_rules"]
                print("  #0     new game, house rules: "
                      + " ".join(f"{k}={_value(v)}" for k, v in rules.items()))
            else:
                print(f"  #{entry.seq:<5} {describe(entry.command)}")
            for event in events:
                data = event.to_dict()
                text = _battle(data) if data.get("type") == "battle" else describe(data)
                print(f"           {text}")
            if state.turn != turn and state.turn:
                turn = state.turn
                print(f"Turn {turn}: {state.current_player}")
        for entry in undone:
            print(_undone(entry))
    except (JournalError, sqlite3.DatabaseError) as exc:
        print(f"riskboard replay: {exc}.", file=sys.stderr)
        return 2
    finally:
        journal.close()
    if record.corrupt:
        print(f"riskboard replay: journal row seq {record.torn_at} fails its checksum or is "
              "missing, with good rows after it: altered or corrupt; the replay stopped there "
              "(run verify-dice for every row).", file=sys.stderr)
        return 1
    if record.torn_at is not None:
        print(f"(journal torn at seq {record.torn_at}: the rows from there on are incomplete "
              "and were not replayed)")
    if state.winner:
        print(f"Winner: {state.winner}")
    return 0
