"""Bad input to the bring-up core gets a stable refusal code and changes nothing; undo takes
back the last answer at every step; the colour order and the power budget are learned and
checked as their modules say."""

from __future__ import annotations

import copy

import pytest

from pi_app.bringup.colour_order import ORDERS, wire_order
from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.bringup.events import Answer, ControlPress, Press, Release, TagArrived, TagLeft
from pi_app.bringup.power import check_power
from tests.bringup.miswired import Maker, build_board

FACTS = facts_from_rules()


def started(nfc: bool = False) -> tuple[BringUp, Maker]:
    board = build_board(FACTS.territories, FACTS.colours, nfc=nfc)
    core = BringUp(FACTS, led_count=150, nfc=nfc)
    return core, Maker(board, core)


def refused(core: BringUp, event, code: str, now: float = 0.0) -> None:
    before = copy.deepcopy(core.draft)
    outcome = core.handle(event, now)
    assert (outcome.accepted, outcome.code) == (False, code)
    assert core.draft == before


def test_a_touch_on_a_mapped_channel_is_refused_when_mapping_a_new_territory():
    core, maker = started()
    maker.count_and_colours()
    core.handle(Press(7), 0)
    core.handle(Release(7), 0)
    assert core.draft.sensors[FACTS.territories[0]] == (7, "button")
    refused(core, Press(7), "channel_taken")
    assert core.sensor_target() == FACTS.territories[1]


def test_a_release_without_a_press_is_refused_at_every_step():
    core, maker = started()
    refused(core, Release(3), "release_without_press")
    maker.count_and_colours()
    refused(core, Release(3), "release_without_press")
    assert core.live == []


def test_a_tag_leaving_that_never_arrived_and_a_uid_already_enrolled_are_refused():
    core, maker = started(nfc=True)
    maker.count_and_colours()
    maker.sensors()
    maker.leds()
    maker.controls()
    assert core.draft.step == "tokens"
    refused(core, TagLeft(5, "04:99:00:00:00:00:01"), "tag_not_present")
    refused(core, TagArrived(5, "0499"), "bad_uid")
    assert core.handle(TagArrived(5, "04:01:00:00:00:00:01"), 0).accepted
    assert core.handle(TagLeft(5, "04:01:00:00:00:00:01"), 0).accepted
    refused(core, TagArrived(6, "04:01:00:00:00:00:01"), "uid_taken")
    assert core.draft.tokens == {FACTS.colours[0]: ["04010000000001"]}


def test_a_touch_on_an_unmapped_channel_and_a_gpio_used_twice_are_refused():
    core, maker = started()
    maker.count_and_colours()
    maker.sensors()
    refused(core, Press(41 + 5), "unknown_channel")
    maker.leds()
    assert core.handle(ControlPress(24), 0).accepted
    refused(core, ControlPress(24), "gpio_taken")
    refused(core, ControlPress(40), "bad_gpio")


def test_answers_that_do_not_belong_to_the_step_are_refused():
    core, _maker = started()
    refused(core, Answer("count", 0), "bad_count")
    refused(core, Answer("colour", "R"), "bad_answer")
    refused(core, ControlPress(5), "not_now")
    refused(core, Answer("undo"), "nothing_to_undo")
    core.handle(Answer("confirm"), 0)
    refused(core, Answer("colour", "X"), "bad_answer")
    core.handle(Answer("colour", "G"), 0)
    refused(core, Answer("colour", "G"), "colour_impossible")


def test_undo_takes_back_the_last_answer_at_every_step():
    core, maker = started(nfc=True)
    steps_undone = set()

    def undo_last() -> None:
        before = copy.deepcopy(core._undo[-1])
        assert core.handle(Answer("undo"), maker.now).accepted
        assert core.draft == before
        steps_undone.add(core.draft.step)

    maker.tap("count", 136)
    undo_last()
    assert core.draft.led_count == 150
    maker.count_and_colours()
    undo_last()
    maker.tap("colour", "R")
    maker.tap("pick", "peru")
    undo_last()
    maker.sensors()
    undo_last()  # the last territory's sensor
    assert core.draft.step == "sensors"
    last = FACTS.territories[-1]
    maker.press(last)
    maker.release(last)
    assert core.draft.step == "leds"
    maker.tap("skip")
    undo_last()
    maker.leds()
    undo_last()  # the last status group's "done": its run is open again
    assert core.draft.step == "leds" and core.draft.phone_run == ("status", "defence_dice", 2)
    maker.tap("done")
    maker.controls()
    undo_last()
    maker.controls()
    maker.tags()
    undo_last()
    assert core.draft.step == "markers"
    maker.tap("next")
    maker.check()
    undo_last()
    assert steps_undone >= {"led_count", "colour_order", "sensors", "leds", "controls",
                            "markers", "check"}


