"""The SQLite journal: durable appends, hidden seed, torn-tail detection, schema migration."""

import contextlib
import logging
import os
import shutil
import sqlite3

import pytest

from pi_app.journal import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Journal,
    JournalCorrupt,
    JournalError,
    row_checksum,
)

NEW_GAME = {"type": "new_game", "variant": "classic", "players": ["red", "blue"],
            "house_rules": {}}


def make_game(journal: Journal, commands: int = 3) -> int:
    game_id = journal.create_game("classic", ["red", "blue"], {}, "c0ffee", "ab" * 32,
                                  NEW_GAME, [["u", 42, 7]])
    for seq in range(1, commands + 1):
        journal.append(game_id, seq, {"type": "place", "player": "red", "n": seq},
                       [["d", [seq % 6 + 1]]])
    return game_id


def write_version_1_file(path):
    """A journal as riskboard's schema 1 wrote it: one game with its new_game entry."""
    raw = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        raw.execute(statement)
    raw.execute("PRAGMA user_version = 1")
    raw.execute("INSERT INTO games (id, created_at, variant, players_json, house_rules_json,"
                " commitment, seed_hex) VALUES (1, 't', 'classic', '[\"red\"]', '{}', 'c', 's')")
    command_json, draws_json = '{"type":"new_game"}', "[]"
    raw.execute("INSERT INTO commands VALUES (1, 0, ?, ?, 't', ?)",
                (command_json, draws_json, row_checksum(1, 0, command_json, draws_json, "t")))
    raw.commit()
    raw.close()


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "journal.db") as j:
        yield j


def test_a_new_journal_uses_wal_full_sync_and_the_current_schema(journal):
    assert journal.settings() == {"journal_mode": "wal", "synchronous": "full"}
    assert journal.schema_version == SCHEMA_VERSION == len(MIGRATIONS)


def test_entries_round_trip_in_order(journal):
    game_id = make_game(journal, commands=4)
    record = journal.load(game_id)
    assert [e.seq for e in record.entries] == [0, 1, 2, 3, 4]
    assert record.entries[0].command == NEW_GAME
    assert record.entries[0].draws == [["u", 42, 7]]
    assert record.entries[3].command == {"type": "place", "player": "red", "n": 3}
    assert record.entries[3].draws == [["d", [4]]]
    assert record.torn_at is None


def test_an_append_is_visible_to_another_connection_when_it_returns(journal):
    game_id = make_game(journal, commands=2)
    other = sqlite3.connect(journal.path)
    count = other.execute("SELECT COUNT(*) FROM commands WHERE game_id = ?", (game_id,))
    assert count.fetchone()[0] == 3
    other.close()


def test_the_seed_is_hidden_until_revealed(journal):
    game_id = make_game(journal)
    assert journal.game(game_id).revealed_seed is None
    assert journal.game(game_id).commitment == "c0ffee"
    assert journal.reveal(game_id) == "ab" * 32
    assert journal.game(game_id).revealed_seed == "ab" * 32


def test_a_duplicate_seq_is_refused_and_leaves_the_journal_intact(journal):
    game_id = make_game(journal, commands=2)
    with pytest.raises(sqlite3.IntegrityError):
        journal.append(game_id, 2, {"type": "x"}, [])
    assert len(journal.load(game_id).entries) == 3
    journal.append(game_id, 3, {"type": "y"}, [])
    assert journal.load(game_id).entries[-1].command == {"type": "y"}


def test_a_corrupt_tail_row_is_detected_logged_and_set_aside(journal, caplog):
    game_id = make_game(journal, commands=5)
    raw = sqlite3.connect(journal.path)
    # Seq 5 is the last row and seq 4 is torn too: no good row follows the first bad one.
    raw.execute("UPDATE commands SET draws_json = '[[\"d\",[6' WHERE game_id = ? AND seq >= 4",
                (game_id,))
    raw.commit()
    raw.close()
    with caplog.at_level(logging.WARNING, logger="riskboard.journal"):
        record = journal.load(game_id, repair=True)
    assert [e.seq for e in record.entries] == [0, 1, 2, 3]
    assert record.torn_at == 4
    assert f"event=journal.torn_tail game={game_id} seq=4 dropped=2" in caplog.text
    # The torn rows moved aside: play continues at seq 4.
    journal.append(game_id, 4, {"type": "after"}, [])
    assert journal.load(game_id).entries[-1].command == {"type": "after"}
    kept = sqlite3.connect(journal.path).execute("SELECT seq FROM torn_rows ORDER BY seq")
    assert [r[0] for r in kept] == [4, 5]


