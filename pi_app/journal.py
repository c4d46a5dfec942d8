"""The game journal: every accepted command and the dice it used, durably in SQLite.

One file holds many games. `games` keeps each game's parameters, its dice commitment and
secret seed (shown only once revealed) and its status; `commands` keeps one row per entry:
seq 0 is the `new_game` entry, then one row per accepted command, each with its draws and a
SHA-256 checksum of the row. A row whose checksum fails, or a gap in the seqs, marks a torn
tail: loading stops at the last complete entry, logs `event=journal.torn_tail`, and (when
repairing) moves the torn rows to `torn_rows` so play can go on. A write torn inside
SQLite's own WAL (power cut mid-commit) never becomes a row at all: SQLite's frame checksums
discard the incomplete commit on the next open, and since a command is acknowledged only
after its commit returned, that command was never acknowledged.

Undone commands stay in `commands` with `undone = 1` (kept for audit and for dice
verification: their dice were rolled); replay skips them.

SQLite runs in WAL mode with `synchronous=FULL`, so a committed append is on disk when
`append` returns. The schema version is `PRAGMA user_version`; `MIGRATIONS` is the ordered
list of steps from an empty file to the current version.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger("riskboard.journal")

STATUSES = ("running", "finished", "abandoned")

# Ordered schema steps; step i (1-based) brings user_version from i-1 to i. Never edit a
# published step: append a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            created_at TEXT NOT NULL,
            variant TEXT NOT NULL,
            players_json TEXT NOT NULL,
            house_rules_json TEXT NOT NULL,
            commitment TEXT NOT NULL,
            seed_hex TEXT NOT NULL,
            revealed INTEGER NOT NULL DEFAULT 0,
            status TEXT NOT NULL DEFAULT 'running')""",
        """CREATE TABLE commands (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            command_json TEXT NOT NULL,
            draws_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            checksum TEXT NOT NULL,
            PRIMARY KEY (game_id, seq))""",
    ),
    (
        "ALTER TABLE commands ADD COLUMN undone INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE torn_rows (
            game_id INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            command_json TEXT,
            draws_json TEXT,
            created_at TEXT,
            checksum TEXT,
            found_at TEXT NOT NULL)""",
        "CREATE INDEX games_status ON games(status)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class JournalError(RuntimeError):
    """The journal cannot do what was asked (unknown game, newer schema, bad row)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=False)


def row_checksum(game_id: int, seq: int, command_json: str, draws_json: str,
                 created_at: str) -> str:
    """SHA-256 (hex) over a row's payload, so a torn or altered row is recognised."""
    payload = "\x1f".join((str(game_id), str(seq), command_json, draws_json, created_at))
    return hashlib.sha256(payload.encode()).hexdigest()


@dataclass(frozen=True)
class GameRow:
    """A game's parameters and status, as journaled (the seed only once revealed)."""

    id: int
    created_at: str
    variant: str
    players: list[str]
    house_rules: dict[str, Any]
    commitment: str
    revealed_seed: str | None
    status: str


@dataclass
class Entry:
    """One journal row: seq 0 is the new_game entry, then one per accepted command."""

    seq: int
    command: dict[str, Any]
    draws: list[list[Any]]
    created_at: str
    undone: bool = False


@dataclass
class GameRecord:
    """A game and its complete entries in seq order; `torn_at` is the first torn seq."""

    game: GameRow
    entries: list[Entry]
    torn_at: int | None = None

    def active_entries(self) -> list[Entry]:
        """Entries that make up the game (undone ones left out)."""
        return [e for e in self.entries if not e.undone]


