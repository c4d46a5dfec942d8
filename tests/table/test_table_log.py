"""The table's published game log after an undo and after a restart: what replaying the
journal from the game's start gives (the events of its last `RECENT_ENTRIES` entries),
kept by the session and rebuilt from a snapshot, never by replaying the whole game."""

from __future__ import annotations

import random

import pytest
from crash.driver import actor, next_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pi_app.session as session_module
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.redaction import redact_event
from pi_app.session import replay_steps
from pi_app.table import publishing as loop_module
from pi_app.table.loop import NewGameSpec, TableCore, Wiring
from pi_app.table_api import CommandRejected, Viewer

DEAL = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


@pytest.fixture
def small(monkeypatch):
    """A short log, a short memory and snapshots every few commands, so games of a few
    dozen commands cross all three (and the publisher keeps only a few updates)."""

    def sizes(log: int, kept: int, every: int) -> None:
        monkeypatch.setattr(loop_module, "UPDATE_LOG", 4)
        monkeypatch.setattr(loop_module, "RECENT_ENTRIES", log)
        monkeypatch.setattr(session_module, "LOG_KEPT", kept)
        monkeypatch.setattr(session_module, "SNAPSHOT_EVERY", every)
    return sizes


def count_replays(monkeypatch) -> list[int]:
    """Every command the session's rules apply from here on (a replay or a submit)."""
    calls: list[int] = []
    real_apply = session_module.apply
    monkeypatch.setattr(session_module, "apply", lambda *a: calls.append(1) or real_apply(*a))
    return calls


def core_over(path) -> TableCore:
    """A table over the journal at `path`: resumes its running game or deals a new one."""
    core = TableCore(Journal(path), Wiring({}), dice=lambda: FairDice(b"\x07" * 32))
    core.start(DEAL)
    return core


def play(core: TableCore, chooser: random.Random, commands: int) -> None:
    """`commands` random legal commands, each sent by the seat the game waits for."""
    for _ in range(commands):
        state = core.state
        if core.session.status != "running":
            return
        command = next_command(state, chooser)
        if command is None:
            return
        core.submit(command.to_dict(), Viewer("player", actor(state)))


def replayed(path, game_id: int) -> list[tuple[int, list[dict]]]:
    """(seq, events) of every active entry: the journal read afresh and replayed from the
    game's start."""
    with Journal(path) as journal:
        return [(entry.seq, [e.to_dict() for e in events])
                for entry, _state, events in replay_steps(journal.load(game_id))]


def replayed_log(path, game_id: int) -> list[dict]:
    """The log a full rebuild gives: the events of the last `RECENT_ENTRIES` entries."""
    return [e for _seq, events in replayed(path, game_id)[-loop_module.RECENT_ENTRIES:]
            for e in events]


def reset_log(core: TableCore) -> list[dict]:
    """Every event a reader starting afresh gets, as `LocalTableService.updates_since(-1)`
    assembles them: the journal entries the publisher no longer holds, then its log."""
    span = core.publisher.journal_span(-1)
    rebuilt = core.journal_events(span[1], span[2]) if span is not None else []
    return rebuilt + [e for _r, events in core.publisher.updates_since(-1) for e in events]


@pytest.mark.slow
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.tuples(st.integers(1, 12), st.integers(0, 12), st.integers(1, 15)),
       chooser_seed=st.integers(0, 10**6),
       plays=st.lists(st.tuples(st.integers(0, 30), st.integers(1, 8), st.booleans()),
                      min_size=1, max_size=6))
def test_the_log_after_an_undo_or_a_restart_is_the_one_a_full_replay_gives(
        tmp_path_factory, small, sizes, chooser_seed, plays):
    """Random games, undone by random counts (the host overriding rolls and draws) and
    restarted between stretches of play: after every undo the published update holds the
    log a full replay of the journal gives, then the undo; after every restart the first
    update holds that log; and a reader starting afresh gets the game's events from the
    first entry of that log on (those the publisher no longer holds rebuilt, as far back as
    the recent log goes)."""
    log, extra, every = sizes
    small(log, log + extra, every)
    path = tmp_path_factory.mktemp("log") / "journal.sqlite"
    chooser = random.Random(chooser_seed)
    core = core_over(path)
    assert core.publisher.updates_since(-1)[0][1] == replayed_log(path, core.session.game_id)
    log_from = 0  # the first entry of the log since it last started over
    for commands, count, restart in plays:
        play(core, chooser, commands)
        game = replayed(path, core.session.game_id)
        fresh = [e for e in reset_log(core) if e["type"] != "undone"]
        # since the log last started over; a reader further behind than the recent log
        # gets at least the recent log (issue 21.5: no replay of the game for it)
        since = [e for seq, events in game if seq >= log_from for e in events]
        floor = max(log_from, game[-loop_module.RECENT_ENTRIES:][0][0])
        assert fresh == since[len(since) - len(fresh):]
        assert len(fresh) >= len([e for seq, events in game if seq >= floor for e in events])
        if core.session.status != "running":
            break
        try:
            core.host_action("undo", {"count": count, "override": True})
        except CommandRejected as refused:
            assert refused.code == "undo_nothing"
        else:
            game_id = core.session.game_id
            (update,) = core.publisher.updates_since(core.revision - 1)
            *kept, undone = update[1]
            assert undone["type"] == "undone" and len(undone["seqs"]) == count
            assert kept == replayed_log(path, game_id)
            assert reset_log(core) == [*kept, undone]
            log_from = replayed(path, game_id)[-loop_module.RECENT_ENTRIES:][0][0]
        if restart:
            core.journal.close()
            core = core_over(path)
            (update,) = core.publisher.updates_since(-1)
            assert update[1] == replayed_log(path, core.session.game_id)
            log_from = replayed(path, core.session.game_id)[-loop_module.RECENT_ENTRIES:][0][0]
    core.journal.close()


