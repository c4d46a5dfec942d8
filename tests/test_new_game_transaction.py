"""A new game, the end of the game it replaces and the new seats' tokens are one journal
transaction (issue 12.8): a crash at any instant leaves one running game with its own
seats. And the host's pause is journaled: a paused game comes back paused."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from crash.new_game_child import DEMO, NEW_TOKENS, OLD_TOKENS

from hardware.profiles import load_profile
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.table.loop import TableCore, Wiring
from pi_app.table_api import CommandRejected, Viewer
from pi_app.web import create_app

CHILD = Path(__file__).parent / "crash" / "new_game_child.py"
WIRING = Wiring.from_profile(load_profile("classic-42"))
RBG = {"red": "r", "blue": "b", "green": "g"}


def make_core(db: Path) -> TableCore:
    core = TableCore(Journal(db), WIRING, dice=lambda: FairDice(b"\x07" * 32))
    core.start(DEMO)
    return core


def crash_child(db: Path, mode: str) -> int:
    """Run the child until it kills itself; return the old game's id."""
    run = subprocess.run([sys.executable, str(CHILD), str(db), mode], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == -signal.SIGKILL, (run.returncode, run.stdout, run.stderr)
    lines = run.stdout.splitlines()
    assert "survived" not in lines
    return int(lines[0].split()[1])


@pytest.mark.slow
def test_a_crash_before_the_old_game_is_ended_leaves_only_the_old_game(tmp_path):
    db = tmp_path / "journal.sqlite"
    old = crash_child(db, "before_end")
    with Journal(db) as journal:
        assert journal.game_ids("running") == [old]
        assert journal.game_ids() == [old], "the half-made new game is not in the journal"
    restarted = make_core(db)
    assert restarted.session is not None and restarted.session.game_id == old


@pytest.mark.slow
def test_a_crash_before_the_new_seats_are_written_keeps_the_old_game_and_its_seats(tmp_path):
    db = tmp_path / "journal.sqlite"
    old = crash_child(db, "before_tokens")
    with Journal(db) as journal:
        assert journal.game_ids("running") == [old]
        assert journal.game_ids() == [old]
        assert journal.seat_tokens(old) == OLD_TOKENS


def test_a_crash_right_after_the_new_game_seats_its_phones_and_no_old_one(tmp_path):
    db = tmp_path / "journal.sqlite"
    old = crash_child(db, "after_commit")
    with Journal(db) as journal:
        [new] = journal.game_ids("running")
        assert new != old and journal.game(old).status == "abandoned"
        assert journal.seat_tokens(new) == NEW_TOKENS
    # The web app had not installed the new tokens: its file still holds the old game's,
    # with the same colours. The journal's tokens count; an old phone is not seated.
    data = tmp_path / "data"
    data.mkdir()
    (data / "seat_tokens.json").write_text(json.dumps({"seats": OLD_TOKENS}))
    core = make_core(db)
    app = create_app(TableOnCore(core), host_pin="12345678", data_dir=data)
    seats = app.extensions["riskboard"].seats
    assert seats.player_for("old-red") is None
    assert seats.player_for("new-red") == "red"


class TableOnCore:
    """Just what `create_app` asks of a table with a journal: its seat tokens."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    def seat_tokens(self) -> dict[str, str] | None:
        return self.core.seat_tokens()

    def store_seat_tokens(self, tokens: dict[str, str]) -> None:
        self.core.host_action("seat_tokens", {"tokens": tokens})


def test_a_failure_between_the_writes_rolls_the_whole_new_game_back(tmp_path, monkeypatch):
    db = tmp_path / "journal.sqlite"
    core = make_core(db)
    old = core.session.game_id

    def fails(*_args: object) -> None:
        raise OSError("disk gone")

    monkeypatch.setattr(core.journal, "set_status", fails)
    with pytest.raises(OSError):
        core.host_action("new_game", {"variant": "classic", "players": list(RBG),
                                      "seat_tokens": RBG})
    assert core.session.game_id == old and core.session.status == "running"
    with Journal(db) as journal:
        assert journal.game_ids() == [old]
        assert journal.seat_tokens(old) is None


def test_a_new_game_journals_its_seats_and_ends_the_old_one(tmp_path):
    db = tmp_path / "journal.sqlite"
    core = make_core(db)
    old = core.session.game_id
    result = core.host_action("new_game", {"variant": "classic", "players": list(RBG),
                                           "seat_tokens": RBG})
    with Journal(db) as journal:
        assert journal.game_ids("running") == [result["game_id"]]
        assert journal.game(old).status == "abandoned"
        assert journal.seat_tokens(result["game_id"]) == RBG
    assert core.seat_tokens() == RBG


@pytest.mark.parametrize("tokens", [{"red": "r", "blue": "b"}, {**RBG, "blue": ""},
                                    ["r", "b", "g"], {**RBG, "black": "k"}, {}])
def test_new_game_seat_tokens_must_be_one_per_player(tmp_path, tokens):
    core = make_core(tmp_path / "journal.sqlite")
    before = core.journal.game_ids()
    with pytest.raises(CommandRejected) as refused:
        core.host_action("new_game", {"variant": "classic", "players": list(RBG),
                                      "seat_tokens": tokens})
    assert refused.value.code == "bad_seat_tokens"
    assert core.journal.game_ids() == before


def test_a_reissued_seat_is_journaled_and_survives_a_restart(tmp_path):
    db = tmp_path / "journal.sqlite"
    core = make_core(db)
    app = create_app(TableOnCore(core), host_pin="12345678", data_dir=tmp_path / "a")
    seats = app.extensions["riskboard"].seats
    issued = seats.issue_all(["red", "blue", "green"])
    again = seats.reissue("blue")
    core.journal.close()
    restarted = make_core(db)
    app2 = create_app(TableOnCore(restarted), host_pin="12345678", data_dir=tmp_path / "b")
    seats2 = app2.extensions["riskboard"].seats
    assert seats2.player_for(again) == "blue"
    assert seats2.player_for(issued["blue"]) is None
    assert seats2.player_for(issued["red"]) == "red"


def test_a_paused_game_comes_back_paused_after_a_restart(tmp_path):
    db = tmp_path / "journal.sqlite"
    core = make_core(db)
    game = core.session.game_id
    core.host_action("pause", {})
    core.journal.close()  # the power cut: nothing else is written
    restarted = make_core(db)
    assert restarted.session.game_id == game
    assert restarted.paused is True
    assert restarted.publisher.snapshot.paused is True
    player = restarted.state.current_player
    territory = restarted.state.territories_of(player)[0]
    with pytest.raises(CommandRejected) as refused:
        restarted.submit({"type": "place", "player": player, "territory": territory,
                          "count": 1}, Viewer("player", player))
    assert refused.value.code == "paused"
    restarted.host_action("resume", {})
    restarted.journal.close()
    assert make_core(db).paused is False


def test_a_new_game_starts_unpaused_even_after_a_paused_one(tmp_path):
    db = tmp_path / "journal.sqlite"
    core = make_core(db)
    core.host_action("pause", {})
    core.host_action("new_game", {"variant": "classic", "players": list(RBG)})
    assert core.paused is False
    core.journal.close()
    assert make_core(db).paused is False
