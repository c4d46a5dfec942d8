"""GameSession: journaled submit, replay to identical state, undo rules, dice reveal,
physical dice, and resume of unfinished games."""

import hashlib
import json
import logging
import random
import sqlite3

import pytest
from crash.driver import actor, next_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pi_app.dice import FairDice, FairDiceV1, verify_draws
from pi_app.journal import MIGRATIONS, SCHEMA_VERSION, Journal, JournalCorrupt
from pi_app.rules import ChooseDefence, EndTurn, RuleError
from pi_app.session import GameSession, replay_state, replay_steps

PLAYERS = ["red", "blue", "green"]
SEED = bytes(range(32))


@pytest.fixture
def journal(tmp_path):
    with Journal(tmp_path / "games.db") as j:
        yield j


def every_command_wins(monkeypatch):
    """Make every applied command (live or replayed) win the game for its player."""
    import pi_app.session as session_module

    real_apply = session_module.apply

    def apply_and_win(state, command, rng):
        outcome = real_apply(state, command, rng)
        outcome.state.winner = command.player
        return outcome

    monkeypatch.setattr(session_module, "apply", apply_and_win)


def new_session(journal, seed=SEED, house_rules=None, faces=None, version=2):
    dice = FairDice(seed) if version == 2 else FairDiceV1(seed)
    return GameSession.new(journal, "classic", PLAYERS, house_rules, dice, faces)


def drive(session, chooser, commands):
    """Submit `commands` random legal commands (fewer if the game ends)."""
    for _ in range(commands):
        command = next_command(session.state, chooser)
        if command is None:
            return
        session.submit(command)


def drive_until(session, chooser, predicate, limit=3000):
    for _ in range(limit):
        if predicate(session.state):
            return
        session.submit(next_command(session.state, chooser))
    raise AssertionError("the game never reached the wanted situation")


def test_submit_journals_each_command_with_its_draws(journal):
    session = new_session(journal)
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.pending and s.pending["kind"] == "defend")
    before = session.last_seq
    seq, events = session.submit(ChooseDefence(actor(session.state), 1))
    assert seq == before + 1
    battle = next(e.to_dict() for e in events if e.to_dict()["type"] == "battle")
    entry = journal.load(session.game_id).entries[-1]
    assert entry.seq == seq
    assert entry.command["type"] == "choose_defence"
    assert entry.draws == [["d", battle["attack_dice"]], ["d", battle["defence_dice"]]]


def test_an_illegal_command_changes_nothing_and_journals_nothing(journal):
    session = new_session(journal)
    drive(session, random.Random(1), 10)
    snapshot = session.state.to_dict()
    rows = len(journal.load(session.game_id).entries)
    with pytest.raises(RuleError):
        session.submit({"type": "claim", "player": "nobody", "territory": "alaska"})
    with pytest.raises(RuleError) as exc:
        session.submit({"type": "no_such_command"})
    assert exc.value.code == "bad_command"
    assert session.state.to_dict() == snapshot
    assert len(journal.load(session.game_id).entries) == rows


@pytest.mark.slow
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(chooser_seed=st.integers(0, 10**6), commands=st.integers(0, 400),
       seed=st.binary(min_size=32, max_size=32))
def test_replaying_the_journal_gives_an_identical_state(tmp_path, chooser_seed, commands,
                                                         seed):
    with Journal(tmp_path / f"p{chooser_seed}-{commands}.db") as journal:
        session = new_session(journal, seed)
        drive(session, random.Random(chooser_seed), commands)
        resumed = GameSession.resume(journal, session.game_id)
        assert resumed.state.to_dict() == session.state.to_dict()
        assert resumed.state == session.state
        assert replay_state(journal.load(session.game_id)) == session.state


@pytest.mark.slow
@pytest.mark.parametrize("version", [2, 1])
def test_a_resumed_game_keeps_rolling_the_same_dice_stream(tmp_path, version):
    with Journal(tmp_path / "a.db") as straight:
        first = new_session(straight, version=version)
        drive(first, random.Random(9), 300)
        straight_draws = [e.draws for e in straight.load(first.game_id).entries]
    chooser = random.Random(9)
    with Journal(tmp_path / "b.db") as broken:
        game_id = new_session(broken, version=version).game_id
        drive(GameSession.resume(broken, game_id), chooser, 150)
    with Journal(tmp_path / "b.db") as restarted:
        resumed = GameSession.resume(restarted, game_id)
        assert resumed.commitment.startswith("v2:") == (version == 2)
        drive(resumed, chooser, 150)
        assert [e.draws for e in restarted.load(game_id).entries] == straight_draws
        assert resumed.state == first.state
        assert resumed.dice_position == first.dice_position