class Journal:
    """An SQLite journal file. One writer (the table orchestrator) at a time."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._db = sqlite3.connect(str(self.path), isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Close the database connection."""
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        """The file's schema version (`PRAGMA user_version`)."""
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def settings(self) -> dict[str, str]:
        """The durability settings in force: journal mode and synchronous level."""
        mode = self._db.execute("PRAGMA journal_mode").fetchone()[0]
        level = self._db.execute("PRAGMA synchronous").fetchone()[0]
        names = {0: "off", 1: "normal", 2: "full", 3: "extra"}
        return {"journal_mode": str(mode), "synchronous": names.get(int(level), str(level))}

    def _migrate(self) -> None:
        version = self.schema_version
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} has journal schema {version}; this riskboard knows up to "
                f"{SCHEMA_VERSION}. Upgrade riskboard to open it.")
        for number in range(version + 1, SCHEMA_VERSION + 1):
            with self._transaction():
                for statement in MIGRATIONS[number - 1]:
                    self._db.execute(statement)
                self._db.execute(f"PRAGMA user_version = {number}")
            log.info("event=journal.migrated path=%s to_version=%d", self.path, number)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, variant: str, players: list[str], house_rules: dict[str, Any],
                    commitment: str, seed_hex: str, entry: dict[str, Any],
                    draws: list[list[Any]]) -> int:
        """Record a new game and its seq-0 entry in one transaction; return the game id."""
        created = _now()
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created_at, variant, players_json, house_rules_json,"
                " commitment, seed_hex) VALUES (?, ?, ?, ?, ?, ?)",
                (created, variant, _dumps(players), _dumps(house_rules), commitment, seed_hex))
            game_id = int(cursor.lastrowid or 0)
            self._insert(game_id, 0, entry, draws, created)
        return game_id

    def append(self, game_id: int, seq: int, command: dict[str, Any],
               draws: list[list[Any]]) -> None:
        """Append one accepted command with its draws; durable when this returns."""
        with self._transaction():
            self._insert(game_id, seq, command, draws, _now())

    def _insert(self, game_id: int, seq: int, command: dict[str, Any], draws: list[list[Any]],
                created: str) -> None:
        command_json, draws_json = _dumps(command), _dumps(draws)
        self._db.execute(
            "INSERT INTO commands (game_id, seq, command_json, draws_json, created_at,"
            " checksum) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, seq, command_json, draws_json, created,
             row_checksum(game_id, seq, command_json, draws_json, created)))

    def mark_undone(self, game_id: int, seqs: list[int]) -> None:
        """Mark commands as undone (kept for audit; replay skips them)."""
        with self._transaction():
            self._db.executemany("UPDATE commands SET undone = 1 WHERE game_id = ? AND seq = ?",
                                 [(game_id, s) for s in seqs])

    def set_status(self, game_id: int, status: str) -> None:
        """Set a game's status: running, finished or abandoned."""
        if status not in STATUSES:
            raise JournalError(f"a game's status is one of {', '.join(STATUSES)}, not {status!r}")
        with self._transaction():
            self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def reveal(self, game_id: int) -> str:
        """Mark the game's seed as revealed and return it as hex."""
        with self._transaction():
            self._db.execute("UPDATE games SET revealed = 1 WHERE id = ?", (game_id,))
        return self.secret_seed(game_id)

    # -- reading ---------------------------------------------------------------------------

    def secret_seed(self, game_id: int) -> str:
        """The game's seed as hex, revealed or not: for resuming the dice, never for display."""
        row = self._db.execute("SELECT seed_hex FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return str(row[0])

    def game(self, game_id: int) -> GameRow:
        """One game's parameters and status."""
        row = self._db.execute(
            "SELECT id, created_at, variant, players_json, house_rules_json, commitment,"
            " CASE WHEN revealed THEN seed_hex END, status FROM games WHERE id = ?",
            (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return GameRow(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5],
                       row[6], row[7])

    def game_ids(self, status: str | None = None) -> list[int]:
        """Ids of all games, or of those with the given status, oldest first."""
        if status is None:
            rows = self._db.execute("SELECT id FROM games ORDER BY id")
        else:
            rows = self._db.execute("SELECT id FROM games WHERE status = ? ORDER BY id",
                                    (status,))
        return [int(r[0]) for r in rows]

    def load(self, game_id: int, repair: bool = False) -> GameRecord:
        """Read a game's complete entries in order, stopping at a torn tail.

        A torn tail (bad checksum, unreadable row or missing seq) is logged; with
        `repair=True` its rows are moved to `torn_rows` so the game can continue.
        """
        game = self.game(game_id)
        entries: list[Entry] = []
        torn_at: int | None = None
        for row in self._rows(game_id):
            seq, command_json, draws_json, created, checksum, undone = row
            entry = None
            if seq == len(entries) and checksum == row_checksum(
                    game_id, seq, command_json, draws_json, created):
                try:
                    entry = Entry(seq, json.loads(command_json), json.loads(draws_json), created,
                                  bool(undone))
                except (TypeError, ValueError):
                    entry = None
            if entry is None:
                torn_at = len(entries)
                break
            entries.append(entry)
        if torn_at is not None:
            dropped = self._db.execute(
                "SELECT COUNT(*) FROM commands WHERE game_id = ? AND seq >= ?",
                (game_id, torn_at)).fetchone()[0]
            log.warning("event=journal.torn_tail game=%d seq=%d dropped=%d repaired=%s",
                        game_id, torn_at, dropped, "yes" if repair else "no")
            if repair:
                self._quarantine(game_id, torn_at)
        if not entries:
            raise JournalError(f"game {game_id} has no readable new_game entry")
        return GameRecord(game, entries, torn_at)

    def _rows(self, game_id: int) -> Iterator[tuple[Any, ...]]:
        return self._db.execute(
            "SELECT seq, command_json, draws_json, created_at, checksum, undone FROM commands"
            " WHERE game_id = ? ORDER BY seq", (game_id,))

    def _quarantine(self, game_id: int, from_seq: int) -> None:
        with self._transaction():
            self._db.execute(
                "INSERT INTO torn_rows (game_id, seq, command_json, draws_json, created_at,"
                " checksum, found_at) SELECT game_id, seq, command_json, draws_json, created_at,"
                " checksum, ? FROM commands WHERE game_id = ? AND seq >= ?",
                (_now(), game_id, from_seq))
            self._db.execute("DELETE FROM commands WHERE game_id = ? AND seq >= ?",
                             (game_id, from_seq))


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")