def test_loading_without_repair_changes_nothing(journal):
    game_id = make_game(journal, commands=3)
    raw = sqlite3.connect(journal.path)
    raw.execute("UPDATE commands SET checksum = 'bad' WHERE seq = 3")
    raw.commit()
    assert journal.load(game_id).torn_at == 3
    assert raw.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 4
    raw.close()


def test_a_missing_seq_counts_as_a_torn_tail(journal):
    game_id = make_game(journal, commands=4)
    raw = sqlite3.connect(journal.path)
    raw.execute("DELETE FROM commands WHERE seq = 2")
    raw.commit()
    raw.close()
    assert [e.seq for e in journal.load(game_id).entries] == [0, 1]


def test_a_torn_wal_write_resumes_from_the_last_complete_commit(tmp_path):
    live = Journal(tmp_path / "live.db")
    game_id = make_game(live, commands=6)
    # Power cut: copy the files while the writer is still open, then tear the WAL's end.
    shutil.copy(tmp_path / "live.db", tmp_path / "cut.db")
    shutil.copy(tmp_path / "live.db-wal", tmp_path / "cut.db-wal")
    wal = tmp_path / "cut.db-wal"
    wal.write_bytes(wal.read_bytes()[:-100])
    live.close()
    with Journal(tmp_path / "cut.db") as cut:
        seqs = [e.seq for e in cut.load(game_id).entries]
    assert seqs == list(range(6))  # the last commit (seq 6) was torn; the rest is intact


def test_a_version_1_file_migrates_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.db"
    write_version_1_file(path)
    with Journal(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION
        record = journal.load(1)
        assert record.entries[0].command == {"type": "new_game"}
        assert record.entries[0].undone is False


def test_a_newer_schema_than_known_is_refused(tmp_path):
    raw = sqlite3.connect(tmp_path / "future.db")
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(JournalError, match="Upgrade riskboard"):
        Journal(tmp_path / "future.db")


def test_statuses_and_listing(journal):
    first, second = make_game(journal), make_game(journal)
    journal.set_status(first, "finished")
    assert journal.game_ids("running") == [second]
    assert journal.game_ids() == [first, second]
    with pytest.raises(JournalError):
        journal.set_status(first, "paused")
    with pytest.raises(JournalError):
        journal.game(999)


def test_undone_rows_are_kept_and_flagged(journal):
    game_id = make_game(journal, commands=3)
    journal.mark_undone(game_id, [3])
    record = journal.load(game_id)
    assert [e.seq for e in record.entries] == [0, 1, 2, 3]
    assert [e.seq for e in record.active_entries()] == [0, 1, 2]


def tamper(path, seq, draws_json='[["d",[6,2,6]]]'):
    """Edit a row's draws without recomputing its checksum."""
    raw = sqlite3.connect(path)
    raw.execute("UPDATE commands SET draws_json = ? WHERE seq = ?", (draws_json, seq))
    raw.commit()
    raw.close()


def test_a_bad_row_with_good_rows_after_it_is_not_repaired_away(journal, caplog):
    game_id = make_game(journal, commands=5)
    tamper(journal.path, 2)
    with caplog.at_level(logging.WARNING, logger="riskboard.journal"), \
            pytest.raises(JournalCorrupt) as raised:
        journal.load(game_id, repair=True)
    assert (raised.value.game_id, raised.value.seq) == (game_id, 2)
    assert f"event=journal.corrupt game={game_id} seq=2" in caplog.text
    raw = sqlite3.connect(journal.path)
    assert raw.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 6  # nothing dropped
    assert raw.execute("SELECT COUNT(*) FROM torn_rows").fetchone()[0] == 0
    raw.close()
    assert journal.game(game_id).status == "corrupt"
    assert journal.game_ids("running") == []


def test_the_host_can_set_a_corrupt_game_aside_and_play_on(journal):
    game_id = make_game(journal, commands=5)
    tamper(journal.path, 2)
    with pytest.raises(JournalCorrupt):
        journal.load(game_id, repair=True)
    journal.set_aside_from(game_id, 2)
    assert [e.seq for e in journal.load(game_id, repair=True).entries] == [0, 1]
    assert journal.game(game_id).status == "running"


def test_audit_rows_report_every_row_and_which_checksums_fail(journal):
    game_id = make_game(journal, commands=4)
    tamper(journal.path, 2)
    rows = journal.audit_rows(game_id)
    assert [(r.seq, r.ok) for r in rows] == [(0, True), (1, True), (2, False), (3, True),
                                            (4, True)]
    assert rows[2].draws == [["d", [6, 2, 6]]]


def test_a_winning_append_finishes_and_reveals_in_the_same_transaction(journal):
    game_id = make_game(journal, commands=1)
    journal.append(game_id, 2, {"type": "win"}, [], finished=True)
    game = journal.game(game_id)
    assert game.status == "finished" and game.revealed_seed == "ab" * 32


def test_read_only_open_never_writes_nor_migrates(tmp_path):
    path = tmp_path / "old.db"
    write_version_1_file(path)
    before = path.read_bytes()
    with Journal(path, read_only=True) as journal:
        assert journal.schema_version == SCHEMA_VERSION  # the in-memory copy migrated
        assert journal.load(1).entries[0].command == {"type": "new_game"}
    assert path.read_bytes() == before  # the file itself did not
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1


def test_read_only_open_refuses_a_newer_schema_and_a_file_that_is_not_a_journal(tmp_path):
    raw = sqlite3.connect(tmp_path / "future.db")
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(JournalError, match="Upgrade riskboard"):
        Journal(tmp_path / "future.db", read_only=True)
    (tmp_path / "junk.db").write_text("not a database at all " * 100)
    with pytest.raises(JournalError, match="not a riskboard journal"):
        Journal(tmp_path / "junk.db", read_only=True)


def open_descriptors_on(path) -> list[str]:
    """This process's open file descriptors that point at `path` (Linux: /proc/self/fd)."""
    target = str(path.resolve())
    found = []
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/self/fd/{fd}") == target:
                found.append(fd)
    return found


@pytest.mark.parametrize("kind", ["newer schema", "not a journal", "another program's"])
def test_a_refused_read_only_open_closes_the_file_at_once(tmp_path, kind):
    """An audit (`Journal(path, read_only=True)`, the module's docstring) that refuses a file
    lets go of it when it refuses, not whenever the refusal is forgotten: a tool auditing
    many files must not pile up open handles on the ones it could not read."""
    path = tmp_path / "refused.db"
    if kind == "not a journal":
        path.write_text("not a database at all " * 100)
    else:
        raw = sqlite3.connect(path)
        if kind == "another program's":
            raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY)")
        raw.execute(f"PRAGMA user_version = "
                    f"{SCHEMA_VERSION + 1 if kind == 'newer schema' else SCHEMA_VERSION}")
        raw.commit()
        raw.close()
    assert open_descriptors_on(path) == []
    with pytest.raises(JournalError) as refusal:
        Journal(path, read_only=True)
    assert str(path) in str(refusal.value)  # the refusal, and its traceback, still held
    assert open_descriptors_on(path) == []


