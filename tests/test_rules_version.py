"""A game is journaled with the rules version it is played by (`rules_version` in its
new_game entry); a journal of another rules version is refused at resume with a sentence,
rather than replayed wrongly, and the table still starts (issue 23, RISK Strike journals
written before commit fdf43b5 did not replay)."""

from __future__ import annotations

import json
import logging
import sqlite3

import pytest

from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal, JournalError, row_checksum
from pi_app.rules import games
from pi_app.rules.strike import waiting_for
from pi_app.session import GameSession

PLAYERS = ["red", "blue", "green"]


def _strike_game(path) -> GameSession:
    session = GameSession.new(Journal(path), "strike", PLAYERS, None, dice=FairDice(b"v" * 32))
    bot = StrikeBot()
    for _ in range(40):
        session.submit(bot.choose(session.state, waiting_for(session.state)[0]))
    return session


def _new_game_entry(path, game_id: int) -> dict:
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT command_json FROM commands WHERE game_id = ? AND seq = 0",
                             (game_id,)).fetchone()
    return json.loads(text)


def _rewrite_new_game_entry(path, game_id: int, entry: object) -> None:
    """Rewrite seq 0 as an older riskboard wrote it, with a valid checksum."""
    text = json.dumps(entry, separators=(",", ":"))
    with sqlite3.connect(path) as db:
        draws, created, dice_at = db.execute(
            "SELECT draws_json, created_at, dice_at FROM commands WHERE game_id = ? AND seq = 0",
            (game_id,)).fetchone()
        db.execute("UPDATE commands SET command_json = ?, checksum = ? WHERE game_id = ? AND "
                   "seq = 0", (text, row_checksum(game_id, 0, text, draws, created, dice_at),
                               game_id))
        db.execute("DELETE FROM snapshots WHERE game_id = ?", (game_id,))


def test_a_new_game_journals_the_rules_version_it_is_played_by(tmp_path):
    session = _strike_game(tmp_path / "j.sqlite")
    assert _new_game_entry(tmp_path / "j.sqlite", session.game_id)["rules_version"] == 4
    classic = GameSession.new(Journal(tmp_path / "c.sqlite"), "classic", PLAYERS, None,
                              dice=FairDice(b"c" * 32))
    assert _new_game_entry(tmp_path / "c.sqlite", classic.game_id)["rules_version"] == 1
    # the same rules version resumes as before
    resumed = GameSession.resume(Journal(tmp_path / "j.sqlite"), session.game_id)
    assert resumed.state.to_dict() == session.state.to_dict()


def test_a_strike_journal_written_before_rules_versions_is_refused_with_a_sentence(tmp_path):
    path = tmp_path / "j.sqlite"
    session = _strike_game(path)
    entry = _new_game_entry(path, session.game_id)
    del entry["rules_version"]  # as every riskboard before this field wrote it
    _rewrite_new_game_entry(path, session.game_id, entry)
    with pytest.raises(JournalError) as refused:
        GameSession.resume(Journal(path), session.game_id)
    sentence = str(refused.value)
    assert "strike rules of version 1" in sentence and "plays version 4" in sentence
    assert "not resumed" in sentence


def test_a_journal_of_a_newer_rules_version_is_refused_wherever_the_replay_starts(tmp_path,
                                                                          monkeypatch):
    path = tmp_path / "j.sqlite"
    session = _strike_game(path)
    monkeypatch.setitem(games.RULES_VERSIONS, "strike", 1)  # an older riskboard reads it
    with pytest.raises(JournalError, match=r"version 4.*plays version 1"):
        GameSession.resume(Journal(path), session.game_id, log_entries=1)


@pytest.mark.parametrize("first_row", [["new_game", "strike"], "new_game"])
def test_a_journal_whose_first_row_is_no_new_game_is_refused_with_a_sentence(tmp_path,
                                                                           first_row):
    """journal.py: seq 0 is the new_game entry. A game whose seq 0 holds something else
    (checksummed as it stands) has no rules version to check and cannot be replayed: resuming
    it is refused with a JournalError (a sentence for the log and the host), never a crash."""
    path = tmp_path / "j.sqlite"
    session = _strike_game(path)
    session.journal.close()
    _rewrite_new_game_entry(path, session.game_id, first_row)
    with pytest.raises(JournalError) as refused:
        GameSession.resume(Journal(path), session.game_id)
    assert f"game {session.game_id} seq 0" in str(refused.value)


def test_the_table_still_starts_when_its_running_game_is_of_another_rules_version(
        tmp_path, caplog):
    from hardware.profiles import load_profile
    from pi_app.table.loop import TableLoop, Wiring

    path = tmp_path / "journal.sqlite"
    session = _strike_game(path)
    session.journal.close()
    entry = _new_game_entry(path, session.game_id)
    entry["rules_version"] = 1
    _rewrite_new_game_entry(path, session.game_id, entry)
    loop = TableLoop(path, Wiring.from_profile(load_profile("classic-42")), demo=None,
                     dice=lambda: FairDice(b"d" * 32))
    with caplog.at_level(logging.ERROR, logger="riskboard.table"):
        loop.start()
        try:
            assert loop.call(lambda core: core.session) is None  # no game, and no crash
            status = loop.call(lambda core: core.revision)
            assert status is not None
        finally:
            loop.stop()
    failed = [r.getMessage() for r in caplog.records if "table.resume_failed" in r.getMessage()]
    assert failed and "rules of version 1" in failed[0]