@pytest.mark.slow
def test_every_v2_row_records_the_dice_position_after_its_draws(journal):
    session = new_session(journal)
    drive(session, random.Random(9), 400)
    entries = journal.load(session.game_id).entries
    dice = FairDice(SEED)
    for entry in entries:
        for kind, *rest in entry.draws:
            dice.roll(len(rest[0])) if kind == "d" else dice.below(rest[0])
        assert entry.dice_at == list(dice.position), entry.seq
    assert entries[-1].dice_at == list(session.dice_position)
    assert len({tuple(e.dice_at) for e in entries}) > 10  # the stream moved along


@pytest.mark.slow
def test_a_game_journaled_before_dice_version_2_resumes_and_rolls_on_as_version_1(tmp_path):
    """A journal file of the schema before the dice position column, holding a version-1
    game (as every game written before dice version 2 is)."""
    with Journal(tmp_path / "straight.db") as straight:
        first = new_session(straight, version=1)
        drive(first, random.Random(4), 200)
        straight_draws = [e.draws for e in straight.load(first.game_id).entries]
    path = tmp_path / "old.db"
    chooser = random.Random(4)
    with Journal(path) as journal:
        game_id = new_session(journal, version=1).game_id
        drive(GameSession.resume(journal, game_id), chooser, 100)
    old = sqlite3.connect(path)
    for table in ("commands", "torn_rows"):
        old.execute(f"ALTER TABLE {table} DROP COLUMN dice_at")
    old.execute("DROP TABLE snapshots")  # a later step
    before_dice = next(i for i, step in enumerate(MIGRATIONS) if "dice_at" in step[0])
    old.execute(f"PRAGMA user_version = {before_dice}")
    old.commit()
    old.close()
    with Journal(path) as journal:
        assert journal.schema_version == SCHEMA_VERSION
        resumed = GameSession.resume(journal, game_id)
        assert resumed.commitment == hashlib.sha256(SEED).hexdigest()
        drive(resumed, chooser, 100)
        record = journal.load(game_id)
        assert [e.draws for e in record.entries] == straight_draws
        assert {e.dice_at for e in record.entries} == {None}
        checked, mismatch = verify_draws(SEED, [(e.seq, e.draws) for e in record.entries],
                                         version=1)
        assert mismatch is None and checked > 100


def test_undo_without_dice_restores_the_previous_state(journal):
    session = new_session(journal)
    drive(session, random.Random(2), 5)  # claims: no dice
    before = session.state.to_dict()
    session.submit(next_command(session.state, random.Random(3)))
    assert session.undo() == [6]
    assert session.state.to_dict() == before
    record = journal.load(session.game_id)
    assert record.entries[-1].undone and record.entries[-1].seq == 6
    assert GameSession.resume(journal, session.game_id).state == session.state


def test_undo_across_a_roll_is_refused_unless_the_host_overrides(journal):
    session = new_session(journal)
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.pending and s.pending["kind"] == "defend")
    before_roll = session.state.to_dict()
    session.submit(ChooseDefence(actor(session.state), 1))
    after_roll = session.state.to_dict()
    with pytest.raises(RuleError) as exc:
        session.undo()
    assert exc.value.code == "undo_across_roll"
    assert session.state.to_dict() == after_roll
    counter = session.dice_position
    session.undo(override=True)
    assert session.state.to_dict() == before_roll
    # Rolling again uses fresh dice: the stream never goes back.
    session.submit(ChooseDefence(actor(session.state), 1))
    assert session.dice_position > counter


def test_undo_refuses_to_go_past_the_start(journal):
    session = new_session(journal)
    drive(session, random.Random(2), 2)
    with pytest.raises(RuleError) as exc:
        session.undo(3)
    assert exc.value.code == "undo_nothing"
    assert session.undo(2) == [1, 2]