@pytest.mark.parametrize("version", [0, 1, SCHEMA_VERSION])
def test_read_only_open_refuses_an_sqlite_file_of_another_program_and_leaves_it_alone(
        tmp_path, version):
    path = tmp_path / "photos.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    raw.execute("INSERT INTO photos (name) VALUES ('beach')")
    raw.execute(f"PRAGMA user_version = {version}")  # even a plausible version number
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="an SQLite file but not a riskboard journal"):
        Journal(path, read_only=True)
    assert path.read_bytes() == before
    tables = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master")}
    assert tables == {"photos"}


def test_read_only_open_of_a_current_file_cannot_write(journal):
    game_id = make_game(journal, commands=1)
    with Journal(journal.path, read_only=True) as reader:
        assert len(reader.load(game_id).entries) == 2
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.append(game_id, 2, {"type": "x"}, [])


def test_opening_and_loading_a_running_game_read_and_check_each_row_once(tmp_path, monkeypatch):
    """A service start opens the journal (which checks every running game) and resumes:
    the rows are fetched and checksummed once, not once per step."""
    import pi_app.journal as journal_module

    path = tmp_path / "games.db"
    with Journal(path) as journal:
        game_id = make_game(journal, commands=40)
    checked = []
    real_checksum = journal_module.row_checksum
    monkeypatch.setattr(journal_module, "row_checksum",
                        lambda *a: checked.append(a[1]) or real_checksum(*a))
    with Journal(path) as journal:
        record = journal.load(game_id, repair=True)
        assert [e.seq for e in record.entries] == list(range(41))
        assert record.entries[7].draws == [["d", [2]]]
        assert record.entries[7].command == {"type": "place", "player": "red", "n": 7}
        assert sorted(checked) == list(range(41))
        journal.load(game_id)  # a later load reads the file again
        assert len(checked) == 82


