"""The table core plays every variant: gestures, secret HQ picks, third-army colours, the
Allied phase, RISK Strike continents and its reaction timer, and new-game updates."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from hardware.profiles import load_profile
from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules import is_strike, legal_attacks_from, load_map
from pi_app.rules.strike import load_strike_deck, waiting_for
from pi_app.table.lights import WHITE, LedMap, render
from pi_app.table.loop import NewGameSpec, TableCore, Wiring, awaited
from pi_app.table.palette import THIRD_ARMY_COLOURS, Palette
from pi_app.table.strike_gestures import defenders_for
from pi_app.table_api import CommandRejected, Viewer

PROFILE = load_profile("classic-42")
NFC = load_profile("classic-42-nfc")
LEDS = LedMap.from_profile(PROFILE)
PALETTE = Palette()
BOARD = load_map()
DECK = load_strike_deck()


class Clock:
    """A hand-driven clock."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def make_core(tmp_path, spec: NewGameSpec, profile=PROFILE, clock=None, seed=b"\x07"):
    tmp_path.mkdir(parents=True, exist_ok=True)
    core = TableCore(Journal(tmp_path / "journal.sqlite"), Wiring.from_profile(profile),
                     clock=clock or Clock(), dice=lambda: FairDice(seed * 32))
    core.start(spec)
    return core


def channel(territory: str, profile=PROFILE) -> int:
    return profile.sensors[territory].channel


def touch(core: TableCore, territory: str, player: str | None = None) -> None:
    if player is None:
        core.on_sensor(channel(territory), "press", None)
        return
    ch = channel(territory, NFC)
    core.on_sensor(ch, "tag_present", bytes.fromhex(NFC.tokens[player][0]))
    core.on_sensor(ch, "tag_removed", None)


def bots_until(core: TableCore, done: Callable[[Any], bool], limit: int = 3000) -> None:
    """Let the variant bots play through the phones' door until `done(state)`."""
    bot: Any = StrikeBot() if is_strike(core.state) else SimpleBot()
    for _ in range(limit):
        if done(core.state):
            return
        player = awaited(core.state)[0]
        core.submit(bot.choose(core.state, player).to_dict(), Viewer("player", player))
    raise AssertionError(f"never reached the position (phase {core.state.phase})")


def frame(core: TableCore, t: float) -> tuple:
    return render(core.scene(), LEDS, PALETTE, t)


def territory_pixels(pixels: tuple, territory: str) -> list:
    return [pixels[i] for i in LEDS.territories[territory]]


# --- Capital ---------------------------------------------------------------------------

CAPITAL = NewGameSpec("capital", ("red", "blue", "green"), {"setup": "deal"})


def at_hq_pick(tmp_path, profile=PROFILE, clock=None) -> TableCore:
    core = make_core(tmp_path, CAPITAL, profile, clock)
    bots_until(core, lambda s: s.phase == "hq_pick")
    return core


def test_on_button_boards_a_touch_then_holding_confirm_picks_the_hq(tmp_path):
    core = at_hq_pick(tmp_path)
    player = core.state.current_player
    mine = core.state.territories_of(player)[3]
    seq = core.session.last_seq
    touch(core, mine)
    assert core.session.last_seq == seq  # nothing is picked by the touch alone
    assert core.publisher.snapshot.table_dict()["selection"]["source"] is None  # secret
    shown = [e for _rev, events in core.publisher.updates_since(core.revision - 1)
             for e in events]
    assert shown == [{"type": "selection", "source": None, "target": None, "dice": None,
                      "count": None, "defender": None, "defence": None}]
    core.on_control("confirm", "long_press")
    assert core.state.hq[player] == mine
    assert core.state.current_player != player  # the next seat picks


