"""The table's sentences as players read them (issue 32.6): what `pi_app.table.awaiting`
composes, worded in each language by the catalogue as the pages word it (`saying`)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pi_app.computer.seats import ComputerSeats
from pi_app.dice import SeededSource
from pi_app.rules import HouseRules, apply, command_from_dict, new_game
from pi_app.table.awaiting import Held, TableFacts, held_from
from pi_app.table.kinds import waits as awaiting

from .saying import value, words_of
from .test_browser_game_night import say

LANGS = ("en", "fr", "ko", "ja")


def attacking(current: str = "blue"):
    """A Classic game in `current`'s attack phase."""
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), SeededSource(5)).state
    state.phase, state.current_player = "attack", current
    return state


def line(lang: str, aw) -> str:
    """/virtual's state line: its heading (the seat `Awaiting.colour` names), then the line's
    parts, as virtual.js lays them out."""
    return " · ".join([value(lang, {"colour": aw.colour}),
                       *(str(value(lang, part)) for part in aw.line)])


def test_a_defence_is_headed_by_the_attack_and_names_the_defender_after_it():
    """"Red · attack · Red defends Kamchatka" read as if Red attacked: the line is headed by
    the turn's owner and its phase, then the attack and the seat that defends it."""
    state = attacking("blue")
    state.owner["kamchatka"], state.owner["alaska"] = "red", "blue"
    state.pending = {"kind": "defend", "player": "red", "from": "alaska", "to": "kamchatka",
                     "attacker": "blue", "max_dice": 2}
    aw = awaiting(state, TableFacts())
    assert aw.seats == ("red",) and aw.colour == "blue"
    assert line("en", aw) == ("Blue · attack · Blue attacks Kamchatka from Alaska: Red defends"
                              " — Roll, or touch Kamchatka first for one die fewer")
    assert line("ja", aw).startswith(
        "青 · 攻撃 · 青がアラスカからカムチャツカを攻撃：赤が防御します。")
    for lang in LANGS:
        said = line(lang, aw)
        red, blue = (value(lang, {"colour": p}) for p in ("red", "blue"))
        assert said.startswith(f"{blue} · "), (lang, said)
        assert red in said.split(" · ", 2)[2], (lang, said)


def held_placement(state) -> Held:
    mine = [t for t, o in state.owner.items() if o == "blue"][:1] or ["alaska"]
    state.owner[mine[0]] = "blue"
    moves = ({"type": "place", "player": "blue", "territory": mine[0], "count": 3},)
    return Held("blue", (mine[0],), 3, moves, ({"player": "blue", "territory": mine[0], "n": 3},),
                phase="reinforce")


def test_a_computers_held_placement_is_said_under_its_own_phase():
    """Blue (computer) placed, the game moved on to its attack, the board still copies the
    placement: the line and the banner say "reinforce", not "attack"."""
    state = attacking("blue")
    aw = awaiting(state, TableFacts(computers={"blue": "normal"}, held=held_placement(state)))
    assert aw.hand == "table"
    assert aw.line[0] == {"word": "phase", "of": "reinforce"}
    assert aw.banner[0]["params"]["phase"] == {"word": "phase", "of": "reinforce"}
    assert line("en", aw).startswith("Blue · reinforce · Blue (computer) placed 3")


def test_a_held_step_into_the_next_seats_turn_keeps_that_turns_phase_in_the_banner():
    state = attacking("blue")
    held = held_placement(state)
    state.current_player, state.phase = "green", "reinforce"
    held = Held("blue", held.territories, held.count, held.moves, held.placed, phase="attack")
    aw = awaiting(state, TableFacts(computers={"blue": "normal"}, held=held))
    assert aw.banner[0]["params"] == {"player": {"colour": "green"},
                                      "phase": {"word": "phase", "of": "reinforce"}}
    assert aw.line[0] == {"word": "phase", "of": "attack"}


@pytest.mark.parametrize(("stage", "types", "phase"), [
    ("reinforce", ("place",), "reinforce"), ("attack", ("attack", "fortify"), "attack"),
    ("attack", ("fortify",), "fortify"), ("claim", ("claim",), "claim"),
    ("turn", ("place", "attack"), None)])
def test_a_held_step_knows_the_phase_it_was_played_in(stage, types, phase):
    moves = [{"type": t, "player": "blue", "territory": "alaska"} for t in types]
    hold = SimpleNamespace(player="blue", territories=("alaska",), count=None, moves=moves,
                           stage=stage)
    held = held_from(hold, {}, None)
    assert held is not None and held.phase == phase


# the words that promised a blitz's end before it ran (issue 32.6 c)
FALLS = {"en": "until it falls", "fr": "jusqu'à la conquête", "ko": "함락할 때까지",
         "ja": "占領するまで"}


def test_a_computers_blitz_that_stops_early_is_never_said_to_go_until_the_target_falls():
    """A computer's blitz is announced before it runs; stopped at its limit (here after one
    roll), its announcement must not have promised the conquest."""
    state = attacking("blue")
    state.owner["alaska"], state.armies["alaska"] = "blue", 4
    state.owner["kamchatka"], state.armies["kamchatka"] = "red", 30
    command = {"type": "blitz", "player": "blue", "source": "alaska", "target": "kamchatka",
               "stop_at": 3}
    events = apply(state, command_from_dict(command), SeededSource(1)).events
    assert [e.type for e in events if e.type in ("blitz_stopped", "conquered")] == \
        ["blitz_stopped"]
    said = ComputerSeats().announcement(command)
    assert FALLS["en"] not in said["text"] and "blitzes Kamchatka" in said["text"]
    for lang in LANGS:
        words = say(lang, "log.computer.blitz", player=value(lang, {"colour": "blue"}),
                    to=value(lang, {"territory": "kamchatka"}),
                    **{"from": value(lang, {"territory": "alaska"})})
        assert FALLS[lang] not in words, (lang, words)


def test_two_of_ones_own_territories_tapped_out_of_turn_say_it_is_not_ones_turn():
    """Red taps Alaska and Kamchatka, both its own, in Blue's attack: not "Alaska cannot
    attack Kamchatka" but why: it is not Red's turn (a stable code, and its sentence)."""
    state = attacking("blue")
    aw = awaiting(state, TableFacts())
    no = aw.view("red", list(state.hands["red"]))["no_attack"]
    assert no["code"] == "not_your_turn"
    assert words_of("en", no["says"]) == ("Not your turn: the table waits for Blue. You attack"
                                          " only in your own attack phase.")
    assert words_of("ja", no["says"]) == (
        "あなたの番ではありません（青の番です）。攻撃できるのは自分の攻撃フェイズだけです。")
    # Blue may attack (two of its own tapped: the page's pair reason); the public has none
    assert aw.view("blue", list(state.hands["blue"]))["no_attack"] is None
    assert aw.view(None)["no_attack"] is None


def test_ones_own_turn_outside_the_attack_phase_says_the_phase():
    state = attacking("blue")
    state.phase, state.reserves["blue"] = "reinforce", 3
    no = awaiting(state, TableFacts()).view("blue", [])["no_attack"]
    assert no["code"] == "wrong_phase"
    assert words_of("en", no["says"]) == "You attack only in the attack phase; now: reinforce."
    state.phase, state.reserves["blue"] = "fortify", 0  # two own territories: a fortify
    assert awaiting(state, TableFacts()).view("blue", [])["no_attack"] is None
    paused = awaiting(state, TableFacts(paused=True)).view("red", [])["no_attack"]
    assert paused["code"] == "paused"