def test_a_table_undo_late_in_a_game_replays_only_from_the_snapshot_before_it(
        tmp_path, small, monkeypatch):
    small(10, 30, 20)
    core = core_over(tmp_path / "journal.sqlite")
    play(core, random.Random(9), 150)
    assert core.session.last_seq == 150
    replays = count_replays(monkeypatch)
    assert core.host_action("undo", {"override": True})["undone"] == [150]
    assert len(replays) == 9, "seqs 141..149 after the snapshot at 140, not all 149"


def test_an_undo_back_past_the_kept_log_rebuilds_it_from_a_snapshot(
        tmp_path, small, monkeypatch):
    small(10, 12, 20)
    path = tmp_path / "journal.sqlite"
    core = core_over(path)
    play(core, random.Random(9), 150)
    replays = count_replays(monkeypatch)
    core.host_action("undo", {"count": 25, "override": True})
    # the session's undo replays 121..125 (snapshot 120); its log then needs 116..125:
    # 116..120 come from the snapshot at 100, never from the game's start
    assert len(replays) == 5 + 20
    (update,) = core.publisher.updates_since(core.revision - 1)
    assert update[1][:-1] == replayed_log(path, core.session.game_id)


def test_a_restart_rebuilds_the_log_from_the_snapshot_before_it(tmp_path, small,
                                                                 monkeypatch):
    small(10, 30, 20)
    monkeypatch.setattr(loop_module, "UPDATE_LOG", 300)
    path = tmp_path / "journal.sqlite"
    core = core_over(path)
    play(core, random.Random(9), 150)
    before = [e for _r, events in core.publisher.updates_since(core.revision - 10)
              for e in events]
    core.journal.close()
    replays = count_replays(monkeypatch)
    core = core_over(path)
    assert len(replays) == 10, "seqs 141..150 after the snapshot at 140"
    (update,) = core.publisher.updates_since(-1)
    assert update[1] == before == replayed_log(path, core.session.game_id)



def test_a_reader_resuming_from_the_start_of_a_long_game_costs_the_table_no_replay(
        tmp_path, small, monkeypatch):
    """Issue 21.5: a spectator resuming the public stream from event 0 (its updates long
    dropped from memory) is served what the session keeps, never a replay of the game on
    the table's thread; the rest reaches it as the view's state."""
    from hardware.profiles import load_profile
    from pi_app.table.lights import LedMap
    from pi_app.table.service import LocalTableService

    small(log=10, kept=12, every=1000)  # no snapshot: a replay would start at the game's start
    core = core_over(tmp_path / "journal.sqlite")
    play(core, random.Random(5), 60)
    assert core.publisher.journal_span(0) is not None, "nothing dropped: no resume to serve"

    class Inline:  # the service's loop, run inline: `call` runs on "the table's thread"
        publisher = core.publisher

        @staticmethod
        def call(fn):
            return fn(core)

    service = LocalTableService(Inline(), leds=LedMap.from_profile(load_profile("classic-42")))
    calls = count_replays(monkeypatch)
    updates = service.updates_since(0, Viewer("spectator"))
    assert calls == [], f"{len(calls)} commands replayed for one reader"
    served = [e for u in updates for e in u.events]
    key = Viewer("spectator").redaction_key
    tail = [r for _seq, events in replayed(tmp_path / "journal.sqlite",
                                           core.session.game_id)[-10:]
            for r in (redact_event(e, key) for e in events) if r is not None]
    assert tail and served[-len(tail):] == tail, "the reader lost the game's latest events"