def test_on_nfc_boards_any_seat_picks_with_its_token_in_any_order(tmp_path):
    core = at_hq_pick(tmp_path / "a", NFC)
    last = core.state.players[-1]
    assert last != core.state.current_player
    theirs = core.state.territories_of(last)[0]
    touch(core, theirs, last)
    assert core.state.hq == {last: theirs}
    enemy = core.state.territories_of(core.state.players[0])[0]
    touch(core, enemy, last)
    assert core.publisher.snapshot.refusal["code"] == "not_your_territory"
    assert core.state.hq == {last: theirs}


def test_leds_show_nothing_of_the_hq_picks_until_the_reveal(tmp_path):
    """Two tables picking different HQs show identical frames until the last pick."""
    clocks = [Clock(), Clock()]
    cores = [at_hq_pick(tmp_path / str(k), clock=clocks[k]) for k in (0, 1)]
    assert cores[0].state.owner == cores[1].state.owner
    players = cores[0].state.players
    times = [clocks[0].now + dt / 10 for dt in range(40)]
    for n, player in enumerate(players):
        for k, core in enumerate(cores):
            land = core.state.territories_of(player)
            touch(core, land[0] if k == 0 else land[-1])  # the tables choose differently
        for t in times:  # touched, not yet confirmed
            assert frame(cores[0], t) == frame(cores[1], t)
        if n < len(players) - 1:
            for core in cores:
                core.on_control("confirm", "long_press")
            for t in times:
                assert frame(cores[0], t) == frame(cores[1], t)
    for core in cores:
        assert not core.state.hq_revealed
        core.on_control("confirm", "long_press")
        assert core.state.hq_revealed and core.state.phase == "reinforce"
    # after the reveal each HQ wears its crown: white at the start of every 2 s cycle
    for core, clock in zip(cores, clocks, strict=True):
        clock.now += 5  # the turn pulse has faded
        for hq in core.state.hq.values():
            assert set(territory_pixels(render(core.scene(), LEDS, PALETTE, 200.05), hq)) \
                == {WHITE}
            full = PALETTE.rgb(core.state.owner[hq])
            assert set(territory_pixels(render(core.scene(), LEDS, PALETTE, 201.0), hq)) \
                == {full}
    assert frame(cores[0], 200.05) != frame(cores[1], 200.05)


def test_an_hq_captured_keeps_its_crown_in_the_new_holders_colour(tmp_path):
    core = at_hq_pick(tmp_path)
    bots_until(core, lambda s: any(s.owner[t] != p for p, t in s.hq.items())
               and s.hq_revealed)
    taken = next(t for p, t in core.state.hq.items() if core.state.owner[t] != p)
    assert taken in core.scene().hq
    if core.state.pending and core.state.pending["kind"] == "move_in":
        core.on_control("confirm", "press")  # the move in: the destination stops counting
    # 1000.4 s: past the crown's white blink
    pixels = territory_pixels(render(core.scene(), LEDS, PALETTE, 1000.4), taken)
    assert set(pixels) in ({PALETTE.rgb(core.state.owner[taken])}, {WHITE}) or \
        core.state.winner is not None


# --- two-player (neutral) and Allied ------------------------------------------------------

def test_neutral_territories_are_grey_and_a_touch_there_places_a_neutral_army(tmp_path):
    core = make_core(tmp_path, NewGameSpec("two-player", ("red", "blue")))
    assert core.state.phase == "setup_place"
    neutral = core.state.territories_of("neutral")[0]
    grey = THIRD_ARMY_COLOURS["neutral"]
    half = tuple(round(c * 0.5) for c in grey)
    core.clock.now += 5  # type: ignore[attr-defined]
    assert set(territory_pixels(render(core.scene(), LEDS, PALETTE, 200.0), neutral)) \
        == {half}
    before = core.state.armies[neutral]
    touch(core, neutral)
    assert core.state.armies[neutral] == before + 1
    assert core.journal.load(core.session.game_id).entries[-1].command["type"] \
        == "place_neutral"


