"""`riskboard replay` prints a journaled game turn by turn; `riskboard verify-dice` recomputes
every draw from the revealed seed and reports the first mismatch with exit code 1. Every
test on the played game runs on a game of each dice derivation version (2: new games; 1:
games journaled before it)."""

import json
import random
import shutil
import sqlite3

import pytest
from crash.driver import next_command

from pi_app.cli import main
from pi_app.dice import FairDice, FairDiceV1
from pi_app.journal import Journal, row_checksum
from pi_app.session import GameSession

SEED = b"\x11" * 32


def dice_of(version):
    return FairDice(SEED) if version == 2 else FairDiceV1(SEED)


@pytest.fixture(scope="module", params=[2, 1], ids=["dice-v2", "dice-v1"])
def played(request, tmp_path_factory):
    """A journal with one 300-command game whose last command was undone by the host."""
    path = tmp_path_factory.mktemp("played") / "games.db"
    with Journal(path) as journal:
        session = GameSession.new(journal, "classic", ["red", "blue", "green"], None,
                                  dice_of(request.param))
        chooser = random.Random(12)
        for _ in range(300):
            session.submit(next_command(session.state, chooser))
        session.undo(1, override=True)
    return path, session.game_id, request.param


@pytest.fixture
def game_db(played, tmp_path):
    path, game_id, _version = played
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    return copy, game_id


def end_game(path, game_id):
    with Journal(path) as journal:
        journal.set_status(game_id, "abandoned")


def rewrite_draws(path, game_id, seq, change):
    """A dishonest operator edits a row's draws and recomputes its checksum."""
    db = sqlite3.connect(path)
    command_json, draws_json, created, dice_at = db.execute(
        "SELECT command_json, draws_json, created_at, dice_at FROM commands"
        " WHERE game_id=? AND seq=?", (game_id, seq)).fetchone()
    draws = json.loads(draws_json)
    change(draws)
    new_json = json.dumps(draws, separators=(",", ":"))
    db.execute("UPDATE commands SET draws_json=?, checksum=? WHERE game_id=? AND seq=?",
               (new_json, row_checksum(game_id, seq, command_json, new_json, created, dice_at),
                game_id, seq))
    db.commit()
    db.close()


def rows_with_dice(path, game_id):
    with Journal(path) as journal:
        return [e for e in journal.load(game_id).entries
                if e.seq > 0 and any(d[0] == "d" for d in e.draws)]


