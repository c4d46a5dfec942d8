"""The game journal: every accepted command and the dice it used, durably in SQLite.

One file holds many games. `games` keeps each game's parameters, its dice commitment and
secret seed (shown only once revealed) and its status; `commands` keeps one row per entry:
seq 0 is the `new_game` entry, then one row per accepted command, each with its draws and a
SHA-256 checksum of the row (a game with version-2 dice also records in `dice_at` where its
dice stream stands after the row, covered by the checksum). A row whose checksum fails, or
a gap in the seqs, is a bad row. A real torn write only ever affects the LAST rows, so bad
rows with no good row after them are a torn tail: loading stops at the last complete entry,
logs `event=journal.torn_tail`, and (when repairing) moves the torn rows to `torn_rows` so
play can go on. A bad row with a
good row after it is not a torn write but corruption or tampering: loading logs
`event=journal.corrupt`, and a repairing load refuses (`JournalCorrupt`) and changes
nothing, so acknowledged rows are never dropped; the game's status becomes `corrupt` so
the service starts without it and the host decides (see `Journal.set_aside_from`).
Opening a journal for writing already checks the running games this way, so a service
start never even tries to resume a corrupt game; it keeps the entries it read for the first
`load` of each game (dropped as soon as that game is written), so a service start reads and
decodes every row once.

A write torn inside SQLite's own WAL (power cut mid-commit) never becomes a row at all:
SQLite's frame checksums discard the incomplete commit on the next open, and since a
command is acknowledged only after its commit returned, it was never acknowledged.

Auditing tools open the file with `Journal(path, read_only=True)`: the file is opened
read-only and never migrated (a file with a newer schema is refused; an older one is copied
into memory and the copy migrated).

Several writes become one transaction inside `with journal.atomic():` (a new game, the end
of the game it replaces and its seat tokens: a crash leaves all or none of them). The
seat tokens of a game (`seat_tokens`) and the host's pause (`games.paused`) are journaled
too, so a restart seats the same phones and keeps a paused game paused; so are the seats
the computer plays (`computer_seats`, issue 16).

Undone commands stay in `commands` with `undone = 1` (kept for audit and for dice
verification: their dice were rolled); replay skips them.

`snapshots` keeps the game state after some seqs (the session writes one every few hundred
commands), so a resume replays only the commands after the latest one. It is a cache of
what the rows already say: a snapshot is dropped when a row at or before its seq is undone
or set aside, one failing its checksum is ignored, and the rows alone always replay the
whole game (`riskboard replay`, `verify-dice` never read snapshots). It holds hidden
information like the draws do, so it is never shown.

SQLite runs in WAL mode with `synchronous=FULL`, so a committed append is on disk when
`append` returns; a journal file it creates has its folder fsynced too (the file's name is
an entry of the folder), as `pi_app.storage` does for the data folder itself. The schema
version is `PRAGMA user_version`; `MIGRATIONS` is the ordered list of steps from an empty
file to the current version.
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
from urllib.parse import quote

from pi_app.storage import fsync_directory

log = logging.getLogger("riskboard.journal")

STATUSES = ("running", "finished", "abandoned", "corrupt")

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
    (
        # the seat tokens of each game (a new game writes them in the transaction that
        # creates it) and the host's pause, so a restart brings both back
        """CREATE TABLE seat_tokens (
            game_id INTEGER NOT NULL REFERENCES games(id),
            player TEXT NOT NULL,
            token TEXT NOT NULL,
            PRIMARY KEY (game_id, player))""",
        "ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0",
    ),
    (
        # dice derivation version 2: the stream position [block, offset] after the row's
        # draws, as JSON (NULL for version-1 games, whose position is their draw count)
        "ALTER TABLE commands ADD COLUMN dice_at TEXT",
        "ALTER TABLE torn_rows ADD COLUMN dice_at TEXT",
    ),
    (
        # the game state after some seqs, so a resume replays only the commands after the
        # latest one (a cache: dropped with the rows it follows from, rebuilt by replay)
        """CREATE TABLE snapshots (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            state_json TEXT NOT NULL,
            checksum TEXT NOT NULL,
            PRIMARY KEY (game_id, seq))""",
    ),
    (
        # seats the Pi plays (issue 16): a host action, so a restart keeps them; the row
        # with player '' holds the computer's settings (paused, confirm_after_s) as JSON
        """CREATE TABLE IF NOT EXISTS computer_seats (
            game_id INTEGER NOT NULL REFERENCES games(id),
            player TEXT NOT NULL,
            level TEXT NOT NULL,
            PRIMARY KEY (game_id, player))""",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


class JournalError(RuntimeError):
    """The journal cannot do what was asked (unknown game, newer schema, bad row)."""


class JournalCorrupt(JournalError):
    """A game has a bad row with good rows after it: not a torn write, so not auto-repaired."""

    def __init__(self, game_id: int, seq: int, message: str) -> None:
        super().__init__(message)
        self.game_id = game_id
        self.seq = seq


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=False)


def row_checksum(game_id: int, seq: int, command_json: str, draws_json: str,
                 created_at: str, dice_at: str | None = None) -> str:
    """SHA-256 (hex) over a row's payload, so a torn or altered row is recognised.

    `dice_at` (the dice position JSON of a version-2 game's row) is covered when present;
    rows without one keep the checksum they were written with."""
    fields: tuple[str, ...] = (str(game_id), str(seq), command_json, draws_json, created_at)
    if dice_at is not None:
        fields += (dice_at,)
    return hashlib.sha256("\x1f".join(fields).encode()).hexdigest()


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


_UNREAD: Any = object()  # a field whose JSON is not decoded yet


class Entry:
    """One journal row: seq 0 is the new_game entry, then one per accepted command.

    `dice_at` is the version-2 dice position after the row's draws (None for version 1).
    A row read from the file keeps its command, draws and position as the checksummed JSON
    text and decodes each on first use, so reading a journal (opening checks every running
    game) costs a checksum per row, and a resume decodes each row once, as it replays it.
    """

    __slots__ = ("_command", "_dice_at", "_draws", "_texts", "created_at", "seq", "undone")

    def __init__(self, seq: int, command: dict[str, Any], draws: list[list[Any]],
                 created_at: str, undone: bool = False,
                 dice_at: list[int] | None = None) -> None:
        self.seq = seq
        self.created_at = created_at
        self.undone = undone
        self._command = command
        self._draws = draws
        self._dice_at = dice_at
        self._texts: tuple[str, str, str | None] | None = None

    @classmethod
    def from_row(cls, seq: int, command_json: str, draws_json: str, created_at: str,
                 undone: bool, at_json: str | None) -> Entry:
        """An entry over a stored row's JSON texts (decoded when first read)."""
        entry = cls(seq, _UNREAD, _UNREAD, created_at, undone, _UNREAD)
        entry._texts = (command_json, draws_json, at_json)
        return entry

    def _decode(self, index: int) -> Any:
        assert self._texts is not None
        text = self._texts[index]
        if text is None:
            return None
        if text == "[]":
            return []
        try:
            return json.loads(text)
        except ValueError as exc:  # only a row altered with its checksum recomputed
            raise JournalError(f"journal row seq {self.seq} is not readable JSON "
                               f"({exc})") from exc

    @property
    def command(self) -> dict[str, Any]:
        """The command as journaled (seq 0: the new_game entry)."""
        if self._command is _UNREAD:
            self._command = self._decode(0)
        return self._command

    @property
    def draws(self) -> list[list[Any]]:
        """The draws the command made, in order (see `pi_app.dice`)."""
        if self._draws is _UNREAD:
            self._draws = self._decode(1)
        return self._draws

    @property
    def dice_at(self) -> list[int] | None:
        """The version-2 dice position after this row's draws, or None."""
        if self._dice_at is _UNREAD:
            self._dice_at = self._decode(2)
        return self._dice_at

    def __repr__(self) -> str:
        return (f"Entry(seq={self.seq}, command={self.command!r}, draws={self.draws!r}, "
                f"undone={self.undone})")


@dataclass(frozen=True)
class AuditRow:
    """One stored row as found, for verification: `ok` says its checksum holds; `draws` is
    None when the draws are not readable JSON; `dice_at` is the recorded version-2 dice
    position (None when there is none or it is unreadable)."""

    seq: int
    draws: Any
    ok: bool
    undone: bool
    dice_at: Any = None


@dataclass
class GameRecord:
    """A game and its complete entries in seq order; `torn_at` is the first bad seq and
    `corrupt` says a good row follows it (so it is not a torn tail)."""

    game: GameRow
    entries: list[Entry]
    torn_at: int | None = None
    corrupt: bool = False

    def active_entries(self) -> list[Entry]:
        """Entries that make up the game (undone ones left out)."""
        return [e for e in self.entries if not e.undone]


class Journal:
    """An SQLite journal file. One writer (the table orchestrator) at a time."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        """Open (creating and migrating) a journal; `read_only` opens it for auditing."""
        self.path = Path(path)
        self.read_only = read_only
        self._depth = [0]  # open transactions: writes inside atomic() join the outer one
        # what opening read of each running game, for its first load (see _set_aside_...)
        self._opening_scans: dict[int, tuple[list[Entry], int | None, bool]] = {}
        if read_only:
            self._db = self._open_read_only()
            return
        new_file = not self.path.exists()
        self._db = sqlite3.connect(str(self.path), isolation_level=None,
                                   check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._migrate()
        if new_file:
            # the new file's name lives in its folder: durable only once the folder is
            # fsynced (SQLite syncs the file's contents, not the folder's entry for it)
            fsync_directory(self.path.parent)
        self._set_aside_corrupt_games()

    def _set_aside_corrupt_games(self) -> None:
        """Mark every running game with a bad row before a good one `corrupt` (rows kept),
        so a service start never tries to resume it and starts without it. What was read of
        the others is kept for their first `load` (the resume that follows)."""
        for game_id in self.game_ids("running"):
            scan = self._scan(game_id)
            _entries, torn_at, corrupt = scan
            if corrupt:
                log.error("event=journal.corrupt game=%d seq=%s action=set_aside", game_id,
                          torn_at)
                self.set_status(game_id, "corrupt")
            else:
                self._opening_scans[game_id] = scan

    def _open_read_only(self) -> sqlite3.Connection:
        """Open the file read-only; an older schema is read from a migrated in-memory copy."""
        uri = "file:" + quote(str(self.path.resolve())) + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise JournalError(f"{self.path} cannot be opened: {exc}") from exc
        try:
            version = int(db.execute("PRAGMA user_version").fetchone()[0])
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            db.close()
            raise JournalError(f"{self.path} is not a riskboard journal (not an SQLite "
                               f"database: {exc})") from exc
        if version > SCHEMA_VERSION:
            db.close()
            raise JournalError(
                f"{self.path} has journal schema {version}; this riskboard knows up to "
                f"{SCHEMA_VERSION}. Upgrade riskboard to read it.")
        if version == 0 or not {"games", "commands"} <= tables:
            db.close()
            raise JournalError(f"{self.path} is an SQLite file but not a riskboard journal")
        if version == SCHEMA_VERSION:
            return db
        copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.backup(copy)
        db.close()
        self._db = copy
        self._migrate()
        return copy

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
        return _Transaction(self._db, self._depth)

    def atomic(self) -> _Transaction:
        """A transaction around several writes: every write inside the block commits with
        the block, or none does (an exception rolls them all back). Nested writes join it."""
        return self._transaction()

    # -- writing ---------------------------------------------------------------------------

    def create_game(self, variant: str, players: list[str], house_rules: dict[str, Any],
                    commitment: str, seed_hex: str, entry: dict[str, Any],
                    draws: list[list[Any]], dice_at: list[int] | None = None) -> int:
        """Record a new game and its seq-0 entry in one transaction; return the game id.

        `dice_at` is the dice position after the draws (version-2 dice; None for version 1).
        """
        created = _now()
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (created_at, variant, players_json, house_rules_json,"
                " commitment, seed_hex) VALUES (?, ?, ?, ?, ?, ?)",
                (created, variant, _dumps(players), _dumps(house_rules), commitment, seed_hex))
            game_id = int(cursor.lastrowid or 0)
            self._insert(game_id, 0, entry, draws, created, dice_at)
        return game_id

    def append(self, game_id: int, seq: int, command: dict[str, Any],
               draws: list[list[Any]], finished: bool = False,
               dice_at: list[int] | None = None) -> None:
        """Append one accepted command with its draws; durable when this returns.

        `dice_at` is the dice position after the draws (version-2 dice; None for version 1).

        `finished` (the command won the game) sets the status to finished and reveals the
        seed in the same transaction, so a won game can never stay running.
        """
        with self._transaction():
            self._insert(game_id, seq, command, draws, _now(), dice_at)
            if finished:
                self._db.execute("UPDATE games SET status = 'finished', revealed = 1"
                                 " WHERE id = ?", (game_id,))

    def finish(self, game_id: int) -> None:
        """Set status finished and reveal the seed, in one transaction."""
        with self._transaction():
            self._db.execute("UPDATE games SET status = 'finished', revealed = 1 WHERE id = ?",
                             (game_id,))

    def _insert(self, game_id: int, seq: int, command: dict[str, Any], draws: list[list[Any]],
                created: str, dice_at: list[int] | None = None) -> None:
        self._opening_scans.pop(game_id, None)  # what opening read is out of date now
        command_json, draws_json = _dumps(command), _dumps(draws)
        at_json = None if dice_at is None else _dumps(list(dice_at))
        self._db.execute(
            "INSERT INTO commands (game_id, seq, command_json, draws_json, created_at,"
            " checksum, dice_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, seq, command_json, draws_json, created,
             row_checksum(game_id, seq, command_json, draws_json, created, at_json), at_json))

    def mark_undone(self, game_id: int, seqs: list[int]) -> None:
        """Mark commands as undone (kept for audit; replay skips them); the snapshots from
        the first of them on no longer hold and are dropped in the same transaction."""
        self._opening_scans.pop(game_id, None)
        with self._transaction():
            self._db.executemany("UPDATE commands SET undone = 1 WHERE game_id = ? AND seq = ?",
                                 [(game_id, s) for s in seqs])
            if seqs:
                self._db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?",
                                 (game_id, min(seqs)))

    def save_snapshot(self, game_id: int, seq: int, state: dict[str, Any]) -> None:
        """Keep the game's state after `seq` (its `to_dict()`) for quicker resumes."""
        state_json = _dumps(state)
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, state_json, checksum)"
                " VALUES (?, ?, ?, ?)",
                (game_id, seq, state_json, _snapshot_checksum(game_id, seq, state_json)))

    def latest_snapshot(self, game_id: int, at_most: int) -> tuple[int, dict[str, Any]] | None:
        """`(seq, state dict)` of the game's latest sound snapshot at or before seq `at_most`,
        or None (a snapshot failing its checksum or unreadable is skipped and logged)."""
        rows = self._db.execute(
            "SELECT seq, state_json, checksum FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC", (game_id, at_most))
        for seq, state_json, checksum in rows:
            try:
                if checksum == _snapshot_checksum(game_id, seq, state_json):
                    return int(seq), json.loads(state_json)
            except (TypeError, ValueError, AttributeError):
                pass
            log.warning("event=journal.bad_snapshot game=%d seq=%s action=skipped", game_id,
                        seq)
        return None

    def set_status(self, game_id: int, status: str) -> None:
        """Set a game's status: running, finished or abandoned."""
        if status not in STATUSES:
            raise JournalError(f"a game's status is one of {', '.join(STATUSES)}, not {status!r}")
        with self._transaction():
            self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def set_seat_tokens(self, game_id: int, tokens: dict[str, str]) -> None:
        """Replace the seat tokens of a game (player colour -> token)."""
        with self._transaction():
            self._db.execute("DELETE FROM seat_tokens WHERE game_id = ?", (game_id,))
            self._db.executemany(
                "INSERT INTO seat_tokens (game_id, player, token) VALUES (?, ?, ?)",
                [(game_id, player, token) for player, token in tokens.items()])

    def seat_tokens(self, game_id: int) -> dict[str, str] | None:
        """The journaled seat tokens of a game, or None when none were journaled."""
        rows = self._db.execute("SELECT player, token FROM seat_tokens WHERE game_id = ?"
                                " ORDER BY rowid", (game_id,)).fetchall()
        return {str(p): str(t) for p, t in rows} if rows else None

    def set_computer_seats(self, game_id: int, seats: dict[str, str]) -> None:
        """Replace the computer seats of a game (player colour -> level; the key '' holds
        the computer's settings as JSON text)."""
        with self._transaction():
            self._db.execute("DELETE FROM computer_seats WHERE game_id = ?", (game_id,))
            self._db.executemany(
                "INSERT INTO computer_seats (game_id, player, level) VALUES (?, ?, ?)",
                [(game_id, player, level) for player, level in seats.items()])

    def computer_seats(self, game_id: int) -> dict[str, str]:
        """The journaled computer seats of a game (see `set_computer_seats`)."""
        rows = self._db.execute("SELECT player, level FROM computer_seats WHERE game_id = ?"
                                " ORDER BY rowid", (game_id,)).fetchall()
        return {str(p): str(level) for p, level in rows}

    def set_paused(self, game_id: int, paused: bool) -> None:
        """Journal the host's pause (or resume) of a game."""
        with self._transaction():
            self._db.execute("UPDATE games SET paused = ? WHERE id = ?",
                             (1 if paused else 0, game_id))

    def paused(self, game_id: int) -> bool:
        """Whether the host left the game paused."""
        row = self._db.execute("SELECT paused FROM games WHERE id = ?", (game_id,)).fetchone()
        return bool(row and row[0])

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
        """Read a game's complete entries in order, stopping at the first bad row.

        Bad rows (bad checksum, unreadable row or missing seq) with no good row after them
        are a torn tail: logged, and with `repair=True` moved to `torn_rows` so the game can
        continue. A bad row followed by a good one is corruption: logged
        (`event=journal.corrupt`); with `repair=True` the game is marked `corrupt` and
        `JournalCorrupt` is raised, its rows untouched.
        """
        game = self.game(game_id)
        scan = self._opening_scans.pop(game_id, None)
        entries, torn_at, corrupt = scan if scan is not None else self._scan(game_id)
        if corrupt:
            assert torn_at is not None
            log.error("event=journal.corrupt game=%d seq=%d", game_id, torn_at)
            if repair:
                self.set_status(game_id, "corrupt")
                raise JournalCorrupt(
                    game_id, torn_at,
                    f"game {game_id}: seq {torn_at} fails its checksum or is missing, but good "
                    "rows follow it, so this is not a torn write; the game was not resumed and "
                    "nothing was dropped (the host decides: set it aside or leave it)")
        elif torn_at is not None:
            dropped = self._db.execute(
                "SELECT COUNT(*) FROM commands WHERE game_id = ? AND seq >= ?",
                (game_id, torn_at)).fetchone()[0]
            log.warning("event=journal.torn_tail game=%d seq=%d dropped=%d repaired=%s",
                        game_id, torn_at, dropped, "yes" if repair else "no")
            if repair:
                self._quarantine(game_id, torn_at)
        if not entries:
            raise JournalError(f"game {game_id} has no readable new_game entry")
        return GameRecord(game, entries, torn_at, corrupt)

    def _scan(self, game_id: int) -> tuple[list[Entry], int | None, bool]:
        """(the good entries before the first bad row, that row's seq or None, whether a
        good row follows it)."""
        entries: list[Entry] = []
        torn_at: int | None = None
        for row in self._rows(game_id):
            entry = self._entry(game_id, row)
            if torn_at is None and entry is not None and entry.seq == len(entries):
                entries.append(entry)
                continue
            if torn_at is None:
                torn_at = len(entries)
            if entry is not None and entry.seq > torn_at:
                return entries, torn_at, True
        return entries, torn_at, False

    @staticmethod
    def _entry(game_id: int, row: tuple[Any, ...]) -> Entry | None:
        """The row as an Entry (its JSON decoded when read), or None when its checksum fails
        or it is unreadable."""
        seq, command_json, draws_json, created, checksum, undone, at_json = row
        try:
            if checksum != row_checksum(game_id, seq, command_json, draws_json, created,
                                        at_json):
                return None
        except (TypeError, AttributeError):
            return None
        return Entry.from_row(seq, command_json, draws_json, created, bool(undone), at_json)

    def audit_rows(self, game_id: int) -> list[AuditRow]:
        """Every stored row of a game in seq order, bad ones included, for verification."""
        self.game(game_id)
        rows = []
        for row in self._rows(game_id):
            seq, _command, draws_json, _created, _checksum, undone, at_json = row
            try:
                draws = json.loads(draws_json)
            except (TypeError, ValueError):
                draws = None
            try:
                dice_at = None if at_json is None else json.loads(at_json)
            except (TypeError, ValueError):
                dice_at = None
            rows.append(AuditRow(int(seq), draws, self._entry(game_id, row) is not None,
                                 bool(undone), dice_at))
        return rows

    def set_aside_from(self, game_id: int, seq: int) -> None:
        """Host decision for a corrupt game: move rows from `seq` on to `torn_rows` and mark
        the game running again (play resumes from the last good row before `seq`)."""
        self._quarantine(game_id, seq)
        self.set_status(game_id, "running")
        log.warning("event=journal.set_aside game=%d from_seq=%d", game_id, seq)

    def _rows(self, game_id: int) -> Iterator[tuple[Any, ...]]:
        return self._db.execute(
            "SELECT seq, command_json, draws_json, created_at, checksum, undone, dice_at"
            " FROM commands WHERE game_id = ? ORDER BY seq", (game_id,))

    def _quarantine(self, game_id: int, from_seq: int) -> None:
        self._opening_scans.pop(game_id, None)
        with self._transaction():
            self._db.execute(
                "INSERT INTO torn_rows (game_id, seq, command_json, draws_json, created_at,"
                " checksum, dice_at, found_at) SELECT game_id, seq, command_json, draws_json,"
                " created_at, checksum, dice_at, ? FROM commands WHERE game_id = ? AND seq >= ?",
                (_now(), game_id, from_seq))
            self._db.execute("DELETE FROM commands WHERE game_id = ? AND seq >= ?",
                             (game_id, from_seq))
            self._db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq >= ?",
                             (game_id, from_seq))


def _snapshot_checksum(game_id: int, seq: int, state_json: str) -> str:
    return hashlib.sha256(f"{game_id}\x1f{seq}\x1f{state_json}".encode()).hexdigest()


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on error; inside another one (`depth`, shared
    by the journal's transactions) it only joins it: the outermost commits or rolls back."""

    def __init__(self, db: sqlite3.Connection, depth: list[int]) -> None:
        self._db = db
        self._depth = depth

    def __enter__(self) -> None:
        if self._depth[0] == 0:
            self._db.execute("BEGIN IMMEDIATE")
        self._depth[0] += 1

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._depth[0] -= 1
        if self._depth[0] == 0:
            self._db.execute("ROLLBACK" if exc_type else "COMMIT")