def test_attacking_a_neutral_territory_the_other_seat_chooses_the_defence(tmp_path):
    core = make_core(tmp_path, NewGameSpec("two-player", ("red", "blue")), NFC)
    bots_until(core, lambda s: s.phase == "attack" and s.pending is None)
    me = core.state.current_player
    other = next(p for p in core.state.players if p != me)
    pairs = [(t, n) for t in core.state.territories_of(me)
             for n in core.state.territories_of("neutral") if n in BOARD.neighbours[t]]
    assert pairs, "14 neutral territories always border some of a seat's"
    source, target = pairs[0]
    core.state.armies[source] = max(core.state.armies[source], 4)
    touch(core, source, me)
    touch(core, target, me)
    core.on_control("roll", "press")
    pending = core.state.pending
    assert pending is not None and pending["kind"] == "defend" and pending["player"] == other
    touch(core, target, me)
    assert core.publisher.snapshot.refusal["code"] == "not_your_turn"
    seq = core.session.last_seq
    core.on_control("roll", "press")  # the buttons act for the seat asked
    assert core.session.last_seq == seq + 1
    assert core.state.pending is None or core.state.pending["kind"] == "move_in"


def test_the_allied_commander_places_and_attacks_with_allied_armies(tmp_path):
    core = make_core(tmp_path, NewGameSpec("allied", ("red", "blue")))
    allied = THIRD_ARMY_COLOURS["allied"]
    bots_until(core, lambda s: s.phase == "allied" and s.variant_data["reserve"] > 1)
    commander = core.state.current_player
    land = core.state.territories_of("allied")
    core.clock.now += 5  # type: ignore[attr-defined]
    assert set(territory_pixels(render(core.scene(), LEDS, PALETTE, 300.0), land[0])) \
        == {tuple(round(c * 0.5) for c in allied)}
    reserve = core.state.variant_data["reserve"]
    before = core.state.armies[land[0]]
    touch(core, land[0])
    core.on_control("confirm", "press")
    assert core.state.armies[land[0]] == before + reserve
    assert core.state.variant_data["reserve"] == 0
    turn_of = core.state.variant_data["allied_turn"]["turn_of"]
    sources = [t for t in land if legal_attacks_from(core.state, t)]
    if sources:
        target = legal_attacks_from(core.state, sources[0])[0]
        assert core.state.owner[target] == turn_of
        core.on_control("undo", "press")  # with a selection, Undo only drops it
        touch(core, sources[0])
        touch(core, target)
        core.on_control("roll", "press")
        entries = core.journal.load(core.session.game_id).entries
        assert entries[-1].command["type"] == "attack"
        pending = core.state.pending
        if pending is not None and pending["kind"] == "defend":
            assert pending["player"] == turn_of  # the attacked seat defends itself
            core.on_control("roll", "press")
        if core.state.pending and core.state.pending["kind"] == "move_in":
            core.on_control("confirm", "press")
    core.on_control("end_phase", "press")
    assert core.state.phase != "allied" and core.state.current_player == turn_of
    assert commander != turn_of


# --- RISK Strike -----------------------------------------------------------------------

STRIKE = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 5})


def test_strike_continents_light_in_their_coin_holders_colour(tmp_path):
    core = make_core(tmp_path, STRIKE)
    core.clock.now += 5  # type: ignore[attr-defined]
    lit = {p for t in LEDS.territories for p in territory_pixels(frame(core, 300.0), t)}
    assert lit == {(0, 0, 0)}  # every coin still in the pile: the map is dark
    bots_until(core, lambda s: any(s.coins.values()) and s.battle is None)
    core.clock.now += 5  # type: ignore[attr-defined]
    for continent, holder in core.state.coins.items():
        for t in BOARD.members[continent]:
            want = {(0, 0, 0)} if holder is None else \
                {tuple(round(c * 0.5) for c in PALETTE.rgb(holder))}
            assert set(territory_pixels(render(core.scene(), LEDS, PALETTE, 300.0), t)) == want