def test_replay_prints_every_command_turn_by_turn_with_the_journaled_dice(game_db, capsys):
    path, game_id = game_db
    assert main(["replay", str(path), str(game_id)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Game {game_id}: classic, players red, blue, green")
    lines = out.splitlines()
    first = next(line for line in lines if line.startswith("Turn 1: "))
    assert "Setup" in lines and first.removeprefix("Turn 1: ") in ("red", "blue", "green")
    assert out.index("Setup") < out.index(first) < out.index("Turn 2: ")
    for seq in range(1, 300):
        assert any(line.startswith(f"  #{seq} ") for line in lines), seq
    battle_row = next(e for e in rows_with_dice(path, game_id) if not e.undone)
    attack, defence = battle_row.draws[0][1], battle_row.draws[1][1]
    block = out[out.index(f"  #{battle_row.seq} "):]
    assert f"rolls [{','.join(map(str, attack))}]" in block.splitlines()[1]
    assert f"rolls [{','.join(map(str, defence))}]" in block.splitlines()[1]


def test_replay_marks_undone_commands(game_db, capsys):
    path, game_id = game_db
    assert main(["replay", str(path), str(game_id)]) == 0
    assert "  #300   (undone) " in capsys.readouterr().out


@pytest.mark.parametrize("args,fragment", [
    (["replay", "{missing}", "1"], "no journal file"),
    (["replay", "{db}", "one"], "whole number"),
    (["replay", "{db}", "99"], "no game 99"),
])
def test_replay_bad_input_exits_2_with_a_sentence(game_db, tmp_path, capsys, args, fragment):
    path, _ = game_db
    argv = [a.format(missing=tmp_path / "nope.db", db=path) for a in args]
    assert main(argv) == 2
    assert fragment in capsys.readouterr().err


def test_verify_dice_refuses_while_the_seed_is_secret(game_db, capsys):
    path, game_id = game_db
    assert main(["verify-dice", str(path), str(game_id)]) == 2
    assert "not revealed" in capsys.readouterr().err
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 2
    assert "still running" in capsys.readouterr().err


def test_verify_dice_accepts_an_honest_game_after_reveal(game_db, played, capsys):
    path, game_id = game_db
    version = played[2]
    end_game(path, game_id)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK:") and dice_of(version).commitment in out
    assert f"(dice derivation version {version})" in out
    # Revealed once, the seed stays revealed.
    assert main(["verify-dice", str(path), str(game_id)]) == 0


def test_verify_dice_reports_the_first_altered_roll_and_exits_1(game_db, capsys):
    path, game_id = game_db
    end_game(path, game_id)
    first, second = rows_with_dice(path, game_id)[3:5]

    def bump_first_die(draws):
        index = next(i for i, d in enumerate(draws) if d[0] == "d")
        draws[index][1][0] = draws[index][1][0] % 6 + 1

    rewrite_draws(path, game_id, second.seq, bump_first_die)
    rewrite_draws(path, game_id, first.seq, bump_first_die)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"MISMATCH at command seq {first.seq}, draw ")


def test_verify_dice_rejects_a_seed_that_does_not_match_the_commitment(game_db, capsys):
    path, game_id = game_db
    assert main(["verify-dice", str(path), str(game_id), "--seed", "22" * 32]) == 1
    assert "committed to" in capsys.readouterr().out
    assert main(["verify-dice", str(path), str(game_id), "--seed", "xyz"]) == 2


def test_verify_dice_checks_only_shuffles_in_a_physical_dice_game(tmp_path, capsys):
    path = tmp_path / "physical.db"
    with Journal(path) as journal:
        session = GameSession.new(journal, "classic", ["red", "blue", "green"],
                                  {"physical_dice": True}, FairDice(SEED), faces=[1, 2, 3])
        session.end("finished")
        session.reveal_seed()
    assert main(["verify-dice", str(path), str(session.game_id)]) == 0
    assert "typed physical dice" in capsys.readouterr().out


def tamper_without_checksum(path, game_id, seq, draws_json='[["d",[6,2,6]]]'):
    """An edit that does not recompute the checksum (or a corrupt row)."""
    db = sqlite3.connect(path)
    db.execute("UPDATE commands SET draws_json=? WHERE game_id=? AND seq=?",
               (draws_json, game_id, seq))
    db.commit()
    db.close()


@pytest.mark.parametrize("seq", [0, 107])
def test_verify_dice_fails_a_row_edited_without_its_checksum(game_db, capsys, seq):
    path, game_id = game_db
    end_game(path, game_id)
    tamper_without_checksum(path, game_id, seq)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 1
    out = capsys.readouterr().out
    assert f"seq {seq} fails its checksum: altered or corrupt" in out
    assert "OK" not in out


def test_verify_dice_still_checks_the_rows_after_a_bad_checksum(game_db, capsys):
    path, game_id = game_db
    end_game(path, game_id)
    rows = rows_with_dice(path, game_id)
    early, late = rows[2], rows[40]
    tamper_without_checksum(path, game_id, early.seq,
                            json.dumps(early.draws, separators=(",", ":")) + " ")

    def bump_first_die(draws):
        index = next(i for i, d in enumerate(draws) if d[0] == "d")
        draws[index][1][0] = draws[index][1][0] % 6 + 1

    rewrite_draws(path, game_id, late.seq, bump_first_die)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 1
    out = capsys.readouterr().out
    assert f"seq {early.seq} fails its checksum" in out
    assert f"MISMATCH at command seq {late.seq}, draw " in out


def test_verify_dice_treats_a_malformed_draw_as_a_mismatch(game_db, capsys):
    path, game_id = game_db
    end_game(path, game_id)
    row = rows_with_dice(path, game_id)[0]

    def malform(draws):
        index = next(i for i, d in enumerate(draws) if d[0] == "d")
        draws[index] = ["d", 5]

    rewrite_draws(path, game_id, row.seq, malform)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 1
    assert f"MISMATCH at command seq {row.seq}" in capsys.readouterr().out


def test_replay_of_draws_that_do_not_fit_the_command_exits_2_with_a_sentence(game_db, capsys):
    path, game_id = game_db
    row = rows_with_dice(path, game_id)[0]
    rewrite_draws(path, game_id, row.seq, lambda draws: draws.append(["d", [1]]))
    assert main(["replay", str(path), str(game_id)]) == 2
    assert f"seq {row.seq}" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["replay", "verify-dice"])