@pytest.mark.slow
def test_the_seed_is_revealed_only_after_the_game_and_verifies_every_roll(journal):
    session = new_session(journal)
    drive(session, random.Random(4), 200)
    with pytest.raises(RuleError) as exc:
        session.reveal_seed()
    assert exc.value.code == "game_running"
    assert journal.game(session.game_id).revealed_seed is None
    session.end("abandoned")
    seed = bytes.fromhex(session.reveal_seed())
    assert session.commitment == "v2:" + hashlib.sha256(seed).hexdigest()  # new games: v2
    record = journal.load(session.game_id)
    checked, mismatch = verify_draws(seed, [(e.seq, e.draws) for e in record.entries],
                                     version=2)
    assert mismatch is None and checked > 40
    with pytest.raises(RuleError):
        session.submit(next_command(session.state, random.Random(0)))


def test_physical_dice_take_exactly_the_typed_faces(journal):
    rules = {"physical_dice": True}
    with pytest.raises(RuleError) as exc:
        new_session(journal, house_rules=rules)  # the first-player roll needs typed dice
    assert exc.value.code == "dice_needed"
    session = new_session(journal, house_rules=rules, faces=[6, 2, 1])
    assert journal.load(session.game_id).entries[0].draws[0] == ["d", [6, 2, 1]]
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.pending and s.pending["kind"] == "defend")
    defender = actor(session.state)
    attack_dice = session.state.pending["attack_dice"]
    snapshot = session.state.to_dict()
    for faces, code in [([], "dice_needed"), ([7] * (attack_dice + 1), "bad_die"),
                        ([3] * (attack_dice + 2), "dice_left_over")]:
        with pytest.raises(RuleError) as exc:
            session.submit(ChooseDefence(defender, 1), faces=faces)
        assert exc.value.code == code
        assert session.state.to_dict() == snapshot
    faces = [6] * attack_dice + [5]
    seq, _ = session.submit(ChooseDefence(defender, 1), faces=faces)
    entry = journal.load(session.game_id).entries[-1]
    assert entry.seq == seq and entry.draws == [["d", [6] * attack_dice], ["d", [5]]]
    assert GameSession.resume(journal, session.game_id).state == session.state


def test_a_command_refused_after_it_drew_leaves_the_dice_and_the_journal_as_they_were(
        journal, monkeypatch):
    """session.py `submit`: a refused command changes nothing and journals nothing (RULES
    §8), and its dice are not kept, even when the refusal came after it drew: the stream
    stands where it stood, and the next accepted command journals only its own draws, so
    the game still replays (and verifies) exactly."""
    import pi_app.session as session_module

    session = new_session(journal)
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.pending and s.pending["kind"] == "defend")
    before = (session.dice_position, session.last_seq, session.state.to_dict())
    real_apply = session_module.apply

    def refuse_after_rolling(state, command, rng):
        rng.roll(3)
        raise RuleError("late_refusal", "Refused once the dice were rolled.")

    monkeypatch.setattr(session_module, "apply", refuse_after_rolling)
    with pytest.raises(RuleError):
        session.submit(ChooseDefence(actor(session.state), 1))
    assert (session.dice_position, session.last_seq, session.state.to_dict()) == before
    monkeypatch.setattr(session_module, "apply", real_apply)
    seq, _ = session.submit(ChooseDefence(actor(session.state), 1))
    assert [kind for kind, *_ in journal.load(session.game_id).entries[seq].draws] == [
        "d", "d"]  # the attacker's and the defender's roll, nothing left over
    assert GameSession.resume(journal, session.game_id).state == session.state


def test_a_game_journaled_before_typed_dice_existed_rolls_electronic_dice_on_resume(journal):
    """RULES §8: the companion rolls every die unless the table chose physical dice
    (`house_rules.physical_dice`, false by default). A game whose journaled house rules do
    not name the option (written before it existed) resumes rolling electronic dice."""
    session = new_session(journal)
    drive_until(session, random.Random(5), lambda s: s.pending and s.pending["kind"] == "defend")
    older = {k: v for k, v in journal.game(session.game_id).house_rules.items()
             if k != "physical_dice"}
    raw = sqlite3.connect(journal.path)  # as a riskboard before the option wrote it
    raw.execute("UPDATE games SET house_rules_json = ? WHERE id = ?",
                (json.dumps(older), session.game_id))
    raw.commit()
    raw.close()
    resumed = GameSession.resume(journal, session.game_id)
    seq, events = resumed.submit(ChooseDefence(actor(resumed.state), 1))
    assert any(e.type == "battle" for e in events) and seq == session.last_seq + 1


