"""The table core: inputs become journaled commands, lights and updates; restarts relight."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from hardware.profiles import load_profile
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.table.lights import ErrorBlink, LedMap, render
from pi_app.table.loop import NewGameSpec, TableCore, Wiring
from pi_app.table.palette import Palette
from pi_app.table_api import CommandRejected, Viewer

PROFILE = load_profile("classic-42")
NFC = load_profile("classic-42-nfc")
LEDS = LedMap.from_profile(PROFILE)
DEAL = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


class Clock:
    """A hand-driven clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_core(tmp_path, profile=PROFILE, demo=DEAL, clock=None) -> TableCore:
    scenes = []
    core = TableCore(Journal(tmp_path / "journal.sqlite"), Wiring.from_profile(profile),
                     show=scenes.append, clock=clock or Clock(),
                     dice=lambda: FairDice(b"\x07" * 32))
    core.scenes = scenes  # type: ignore[attr-defined]
    core.start(demo)
    return core


def channel(territory: str, profile=PROFILE) -> int:
    return profile.sensors[territory].channel


def test_a_touch_is_journaled_and_lit(tmp_path):
    core = make_core(tmp_path)
    player = core.state.current_player
    mine = core.state.territories_of(player)[0]
    before = core.state.armies[mine]
    shown = len(core.scenes)
    core.on_sensor(channel(mine), "press", None)
    assert core.state.armies[mine] == before + 1
    assert core.session.last_seq == 1
    assert len(core.scenes) > shown
    assert core.scenes[-1].current_player != player  # setup placing passes to the left
    assert core.publisher.snapshot.state.armies[mine] == before + 1


def test_a_refused_touch_blinks_there_and_journals_nothing(tmp_path):
    core = make_core(tmp_path)
    enemy = next(t for t, o in core.state.owner.items() if o != core.state.current_player)
    core.on_sensor(channel(enemy), "press", None)
    assert core.session.last_seq == 0
    assert ErrorBlink(enemy, 100.0) in core.scenes[-1].effects
    assert core.publisher.snapshot.refusal["code"] == "not_your_territory"


def test_a_restart_relights_the_board_exactly_as_before(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, clock=clock)
    for _ in range(5):
        player = core.state.current_player
        core.on_sensor(channel(core.state.territories_of(player)[-1]), "press", None)
    clock.now += 10  # effects have faded
    core.host_action("undo", {})  # the log starts over: a restart shows the same board
    before = render(core.scene(), LEDS, Palette(), clock.now)
    core.journal.close()
    again = make_core(tmp_path, clock=clock)
    assert again.session.game_id == core.session.game_id
    assert render(again.scene(), LEDS, Palette(), clock.now) == before


def test_undo_never_crosses_a_roll(tmp_path):
    core = make_core(tmp_path, demo=None)
    core.host_action("new_game", {"variant": "classic", "players": ["red", "blue", "green"],
                                  "house_rules": {"setup": "deal"}})
    core.on_control("undo", "press")
    assert core.publisher.snapshot.refusal["code"] in ("undo_nothing", "undo_across_roll")


def test_a_phone_may_only_act_for_its_own_seat(tmp_path):
    core = make_core(tmp_path)
    player = core.state.current_player
    other = next(p for p in core.state.players if p != player)
    mine = core.state.territories_of(player)[0]
    command = {"type": "place", "player": player, "territory": mine, "count": 1}
    with pytest.raises(CommandRejected) as refused:
        core.submit(command, Viewer("player", other))
    assert refused.value.status == 403
    accepted = core.submit(command, Viewer("player", player))
    assert accepted.seq == core.publisher.snapshot.revision
    assert accepted.events[0]["type"] == "placed"


def test_on_nfc_boards_a_touch_by_the_wrong_token_is_refused(tmp_path):
    core = make_core(tmp_path, profile=NFC)
    player = core.state.current_player
    other = next(p for p in core.state.players if p != player)
    mine = core.state.territories_of(player)[0]
    core.on_sensor(channel(mine, NFC), "tag_present", bytes.fromhex(NFC.tokens[other][0]))
    assert core.publisher.snapshot.refusal["code"] == "not_your_turn"
    core.on_sensor(channel(mine, NFC), "tag_removed", None)
    core.on_sensor(channel(mine, NFC), "tag_present", bytes.fromhex(NFC.tokens[player][0]))
    assert core.session.last_seq == 1