@pytest.mark.parametrize("chip", ORDERS)
def test_two_colours_seen_pin_the_chip_order_among_all_six(chip):
    assumed = "GRB"
    seen = {shown: chip[assumed.index(shown)] for shown in ("R", "G")}
    assert wire_order(assumed, seen) == chip


def test_the_power_budget_uses_the_output_stage_model():
    # full white: 3 channels x 20 mA, scaled by brightness (gamma keeps 255 at 255), plus
    # 1 mA idle per LED; budget = 4 A less the 15 % margin = 3400 mA
    check = check_power(135, 0.5, 4.0)
    assert check.budget_milliamps == pytest.approx(3400)
    assert check.milliamps == pytest.approx(135 + 135 * 60 * 0.5, rel=0.01)
    assert not check.fits
    assert check.max_brightness == pytest.approx((3400 - 135) / (135 * 60), abs=0.01)
    assert check_power(135, 0.3, 4.0).fits
    assert check_power(135, 1.0, None).fits


def test_the_live_view_shows_each_sensor_event_with_its_channel_and_territory():
    core, maker = started()
    maker.count_and_colours()
    core.handle(Press(9), 0)
    core.handle(Release(9), 0)
    core.handle(Press(30), 0)  # maps the next territory in map order
    live = core.view(0).live
    first, second = FACTS.territories[:2]
    assert live[0] == ("press", 9, None)  # logged before it was mapped
    assert live[1] == ("release", 9, first)
    assert live[2] == ("press", 30, None)
    assert core.draft.sensors[second] == (30, "button")


def test_the_phone_fallback_places_a_territory_run_one_more_one_less():
    core, maker = started()
    maker.count_and_colours()
    maker.sensors()
    first = maker.board.owners[0]
    size = len([o for o in maker.board.owners[:5] if o == first])
    maker.tap("pick", first)
    for _ in range(size):
        maker.tap("more")
    maker.tap("less")
    lit = [i for i, rgb in enumerate(core.view(0).frame) if rgb == (255, 255, 255)]
    assert lit == list(range(size))
    assert core.view(0).prompt.key == "bringup.leds.phone_territory"
    refused(core, Press(maker.board.channel_of[first]), "finish_phone_run")
    maker.tap("done")
    assert core.draft.territory_leds[first] == list(range(size))
    maker.tap("pick", first)
    refused(core, Answer("less"), "run_limit")
    refused(core, Answer("pick", "atlantis"), "bad_answer")  # a run is open already
    maker.tap("undo")
    refused(core, Answer("pick", "atlantis"), "unknown_territory")


def test_while_a_territory_is_held_the_phone_and_a_second_touch_wait():
    core, maker = started()
    maker.count_and_colours()
    maker.sensors()
    held, other = FACTS.territories[:2]
    maker.press(held)
    refused(core, Answer("skip"), "holding")
    refused(core, Press(maker.board.channel_of[other]), "already_holding")
    assert core.view(0).prompt.key == "bringup.leds.holding"


def test_a_chain_placed_with_a_territory_left_dark_waits_for_undo():
    facts = facts_from_rules()
    core = BringUp(facts, led_count=42)
    maker = Maker(build_board(facts.territories, facts.colours, nfc=False), core)
    maker.tap("confirm")
    maker.tap("colour", "R")
    maker.tap("colour", "G")
    maker.sensors()
    for territory in facts.territories[:-1]:
        maker.tap("pick", territory)
        maker.tap("done")
    maker.tap("skip")  # the last LED left out: the last territory has none
    view = core.view(0)
    assert (view.step, view.prompt.key) == ("leds", "bringup.leds.missing")
    assert view.prompt.params["territories"] == [facts.territories[-1]]
    maker.tap("undo")
    maker.tap("pick", facts.territories[-1])
    maker.tap("done")
    assert core.draft.step == "controls"