def test_a_new_game_takes_exactly_the_typed_faces_of_the_first_player_roll(journal):
    """RULES §8 with `physical_dice`: the dice rolled are the faces players type, and a
    command takes exactly the dice it rolls (session.py): a new game's first-player roll of
    3 players with a fourth face typed is refused (`dice_left_over`) and journals nothing."""
    rules = {"physical_dice": True}
    with pytest.raises(RuleError) as exc:
        new_session(journal, house_rules=rules, faces=[6, 2, 1, 4])
    assert exc.value.code == "dice_left_over"
    assert journal.game_ids("running") == []
    session = new_session(journal, house_rules=rules, faces=[6, 2, 1])
    assert session.state.current_player == "red"


def test_typed_dice_are_refused_at_an_electronic_table(journal):
    """RULES §8: the companion rolls every die unless the table chose physical dice; faces
    typed at an electronic table are refused (`dice_not_typed`), for a command and for a
    new game's first-player roll alike, and no game is started."""
    with pytest.raises(RuleError) as exc:
        new_session(journal, faces=[6, 2, 1])
    assert exc.value.code == "dice_not_typed"
    assert journal.game_ids() == []
    session = new_session(journal)
    with pytest.raises(RuleError) as exc:
        session.submit(next_command(session.state, random.Random(0)), faces=[3])
    assert exc.value.code == "dice_not_typed"


def test_restart_resumes_every_unfinished_game(tmp_path):
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        running = new_session(journal)
        drive(running, random.Random(1), 50)
        ended = new_session(journal, seed=b"\x02" * 32)
        ended.end("abandoned")
        other = new_session(journal, seed=b"\x03" * 32)
        drive(other, random.Random(2), 20)
        expected = {running.game_id: running.state.to_dict(),
                    other.game_id: other.state.to_dict()}
    with Journal(path) as journal:
        sessions = GameSession.resume_unfinished(journal)
        assert {s.game_id: s.state.to_dict() for s in sessions} == expected


def test_a_torn_last_command_resumes_at_the_one_before_and_says_so(journal, caplog):
    session = new_session(journal)
    drive(session, random.Random(7), 30)
    expected = replay_state(journal.load(session.game_id), until_seq=29).to_dict()
    raw = sqlite3.connect(journal.path)
    raw.execute("UPDATE commands SET command_json = substr(command_json, 1, 9) WHERE seq = 30")
    raw.commit()
    raw.close()
    with caplog.at_level(logging.WARNING):
        resumed = GameSession.resume(journal, session.game_id)
    assert resumed.state.to_dict() == expected
    assert f"event=journal.torn_tail game={session.game_id} seq=30" in caplog.text
    assert resumed.last_seq == 29
    resumed.submit(next_command(resumed.state, random.Random(8)))
    assert resumed.last_seq == 30


def test_a_journal_failure_acknowledges_nothing_and_keeps_the_state(journal, monkeypatch):
    session = new_session(journal)
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.pending and s.pending["kind"] == "defend")
    before, draws_before = session.state.to_dict(), session.dice_position

    def disk_full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(journal, "append", disk_full)
    with pytest.raises(sqlite3.OperationalError):
        session.submit(ChooseDefence(actor(session.state), 1))
    assert session.state.to_dict() == before
    assert session.dice_position == draws_before
    monkeypatch.undo()
    seq, _ = session.submit(ChooseDefence(actor(session.state), 1))
    assert GameSession.resume(journal, session.game_id).state == session.state
    assert seq == session.last_seq


def test_a_won_game_is_finished_and_its_seed_revealed(journal, monkeypatch):
    session = new_session(journal)
    every_command_wins(monkeypatch)
    session.submit(next_command(session.state, random.Random(0)))
    assert session.status == "finished"
    game = journal.game(session.game_id)
    assert game.status == "finished"
    assert game.revealed_seed == SEED.hex()
    with pytest.raises(RuleError) as exc:
        session.undo(override=True)
    assert exc.value.code == "game_over"
    assert journal.game_ids("running") == []


def tamper_row(path, game_id, seq):
    """Change a row without recomputing its checksum (corruption or tampering)."""
    raw = sqlite3.connect(path)
    raw.execute("UPDATE commands SET created_at = 'x' || created_at WHERE game_id = ? AND seq = ?",
                (game_id, seq))
    raw.commit()
    raw.close()