def test_marker_mismatches_light_at_once_and_clear_when_fixed(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, profile=NFC, clock=clock)
    owners = core.state.owner
    alaska_owner = owners["alaska"]
    wrong = next(c for c in core.state.players if c != alaska_owner)
    dump = {channel(t, NFC): ("tag_present", bytes.fromhex(NFC.markers[o][0]))
            for t, o in owners.items()}
    dump[channel("alaska", NFC)] = ("tag_present", bytes.fromhex(NFC.markers[wrong][0]))
    dump[channel("peru", NFC)] = ("tag_removed", None)
    core.on_dump(dump)
    found = core.publisher.snapshot.mismatches
    assert set(found) == {"alaska", "peru"}
    assert found["alaska"].seen == wrong and found["peru"].kind == "missing"
    assert isinstance(core.scenes[-1].mismatches, MappingProxyType)
    core.on_sensor(channel("alaska", NFC), "tag_present",
                   bytes.fromhex(NFC.markers[alaska_owner][0]))
    assert set(core.publisher.snapshot.mismatches) == {"peru"}


def test_finished_effects_are_dropped_even_when_the_loop_never_idles(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, clock=clock)
    enemy = next(t for t, o in core.state.owner.items() if o != core.state.current_player)
    for _ in range(200):  # a refusal every half second, and never a quiet tick()
        clock.now += 0.5
        core.on_sensor(channel(enemy), "press", None)
    # an error blink lasts a second: only the last two or three can still be alive
    assert len(core.fx.running) <= 3, len(core.fx.running)


JOURNALED = ("selection", "refused", "board_mismatches", "paused", "resumed")


def test_the_update_log_stays_short_and_older_game_events_are_rebuilt_from_the_journal(
        tmp_path, monkeypatch):
    from pi_app.table import publishing as loop_module

    monkeypatch.setattr(loop_module, "UPDATE_LOG", 6)
    core = make_core(tmp_path)
    published: list[dict] = []
    original = core.publisher.publish

    def capture(snapshot, events, **kwargs):
        published.extend(events or [])
        original(snapshot, events, **kwargs)

    core.publisher.publish = capture  # type: ignore[method-assign]
    opening = [e for _r, events in core.publisher.updates_since(-1) for e in events]
    for _ in range(30):  # setup placements: one journaled command and update each
        player = core.state.current_player
        core.on_sensor(channel(core.state.territories_of(player)[0]), "press", None)
    assert len(core.publisher.updates_since(-1)) <= 6
    span = core.publisher.journal_span(-1)
    assert span is not None and span[1] == 0  # from the new game's own entry
    rebuilt = core.journal_events(span[1], span[2])
    logged = [e for _r, events in core.publisher.updates_since(-1) for e in events]
    game = [e for e in opening + published if e["type"] not in JOURNALED]
    assert rebuilt + logged == game
    # a reader that saw everything up to the last update misses nothing
    assert core.publisher.journal_span(core.revision) is None


def test_a_game_that_cannot_be_resumed_does_not_keep_the_table_from_starting(tmp_path,
                                                                                monkeypatch):
    from pi_app.journal import JournalError
    from pi_app.session import GameSession

    first = make_core(tmp_path)  # journals a running demo game
    broken = first.session.game_id

    def refuse(journal, game_id):
        raise JournalError(f"game {game_id} seq 3 fails its checksum")

    monkeypatch.setattr(GameSession, "resume", classmethod(lambda cls, j, g, **_: refuse(j, g)))
    second = make_core(tmp_path)
    assert second.session is not None and second.session.game_id != broken


def test_an_undo_raises_the_history_marker_so_pages_drop_their_log(tmp_path):
    core = make_core(tmp_path)
    player = core.state.current_player
    territory = core.state.territories_of(player)[-1]
    armies = core.state.armies[territory]
    core.on_sensor(channel(territory), "press", None)  # a Place
    assert core.state.armies[territory] == armies + 1
    before = core.publisher.snapshot
    assert core.publisher.updates_since(0), "the Place was published"
    core.host_action("undo", {})
    after = core.publisher.snapshot
    assert after.history == before.history + 1
    assert core.state.armies[territory] == armies
    # the published log restarts at the undo: nothing before it is offered again
    assert all(revision > before.revision for revision, _ in core.publisher.updates_since(0))