def test_strike_attack_is_declared_by_touching_two_continents_then_roll(tmp_path):
    core = make_core(tmp_path, STRIKE)
    bots_until(core, lambda s: s.phase == "choose" and s.window is None)
    me = core.state.current_player
    mine, target = next((a, d) for a in core.state.coins if core.state.cards_of(me, a)
                        for d in core.state.coins
                        if defenders_for(core.state, me, d) and DECK.may_attack(a, d))
    touch(core, sorted(BOARD.members[mine])[0])
    touch(core, sorted(BOARD.members[target])[1])
    selection = core.publisher.snapshot.selection
    assert selection.defender == defenders_for(core.state, me, target)[0]
    h = core.highlight()
    assert set(h.source_area) == set(BOARD.members[mine]) and h.mover == me
    core.on_control("roll", "press")
    battle = core.state.battle
    assert battle["attack_continent"] == mine and battle["defence_continent"] == target
    assert battle["defender"] == selection.defender


def test_the_table_closes_a_reaction_window_when_its_timer_runs_out(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, STRIKE, clock=clock)
    bots_until(core, lambda s: s.window is not None)
    window = core.state.window["id"]
    assert core.window.timer == (window, clock.now + 5)
    assert core.next_deadline() == clock.now + 5
    with pytest.raises(CommandRejected) as refused:
        core.submit({"type": "strike_close_window", "player": "table", "window": window},
                    Viewer("player", waiting_for(core.state)[0]))
    assert refused.value.code == "table_only"
    clock.now += 4.9
    core.tick()
    assert core.state.window is not None and core.state.window["id"] == window
    clock.now += 0.2
    core.tick()
    assert core.state.window is None or core.state.window["id"] != window
    entry = core.journal.load(core.session.game_id).entries[-1]
    assert entry.command == {"type": "strike_close_window", "player": "table",
                             "window": window}


def test_a_paused_table_holds_the_reaction_timer(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, STRIKE, clock=clock)
    bots_until(core, lambda s: s.window is not None)
    window = core.state.window["id"]
    core.host_action("pause", {})
    clock.now += 60
    core.tick()
    assert core.state.window["id"] == window
    core.host_action("resume", {})
    assert core.window.timer == (window, clock.now + 5)


def test_no_timer_runs_when_reaction_seconds_is_zero(tmp_path):
    core = make_core(tmp_path, NewGameSpec("strike", ("red", "blue", "green"),
                                           {"reaction_seconds": 0}))
    bots_until(core, lambda s: s.window is not None)
    assert core.window.timer is None and core.next_deadline() is None


def test_a_token_tap_passes_in_a_strike_window_for_that_player_only(tmp_path):
    core = make_core(tmp_path, STRIKE, NFC)
    bots_until(core, lambda s: s.window is not None and len(waiting_for(s)) > 1)
    first = waiting_for(core.state)[0]
    touch(core, "alaska", first)
    assert first not in waiting_for(core.state) or core.state.window is None
    assert core.journal.load(core.session.game_id).entries[-1].command == {
        "type": "strike_pass", "player": first}
    outsider = next((p for p in core.state.players if p not in waiting_for(core.state)), None)
    if core.state.window is not None and outsider is not None:
        seq = core.session.last_seq
        touch(core, "peru", outsider)
        assert core.session.last_seq == seq
        assert core.publisher.snapshot.refusal["code"] == "not_your_turn"


def service_over(core: TableCore) -> Any:
    """The web's TableService reading this core's published snapshots."""
    from types import SimpleNamespace

    from pi_app.table.service import LocalTableService

    return LocalTableService(SimpleNamespace(publisher=core.publisher,  # type: ignore[arg-type]
                                             wiring=core.wiring), leds=LEDS)


def test_a_strike_players_view_lists_their_commands_and_whom_the_game_awaits(tmp_path):
    core = make_core(tmp_path, STRIKE)
    service = service_over(core)
    me = waiting_for(core.state)[0]
    mine = service.view(Viewer("player", me))
    assert "strike_draw" in mine["available_commands"]
    assert mine["table"]["awaiting"] == [me] and mine["waiting_for"] == [me]
    other = next(p for p in core.state.players if p != me)
    assert "strike_draw" not in service.view(Viewer("player", other))["available_commands"]
    assert "available_commands" not in service.view(Viewer("spectator"))