def test_a_bad_row_in_the_middle_refuses_resume_and_drops_nothing(tmp_path, caplog):
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        broken = new_session(journal)
        drive(broken, random.Random(1), 40)
        healthy = new_session(journal, seed=b"\x03" * 32)
        drive(healthy, random.Random(2), 20)
        expected = healthy.state.to_dict()
    tamper_row(path, broken.game_id, 20)
    with caplog.at_level(logging.WARNING), Journal(path) as journal:
        # Opening the journal (service start) sets the corrupt game aside, rows kept...
        assert f"event=journal.corrupt game={broken.game_id} seq=20" in caplog.text
        assert journal.game_ids("running") == [healthy.game_id]
        assert journal.game(broken.game_id).status == "corrupt"
        assert len(journal.audit_rows(broken.game_id)) == 41  # every acknowledged row kept
        # ...and resuming it anyway is refused, naming the row.
        with pytest.raises(JournalCorrupt) as exc:
            GameSession.resume(journal, broken.game_id)
        assert exc.value.seq == 20
    with Journal(path) as journal:  # the service starts: the other game resumes
        sessions = GameSession.resume_unfinished(journal)
        assert [s.state.to_dict() for s in sessions] == [expected]
        assert new_session(journal, seed=b"\x04" * 32).status == "running"


def test_a_won_game_is_finished_even_if_the_status_write_would_fail(journal, monkeypatch):
    session = new_session(journal)
    every_command_wins(monkeypatch)

    def crash(*args, **kwargs):
        raise sqlite3.OperationalError("power cut before the status write")

    monkeypatch.setattr(journal, "set_status", crash)
    monkeypatch.setattr(journal, "reveal", crash)
    session.submit(next_command(session.state, random.Random(0)))
    game = journal.game(session.game_id)
    assert (game.status, game.revealed_seed) == ("finished", SEED.hex())


def test_resume_finishes_a_won_game_left_running(journal, monkeypatch):
    session = new_session(journal)
    every_command_wins(monkeypatch)
    session.submit(next_command(session.state, random.Random(0)))
    raw = sqlite3.connect(journal.path)  # as an older riskboard could leave it
    raw.execute("UPDATE games SET status = 'running', revealed = 0")
    raw.commit()
    raw.close()
    resumed = GameSession.resume(journal, session.game_id)
    assert resumed.status == "finished"
    game = journal.game(session.game_id)
    assert (game.status, game.revealed_seed) == ("finished", SEED.hex())


@pytest.mark.parametrize("faces", [5, "65", {"a": 1}])
def test_typed_faces_that_are_not_a_list_are_a_bad_die(journal, faces):
    rules = {"physical_dice": True}
    session = new_session(journal, house_rules=rules, faces=[6, 2, 1])
    with pytest.raises(RuleError) as exc:
        session.submit(next_command(session.state, random.Random(0)), faces=faces)
    assert exc.value.code == "bad_die"


def test_a_tied_first_player_roll_says_who_rerolls_and_keeps_the_typed_dice(journal):
    rules = {"physical_dice": True}
    with pytest.raises(RuleError) as exc:
        new_session(journal, house_rules=rules, faces=[6, 6, 1])
    assert exc.value.code == "dice_needed"
    assert "red and blue tied" in exc.value.message
    assert "6, 6, 1" in exc.value.message
    session = new_session(journal, house_rules=rules, faces=[6, 6, 1, 3, 5])
    assert session.state.current_player == "blue"


def test_undo_across_a_card_draw_is_refused_unless_the_host_overrides(journal):
    session = new_session(journal)
    chooser = random.Random(5)
    drive_until(session, chooser, lambda s: s.conquered_this_turn and not s.pending
                and s.phase == "attack" and s.deck)
    player = session.state.current_player
    before = session.state.to_dict()
    seq, events = session.submit(EndTurn(player))
    assert any(e.type == "card_drawn" for e in events)
    assert not journal.load(session.game_id).entries[-1].draws  # no dice: only the card
    with pytest.raises(RuleError) as exc:
        session.undo()
    assert exc.value.code == "undo_across_draw"
    resumed = GameSession.resume(journal, session.game_id)
    with pytest.raises(RuleError):
        resumed.undo()
    assert session.undo(override=True) == [seq]
    assert session.state.to_dict() == before


