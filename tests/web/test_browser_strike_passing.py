"""RISK Strike without the waiting (issue 32.5) on phones at 360 px: the seat's passing
choice on My view's first screen, sent to the table and shown to everyone; a reaction
window never shows more than 4 buttons (more cards than fit share one chooser); the attack
form starts on an opponent that can be attacked. The real table loop behind the web app;
positions laid out by hand on the live state. Screenshots: test-artifacts/web/strike-*."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from strike.builders import make_state

from pi_app.rules.strike import waiting_for
from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

from .browsing import shot

pytestmark = pytest.mark.browser
WAIT = 30_000  # ms: generous; these tests prove behaviour, latency is bench's job
PHONE = {"width": 360, "height": 640}
SPEC = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 600})
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
EN = json.loads((I18N / "en.json").read_text("utf-8"))


def lay_out(table, **given: Any) -> None:
    """Make the live game the position `make_state` builds from `given` (turn 1, red to
    choose), published as the table publishes every change."""
    position = make_state(["red", "blue", "green"], passing=None, **given)

    def edit(core: Any) -> None:
        for name in type(position).__slots__:
            setattr(core.state, name, getattr(position, name))
        core.publish([], state_changed=True)

    table.loop.call(edit)


def wait_state(table, done: Callable[[Any], bool], page) -> Any:
    for _ in range(1200):  # 60 s of 50 ms waits
        state = table.state()
        if done(state):
            return state
        page.wait_for_timeout(50)
    raise AssertionError("the table never got there")


@pytest.fixture
def served(tables, chromium):
    """A Strike table served, and `phone(player)` opening that seat's My view at 360×640."""
    table = tables(SPEC, seed=b"\x05")
    server = start_background(table.app)
    contexts = []

    def phone(player: str, path: str = "/me"):
        ctx = chromium[1].new_context(viewport=PHONE, locale="en-GB")
        contexts.append(ctx)
        page = ctx.new_page()
        page.goto(f"{server.url}{path}#t={table.tokens[player]}")
        page.wait_for_selector("#private:not([hidden])" if path == "/me" else "#conn.ok")
        return page

    try:
        yield table, phone, server
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()


def test_the_passing_choice_is_on_the_first_screen_and_everyone_sees_it(served):
    table, phone, _server = served
    lay_out(table, tables={"red": ["asia"], "blue": ["asia"]},
            hands={"red": ["troops"], "blue": ["rally"]})
    page = phone("blue")
    choice = page.locator("#strike-passing select[name=passing]")
    choice.wait_for(timeout=WAIT)
    assert choice.input_value() == "result", "a seat that never chose has the default"
    box = choice.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    assert choice.locator("option").all_inner_texts() == [
        EN["strike.passing_result"], EN["strike.passing_every"]]
    shot(page, "strike-passing-choice-en-360")
    choice.select_option("every")
    wait_state(table, lambda s: s.passing == {"blue": "every"}, page)
    # public: another seat's phone names blue among those asked every time
    red = phone("red")
    line = EN["strike.passing_every_list"].replace("{players}", EN["colour.blue"])
    red.wait_for_function("(t) => (document.getElementById('strike-passing-every') || {})"
                          ".textContent === t", arg=line, timeout=WAIT)
    page.wait_for_function("() => document.querySelector('#strike-passing select').value"
                           " === 'every'", timeout=WAIT)


def test_a_window_shows_at_most_four_buttons_at_360_px(served):
    """Red attacks and, after the roll, may play Rally, Bombard or Artillery (blue's troop
    is down), roll or stop when the window closes, or pass: six buttons before issue 32.5.
    The cards now share one chooser: four buttons, and a card is still played with it."""
    table, phone, _server = served
    lay_out(table, tables={"red": ["asia"], "blue": ["asia"]},
            hands={"red": ["rally", "bombard", "artillery"], "blue": ["troops"]})
    table.play("red", {"type": "strike_choose_passing", "choice": "every"})
    page = phone("red")
    for command in ({"type": "strike_declare_attack", "defender": "blue",
                     "attack_continent": "asia", "defence_continent": "asia"},
                    {"type": "strike_deploy", "count": 0}):
        table.play("red", command)
    table.play("blue", {"type": "strike_deploy", "count": 1})
    table.play("red", {"type": "strike_roll"})  # in the window after deployment: its pass
    state = wait_state(table, lambda s: s.window is not None and s.window["kind"] == "rolled",
                       page)
    assert waiting_for(state) == ["red"]
    page.wait_for_selector("#strike-actions [data-command=strike_end_attack]", timeout=WAIT)
    buttons = page.locator("#strike-actions button:visible")
    assert buttons.count() <= 4, buttons.all_inner_texts()
    for button in buttons.all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    shot(page, "strike-window-buttons-en-360")
    cards = page.locator("#strike-actions select[name=card] option").all_inner_texts()
    assert cards == [EN["tactic.rally"], EN["tactic.bombard"], EN["tactic.artillery"]]
    page.select_option("#strike-actions select[name=card]", "strike_play_artillery")
    page.locator("#strike-actions select[name=target]:visible").select_option("blue")
    page.click("#strike-actions [data-command=strike_play]")
    state = wait_state(table, lambda s: s.window is not None and s.window["plays"], page)
    assert [(p["kind"], p["target"]) for p in state.window["plays"]] == [("artillery", "blue")]


def test_the_attack_form_starts_on_an_opponent_that_can_be_attacked(served):
    """Blue, next in seat order, holds only Europe, out of reach of red's Australia: the
    form started on blue, and Declare attack answered 'no such continent'."""
    table, phone, _server = served
    lay_out(table, tables={"red": ["australia"], "blue": ["europe"], "green": ["asia"]},
            hands={"red": ["troops"]})
    page = phone("red")
    page.wait_for_selector('#strike-actions button[data-command="strike_declare_attack"]',
                           timeout=WAIT)
    form = page.locator("#strike-actions")
    assert form.locator("select[name=defender] option").all_inner_texts() == [
        EN["colour.green"]]
    assert form.locator("select[name=defence_continent]").input_value() == "asia"
    shot(page, "strike-attack-form-reach-en-360")
    page.click('#strike-actions button[data-command="strike_declare_attack"]')
    state = wait_state(table, lambda s: s.battle is not None, page)
    assert (state.battle["defender"], state.battle["defence_continent"]) == ("green", "asia")
    assert page.locator("#me-error").inner_text() == ""