def test_during_the_hq_pick_views_list_every_seat_still_to_pick(tmp_path):
    core = at_hq_pick(tmp_path)
    service = service_over(core)
    assert service.view(Viewer("spectator"))["table"]["awaiting"] == list(core.state.players)


# --- new games -------------------------------------------------------------------------

@pytest.mark.parametrize("variant,players,rules", [
    ("classic", ["red", "blue", "green"], {}),
    ("mission", ["red", "blue", "green", "yellow", "black", "pink"], {}),
    ("capital", ["red", "blue", "green"], {"capital_short_game": True}),
    ("two-player", ["red", "blue"], {}),
    ("allied", ["yellow", "pink"], {"allied_initial": "free"}),
    ("strike", ["red", "blue", "green", "yellow", "black"], {"reaction_seconds": 3}),
])
def test_the_host_starts_every_variant_and_its_opening_events_are_an_update(
        tmp_path, variant, players, rules):
    core = make_core(tmp_path, CAPITAL)
    core.host_action("new_game", {"variant": variant, "players": players,
                                  "house_rules": rules})
    assert core.state.variant == variant and list(core.state.players) == players
    service = service_over(core)
    public = [e for u in service.updates_since(-1, Viewer("spectator")) for e in u.events]
    kinds = [e["type"] for e in public]
    assert kinds[0] == "game_started" and "first_player_roll" in kinds
    if variant == "mission":
        mine = [e for u in service.updates_since(-1, Viewer("player", "red"))
                for e in u.events if e["type"] == "mission_dealt"]
        assert [e["player"] for e in mine] == ["red"]
        assert "mission_dealt" not in kinds
    if variant == "strike":
        drawn = [e for e in public if e["type"] == "tactics_drawn"]
        assert drawn and all("cards" not in e for e in drawn)


def test_a_new_game_with_a_bad_player_count_is_refused_and_keeps_the_old_game(tmp_path):
    core = make_core(tmp_path, CAPITAL)
    game = core.session.game_id
    with pytest.raises(CommandRejected) as refused:
        core.host_action("new_game", {"variant": "two-player",
                                      "players": ["red", "blue", "green"]})
    assert refused.value.status == 400
    with pytest.raises(CommandRejected):
        core.host_action("new_game", {"variant": "strike", "players": ["red", "blue"],
                                      "house_rules": {"reaction_seconds": -1}})
    assert core.session.game_id == game


def test_a_physical_dice_game_starts_with_the_typed_first_player_roll(tmp_path):
    core = make_core(tmp_path, CAPITAL)
    with pytest.raises(CommandRejected):
        core.host_action("new_game", {"variant": "two-player", "players": ["red", "blue"],
                                      "house_rules": {"physical_dice": True}})
    core.host_action("new_game", {"variant": "two-player", "players": ["red", "blue"],
                                  "house_rules": {"physical_dice": True}, "faces": [2, 5]})
    roll = next(e for _r, events in core.publisher.updates_since(-1) for e in events
                if e["type"] == "first_player_roll")
    assert roll["rolls"] == {"red": 2, "blue": 5} and core.state.first_player == "blue"


def test_secret_missions_never_reach_the_lights(tmp_path):
    core = make_core(tmp_path, NewGameSpec("mission", ("red", "blue", "green")))
    bots_until(core, lambda s: s.phase == "attack")
    missions = core.state.missions
    before = [frame(core, 100.0 + k / 7) for k in range(30)]
    red, blue = missions["red"], missions["blue"]
    missions["red"], missions["blue"] = blue, red  # a different deal of the secret cards
    assert red != blue
    assert [frame(core, 100.0 + k / 7) for k in range(30)] == before