@pytest.fixture
def snapshot_every(monkeypatch):
    """Snapshots every few commands, so short games exercise them."""
    import pi_app.session as session_module

    def every(n):
        monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", n)
    return every


def count_applies(monkeypatch):
    import pi_app.session as session_module

    calls = []
    real_apply = session_module.apply
    monkeypatch.setattr(session_module, "apply",
                        lambda *a: calls.append(1) or real_apply(*a))
    return calls


@pytest.mark.slow
def test_resume_starts_from_the_latest_snapshot_and_replays_only_what_follows(
        tmp_path, snapshot_every, monkeypatch):
    snapshot_every(20)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 130)
        assert journal.latest_snapshot(session.game_id, 10**9)[0] == 120
    applied = count_applies(monkeypatch)
    with Journal(path) as journal, Journal(tmp_path / "straight.db") as other:
        resumed = GameSession.resume(journal, session.game_id)
        assert len(applied) == 10  # seqs 121..130
        assert resumed.state == session.state
        assert resumed.dice_position == session.dice_position
        straight = new_session(other)  # the same game, never stopped
        drive(straight, random.Random(9), 130)
        chooser = random.Random(3)
        for _ in range(30):  # the resumed game plays on exactly like it
            command = next_command(straight.state, chooser)
            assert resumed.submit(command) == straight.submit(command)
        assert resumed.state == straight.state


def test_an_undo_drops_the_snapshots_it_reaches_back_over(tmp_path, snapshot_every):
    snapshot_every(20)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 60)
        assert journal.latest_snapshot(session.game_id, 10**9)[0] == 60
        session.undo(2, override=True)
        assert journal.latest_snapshot(session.game_id, 10**9)[0] == 40
    with Journal(path) as journal:
        assert GameSession.resume(journal, session.game_id).state == session.state


def test_a_torn_tail_drops_the_snapshots_after_it(tmp_path, snapshot_every):
    snapshot_every(20)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 50)
        game_id = session.game_id
    raw = sqlite3.connect(path)
    raw.execute("UPDATE commands SET checksum = 'torn' WHERE seq >= 35")
    raw.commit()
    raw.close()
    with Journal(path) as journal:
        resumed = GameSession.resume(journal, game_id)
        assert resumed.last_seq == 34
        assert resumed.state == replay_state(journal.load(game_id))
        assert journal.latest_snapshot(game_id, 10**9)[0] == 20


def test_a_snapshot_failing_its_checksum_is_passed_over(tmp_path, snapshot_every, caplog):
    snapshot_every(20)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 45)
    raw = sqlite3.connect(path)
    raw.execute("UPDATE snapshots SET state_json = replace(state_json, '\"turn\"', '\"tun\"')"
                " WHERE seq = 40")
    raw.commit()
    raw.close()
    with Journal(path) as journal, caplog.at_level(logging.WARNING):
        assert GameSession.resume(journal, session.game_id).state == session.state
        assert "event=journal.bad_snapshot" in caplog.text


def test_after_resuming_from_a_snapshot_undo_still_refuses_to_cross_a_card_draw(
        tmp_path, snapshot_every):
    """RULES §8.1: nobody but the host takes back a command that drew a card, also when the
    game was resumed from a snapshot of that very command (nothing after it replayed, so
    what it drew must be learnt from the snapshot before it)."""
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive_until(session, random.Random(5), lambda s: s.conquered_this_turn
                    and not s.pending and s.phase == "attack" and s.deck)
        snapshot_every(session.last_seq + 1)  # the card-drawing command is the snapshot
        seq, events = session.submit(EndTurn(session.state.current_player))
        assert journal.latest_snapshot(session.game_id, 10**9)[0] == seq
        assert any(e.type == "card_drawn" for e in events)
    with Journal(path) as journal:
        resumed = GameSession.resume(journal, session.game_id)
        with pytest.raises(RuleError) as exc:
            resumed.undo()
        assert exc.value.code == "undo_across_draw"


def test_the_host_undoes_back_past_two_snapshots_of_a_resumed_game(tmp_path, snapshot_every):
    """RULES §8.1: the host may take back any number of commands (past rolls and draws with
    the override), also in a game resumed from a snapshot: an undo learns what the commands
    since the snapshot before them drew, and a later undo further back still works and
    leaves the game as its journal replays it."""
    snapshot_every(10)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 25)
        assert session.last_seq == 25
    with Journal(path) as journal:
        resumed = GameSession.resume(journal, session.game_id)  # from the snapshot at 20
        assert resumed.undo(6, override=True) == list(range(20, 26))
        assert resumed.undo(10, override=True) == list(range(10, 20))
        assert resumed.state == replay_state(journal.load(session.game_id))