def test_what_opening_read_is_dropped_once_the_game_is_written(tmp_path):
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        game_id = make_game(journal)
    with Journal(path) as journal:
        journal.append(game_id, 4, {"type": "place", "player": "red", "n": 4}, [["d", [5]]])
        assert [e.seq for e in journal.load(game_id).entries] == [0, 1, 2, 3, 4]
    with Journal(path) as journal:
        journal.mark_undone(game_id, [4])
        assert journal.load(game_id).entries[4].undone


def test_a_row_whose_json_is_unreadable_despite_its_checksum_is_a_journal_error(tmp_path):
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        game_id = make_game(journal)
    raw = sqlite3.connect(path)
    created = raw.execute("SELECT created_at FROM commands WHERE seq = 2").fetchone()[0]
    command_json = '{"type": "place"'
    raw.execute("UPDATE commands SET command_json = ?, checksum = ? WHERE seq = 2",
                (command_json, row_checksum(game_id, 2, command_json, '[["d",[3]]]', created)))
    raw.commit()
    raw.close()
    with Journal(path) as journal:
        entry = journal.load(game_id).entries[2]
        with pytest.raises(JournalError, match="seq 2 is not readable JSON"):
            entry.command  # noqa: B018 - reading it is the test


def test_a_game_is_paused_only_while_the_host_leaves_it_paused(journal, tmp_path):
    first, second = make_game(journal), make_game(journal)
    assert journal.paused(first) is False  # a game with a row is not paused by having it
    journal.set_paused(first, True)
    assert (journal.paused(first), journal.paused(second)) == (True, False)
    journal.set_paused(first, False)
    assert journal.paused(first) is False
    journal.set_paused(second, True)
    journal.close()
    with Journal(tmp_path / "journal.db") as reopened:  # what a restart reads
        assert (reopened.paused(first), reopened.paused(second)) == (False, True)
        assert reopened.paused(999) is False  # no such game


def test_undoing_several_commands_drops_every_snapshot_from_the_first_undone_on(journal):
    game_id = make_game(journal, commands=6)
    for seq in (2, 3, 4, 5, 6):
        journal.save_snapshot(game_id, seq, {"after": seq})
    journal.mark_undone(game_id, [4, 5, 6])
    # the state after 4 or 5 is a state of undone commands: nothing may resume from it
    assert journal.latest_snapshot(game_id, 10**9) == (3, {"after": 3})
    journal.mark_undone(game_id, [3])
    assert journal.latest_snapshot(game_id, 10**9) == (2, {"after": 2})
    # an empty undo drops nothing
    journal.mark_undone(game_id, [])
    assert journal.latest_snapshot(game_id, 10**9) == (2, {"after": 2})


def test_a_snapshot_at_exactly_the_asked_seq_is_the_one_given(journal):
    game_id = make_game(journal, commands=6)
    for seq in (2, 4, 6):
        journal.save_snapshot(game_id, seq, {"after": seq})
    assert journal.latest_snapshot(game_id, 4) == (4, {"after": 4})
    assert journal.latest_snapshot(game_id, 5) == (4, {"after": 4})
    assert journal.latest_snapshot(game_id, 1) is None


@pytest.mark.parametrize("how", ["torn tail", "set aside"])
def test_rows_set_aside_take_the_snapshot_of_their_own_first_seq_with_them(journal, how):
    """A snapshot after a row that is set aside (torn, or by the host) is the state of a
    command that no longer counts: it must not feed the next resume."""
    game_id = make_game(journal, commands=6)
    for seq in (3, 4, 5):
        journal.save_snapshot(game_id, seq, {"after": seq})
    if how == "torn tail":
        tamper(journal.path, 4)
        tamper(journal.path, 5)
        tamper(journal.path, 6)
        journal.load(game_id, repair=True)
    else:
        journal.set_aside_from(game_id, 4)
    assert journal.latest_snapshot(game_id, 10**9) == (3, {"after": 3})


def test_auditing_a_game_that_is_not_in_the_journal_is_refused(journal):
    """journal.py: `audit_rows` is what `riskboard verify-dice` reads; a game id the journal
    does not hold is refused with a sentence, as `load` refuses it, not audited as an empty
    (and so flawless) game."""
    with pytest.raises(JournalError, match="there is no game 99"):
        journal.audit_rows(99)
    with pytest.raises(JournalError, match="there is no game 99"):
        journal.load(99)
