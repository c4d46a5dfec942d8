"""Issue 13 in the table loop: refusals of the moment, the board's own undo in the log,
the limit blink, and the defender's colour on the turn LED."""

from __future__ import annotations

from pi_app.table.lights import LedMap, LimitBlink, render
from pi_app.table.loop import REFUSAL_S
from pi_app.table.palette import Palette
from pi_app.table_api import Viewer

from .test_loop import PROFILE, Clock, channel, make_core

LEDS = LedMap.from_profile(PROFILE)


def enemy_of_current(core) -> str:
    return next(t for t, o in core.state.owner.items() if o != core.state.current_player)


def test_a_refusal_clears_at_the_next_accepted_touch(tmp_path):
    core = make_core(tmp_path)
    core.on_sensor(channel(enemy_of_current(core)), "press", None)
    assert core.publisher.snapshot.refusal is not None
    mine = core.state.territories_of(core.state.current_player)[0]
    core.on_sensor(channel(mine), "press", None)
    assert core.session.last_seq == 1
    assert core.publisher.snapshot.refusal is None
    assert core.publisher.snapshot.table_dict()["refusal"] is None


def test_a_refusal_clears_by_itself_after_a_few_seconds(tmp_path):
    clock = Clock()
    core = make_core(tmp_path, clock=clock)
    core.on_sensor(channel(enemy_of_current(core)), "press", None)
    revision = core.publisher.snapshot.revision
    clock.now += REFUSAL_S / 2
    core.tick()
    assert core.publisher.snapshot.refusal is not None
    assert core.next_deadline() is not None and core.next_deadline() <= clock.now + REFUSAL_S
    clock.now += REFUSAL_S
    core.tick()
    assert core.publisher.snapshot.refusal is None
    assert core.publisher.snapshot.revision > revision, "the pages hear that it cleared"


def test_a_button_board_refusal_addresses_no_one(tmp_path):
    core = make_core(tmp_path)
    player = core.state.current_player
    core.on_control("roll", "press")  # setup: nothing to roll
    message = core.publisher.snapshot.refusal["message"]
    assert message.endswith(f"It is {player}'s turn.")
    assert " your " not in f" {message} " and "yours" not in message
    assert core.publisher.snapshot.refusal["player"] is None  # nobody knows whose finger


def test_an_undo_on_the_board_is_the_boards_and_only_the_undone_lines_go(tmp_path):
    core = make_core(tmp_path)
    for _ in range(300):  # the deal's setup placements, each by the seat on the move
        if core.state.phase == "reinforce":
            break
        player = core.state.current_player
        core.on_sensor(channel(core.state.territories_of(player)[-1]), "press", None)
    player = core.state.current_player
    assert core.state.phase == "reinforce" and core.state.reserves[player] >= 2
    placed = []
    for territory in core.state.territories_of(player)[:2]:
        core.submit({"type": "place", "player": player, "territory": territory},
                    Viewer("player", player))
        placed.append((player, territory))
    core.on_control("undo", "press")  # nothing selected: takes back the mover's own last
    events = [e for _rev, evs in core.publisher.updates_since(-1) for e in evs]
    assert events[-1]["type"] == "undone" and events[-1]["by"] == "board"
    kept = [(e["player"], e["territory"]) for e in events if e["type"] == "placed"]
    assert kept[-1] == placed[0] and placed[1] not in kept[-2:], \
        "the placement before the undo stays in the log, the undone one goes"


def test_the_host_undo_is_logged_as_the_hosts(tmp_path):
    core = make_core(tmp_path)
    core.on_sensor(channel(core.state.territories_of(core.state.current_player)[0]), "press",
                   None)
    core.host_action("undo", {})
    events = [e for _rev, evs in core.publisher.updates_since(-1) for e in evs]
    assert events[-1] == {"type": "undone", "seqs": [1], "by": "host"}


def test_a_count_at_its_limit_blinks_on_the_board(tmp_path):
    core = make_core(tmp_path)
    state = core.session.state
    player = state.current_player
    # a fortify with one army to spare: +1 is already at its limit
    state.phase, state.turn = "fortify", 1
    state.reserves = dict.fromkeys(state.reserves, 0)
    source = next(t for t in state.territories_of(player)
                  if any(state.owner[n] == player for n in _neighbours(t)))
    dest = next(n for n in _neighbours(source) if state.owner[n] == player)
    state.armies[source] = 2
    core.publish([], state_changed=True)  # publish the edited position
    core.on_sensor(channel(source), "press", None)
    core.on_sensor(channel(dest), "press", None)
    assert core.publisher.snapshot.table_dict()["count"]["value"] == 1
    core.on_sensor(channel(dest), "press", None)
    assert LimitBlink(dest, core.clock()) in core.scene().effects


def _neighbours(territory: str) -> set[str]:
    from pi_app.rules import load_map

    return set(load_map().neighbours[territory])


def test_during_a_defence_prompt_the_turn_led_shows_the_defender(tmp_path):
    core = make_core(tmp_path)
    state = core.session.state
    attacker = state.current_player
    state.phase, state.turn = "attack", 1
    state.reserves = dict.fromkeys(state.reserves, 0)
    source = next(t for t in state.territories_of(attacker)
                  if any(state.owner[n] != attacker for n in _neighbours(t)))
    target = next(n for n in _neighbours(source) if state.owner[n] != attacker)
    state.armies[source], state.armies[target] = 5, 3
    for territory in (source, target):
        core.on_sensor(channel(territory), "press", None)
    core.on_control("roll", "press")
    defender = state.owner[target]
    assert core.state.pending["player"] == defender
    frame = render(core.scene(), LEDS, Palette(), core.clock() + 10)
    turn_led = LEDS.status["turn"][0]
    assert frame[turn_led] == Palette().rgb(defender)
    core.on_control("roll", "press")  # the defender answers: the aim stays for the next roll
    assert core.state.pending is None
    assert core.publisher.snapshot.selection.target == target
    frame = render(core.scene(), LEDS, Palette(), core.clock() + 10)
    assert frame[turn_led] == Palette().rgb(attacker)