def test_strike_games_resume_from_a_snapshot_too(tmp_path, snapshot_every):
    from pi_app.computer.strike_bot import StrikeBot
    from pi_app.rules.strike import waiting_for

    snapshot_every(15)
    path = tmp_path / "games.db"
    bot = StrikeBot()
    with Journal(path) as journal:
        session = GameSession.new(journal, "strike", PLAYERS, None, FairDice(SEED))
        for _ in range(40):
            if session.state.winner is not None:
                break
            session.submit(bot.choose(session.state, waiting_for(session.state)[0]))
        assert journal.latest_snapshot(session.game_id, 10**9) is not None
    with Journal(path) as journal:
        assert GameSession.resume(journal, session.game_id).state == session.state


def test_an_undo_late_in_a_game_replays_from_the_latest_snapshot_before_it(
        tmp_path, snapshot_every, monkeypatch):
    snapshot_every(20)
    with Journal(tmp_path / "games.db") as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 130)
        assert session.last_seq == 130
        applied = count_applies(monkeypatch)
        assert session.undo(1, override=True) == [130]
        assert len(applied) == 9  # seqs 121..129 after the snapshot at 120, not all 129
        assert session.state == replay_state(journal.load(session.game_id))


@pytest.mark.slow
@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(every=st.integers(1, 15), chooser_seed=st.integers(0, 10**6),
       plays=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 6)), min_size=1,
                      max_size=6))
def test_undo_from_a_snapshot_gives_the_state_a_full_replay_gives(
        tmp_path_factory, snapshot_every, every, chooser_seed, plays):
    """Random games with snapshots every few commands, undone by random counts between
    stretches of play: after every undo the state is the one replaying every kept row
    gives, and the game plays on from it as from that one. An undo the game refuses
    (a roll, a card drawn) is refused alike by the game resumed from its snapshots."""
    snapshot_every(every)
    chooser = random.Random(chooser_seed)
    with Journal(tmp_path_factory.mktemp("undo") / "games.db") as journal:
        session = new_session(journal)
        for commands, count in plays:
            drive(session, chooser, commands)
            if session.status != "running":
                break
            count = min(count, len([e for e in journal.load(session.game_id).entries
                                    if e.seq > 0 and not e.undone]))
            if count == 0:
                continue
            try:
                session.undo(count)
            except RuleError as refused:
                resumed = GameSession.resume(journal, session.game_id)
                with pytest.raises(RuleError) as again:
                    resumed.undo(count)
                assert again.value.code == refused.code
                session.undo(count, override=True)
            full = replay_state(journal.load(session.game_id))
            assert session.state.to_dict() == full.to_dict()
            assert session.state == full
        with Journal(journal.path) as reopened:
            assert GameSession.resume(reopened, session.game_id).state == session.state


def test_no_snapshot_of_an_undone_state_feeds_the_next_resume(tmp_path, snapshot_every):
    """Undo several commands that a snapshot lies among (not at the first of them); play on
    less than a snapshot's stretch; restart: the game is the one the kept rows give."""
    snapshot_every(5)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(2), 41)  # claims: snapshots after seqs 5, 10, ... 40
        assert session.undo(3) == [39, 40, 41]  # the snapshot after 40 is of an undone state
        drive(session, random.Random(7), 1)  # seq 42: no snapshot of its own
        assert session.last_seq == 42
        game_id, played = session.game_id, session.state
    with Journal(path) as journal:
        assert journal.latest_snapshot(game_id, 10**9)[0] == 35
        resumed = GameSession.resume(journal, game_id)
        assert resumed.state == played
        assert resumed.state == replay_state(journal.load(game_id))  # no snapshot used