def test_a_file_that_is_not_a_journal_exits_2_with_a_sentence(tmp_path, capsys, command):
    junk = tmp_path / "notes.txt"
    junk.write_text("these are my notes, not a database\n" * 50)
    assert main([command, str(junk), "1"]) == 2
    assert "not a riskboard journal" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["replay", "verify-dice"])
def test_replay_and_verify_never_change_the_journal_file(game_db, capsys, command):
    path, game_id = game_db
    before = sqlite3.connect(path).execute("SELECT COUNT(*), MAX(seq) FROM commands").fetchone()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()
    assert main([command, str(path), str(game_id)]) == 2
    assert "Upgrade riskboard" in capsys.readouterr().err
    after = sqlite3.connect(path)
    assert after.execute("PRAGMA user_version").fetchone()[0] == 99
    assert after.execute("SELECT COUNT(*), MAX(seq) FROM commands").fetchone() == before


def test_replay_of_an_altered_middle_row_prints_up_to_it_and_exits_1(game_db, capsys):
    path, game_id = game_db
    tamper_without_checksum(path, game_id, 107)
    assert main(["replay", str(path), str(game_id)]) == 1
    out, err = capsys.readouterr()
    assert "  #106 " in out and "  #108 " not in out
    assert "seq 107 fails its checksum" in err


def test_verify_dice_reports_every_altered_roll_not_only_the_first(game_db, capsys):
    path, game_id = game_db
    end_game(path, game_id)
    first, second = rows_with_dice(path, game_id)[3:5]

    def bump_first_die(draws):
        index = next(i for i, d in enumerate(draws) if d[0] == "d")
        draws[index][1][0] = draws[index][1][0] % 6 + 1

    rewrite_draws(path, game_id, first.seq, bump_first_die)
    rewrite_draws(path, game_id, second.seq, bump_first_die)
    assert main(["verify-dice", str(path), str(game_id), "--reveal"]) == 1
    out = capsys.readouterr().out
    assert f"MISMATCH at command seq {first.seq}, " in out
    assert f"MISMATCH at command seq {second.seq}, " in out
    assert "FAILED: 2 draw(s) do not match the seed" in out


def test_verify_dice_checks_the_recorded_position_of_a_version_2_game(tmp_path, capsys):
    path = tmp_path / "v2.db"
    with Journal(path) as journal:
        session = GameSession.new(journal, "classic", ["red", "blue", "green"], None,
                                  FairDice(SEED))
        chooser = random.Random(3)
        for _ in range(150):
            session.submit(next_command(session.state, chooser))
        session.end("abandoned")
        session.reveal_seed()
        seq = session.last_seq
    assert main(["verify-dice", str(path), str(session.game_id)]) == 0
    capsys.readouterr()
    db = sqlite3.connect(path)
    command_json, draws_json, created, dice_at = db.execute(
        "SELECT command_json, draws_json, created_at, dice_at FROM commands"
        " WHERE game_id=? AND seq=?", (session.game_id, seq)).fetchone()
    block, offset = json.loads(dice_at)
    moved = json.dumps([block + 1, offset], separators=(",", ":"))  # claims dice it never used
    db.execute("UPDATE commands SET dice_at=?, checksum=? WHERE game_id=? AND seq=?",
               (moved, row_checksum(session.game_id, seq, command_json, draws_json, created,
                                    moved), session.game_id, seq))
    db.commit()
    db.close()
    assert main(["verify-dice", str(path), str(session.game_id)]) == 1
    out = capsys.readouterr().out
    assert (f"MISMATCH at command seq {seq}: the journal records the dice stream at "
            f"[block, byte] [{block + 1}, {offset}]") in out