def test_undo_restart_undo_again_always_gives_the_kept_rows_state(tmp_path, snapshot_every):
    """Undo × snapshots × restart, in turn: after each undo and each restart the state is
    the one replaying every kept row from the start gives, and undo reaches back the same
    from a resumed game as from the live one."""
    snapshot_every(4)
    path = tmp_path / "games.db"
    chooser = random.Random(11)
    game_id = None
    for stretch, undo in [(17, 2), (6, 5), (3, 4), (9, 1), (2, 6)]:
        with Journal(path) as journal:
            session = (new_session(journal) if game_id is None
                       else GameSession.resume(journal, game_id))
            game_id = session.game_id
            if stretch:
                drive(session, chooser, stretch)
            last = session.last_seq
            kept = [e.seq for e in journal.load(game_id).active_entries()]
            assert session.undo(undo, override=True) == kept[-undo:]
            full = replay_state(journal.load(game_id))
            assert session.state == full
            assert session.last_seq == last  # undone rows keep their seqs
        with Journal(path) as journal:
            resumed = GameSession.resume(journal, game_id)
            assert resumed.state == full
            latest = journal.latest_snapshot(game_id, 10**9)
            assert latest is None or latest[0] in kept[:-undo]


def _events_of(pairs):
    return [(seq, [event.to_dict() for event in events]) for seq, events in pairs]


def _log_by_full_replay(journal, game_id, count):
    """The last `count` active entries' (seq, events), replayed from the start."""
    return _events_of([(entry.seq, events) for entry, _state, events
                       in replay_steps(journal.load(game_id))][-count:])


@pytest.mark.parametrize("resumed", [False, True], ids=["live", "resumed"])
@pytest.mark.parametrize("undo", [1, 3, 8, 12])
def test_the_recent_log_after_an_undo_is_the_kept_rows_log(tmp_path, snapshot_every, resumed,
                                                          undo):
    """`recent_events(n)` after an undo: exactly the last n kept entries (oldest first),
    whether the session kept them in memory or has to replay some (a resumed session
    keeps only those after its snapshot)."""
    snapshot_every(10)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 48)
        if resumed:
            session = GameSession.resume(journal, session.game_id)  # keeps 41..48
        session.undo(undo, override=True)
        game_id = session.game_id
        kept = len(journal.load(game_id).active_entries())
        for count in (1, 2, 5, 9, 20, 47 - undo, kept, kept + 5):
            expected = _log_by_full_replay(journal, game_id, count)
            assert len(expected) == min(count, kept)
            assert _events_of(session.recent_events(count)) == expected, count
        # and the log goes on from there with the next command
        seq, events = session.submit(next_command(session.state, random.Random(1)))
        assert session.recent_events(1) == [(seq, events)]
        assert _events_of(session.recent_events(6)) == _log_by_full_replay(journal, game_id, 6)


def test_a_game_resumed_right_at_a_snapshot_still_has_its_whole_recent_log(
        tmp_path, snapshot_every):
    snapshot_every(10)
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 30)  # the last command is a snapshot's
        resumed = GameSession.resume(journal, session.game_id)  # nothing replayed
        for count in (1, 4, 12):
            assert _events_of(resumed.recent_events(count)) == _log_by_full_replay(
                journal, session.game_id, count)


def test_an_undo_keeps_the_log_its_replay_rebuilt(tmp_path, snapshot_every, monkeypatch):
    """The undo's replay from the snapshot before it gives the log of those entries: asking
    for it next replays nothing more."""
    snapshot_every(10)
    with Journal(tmp_path / "games.db") as journal:
        session = new_session(journal)
        drive(session, random.Random(9), 48)
        resumed = GameSession.resume(journal, session.game_id)  # keeps 41..48 in memory
        assert resumed.undo(12, override=True)[0] == 37  # replays 31..36 from seq 30
        applied = count_applies(monkeypatch)
        log = resumed.recent_events(6)
        assert [seq for seq, _events in log] == [31, 32, 33, 34, 35, 36]
        assert applied == []


def test_replaying_from_a_snapshot_up_to_that_snapshot_gives_its_state(tmp_path):
    """replay_state from `start` (a snapshot: its seq and the state after it) reaches the
    same game as a replay from the first row, also when nothing follows the snapshot up to
    `until_seq` (an undo that reaches back exactly to a snapshot)."""
    with Journal(tmp_path / "games.db") as journal:
        session = new_session(journal)
        drive(session, random.Random(5), 12)
        record = journal.load(session.game_id)
        at_8 = replay_state(record, until_seq=8)
        assert replay_state(record, until_seq=8, start=(8, at_8.copy())) == at_8
        assert replay_state(record, start=(8, at_8.copy())) == session.state
        assert replay_state(record) == session.state
