"""The phone's first screen holds the decision at hand (issue 32.4), at 360 px: a ticked card
does not stay ticked past a trade, "all here" places the rest of the armies on the territory
tapped last, a reload in the middle of an attack keeps the aim, "all but one" fortifies
with every army that may move, and after a roll its dice and losses stand beside the Attack
button. Screenshots under test-artifacts/web/first-screen-*.png."""

from __future__ import annotations

import pytest

from pi_app.rules import load_cards
from pi_app.table_api import Viewer

from .conftest import attack_needing_defence, bot_step, play_until
from .real_table import BOARD
from .test_browser_table import browser, served  # noqa: F401 (this module's own instances)

pytestmark = pytest.mark.browser
WILDS = load_cards().wilds
PHONE = {"width": 360, "height": 780}


def _placing(s) -> bool:
    me = s.current_player
    return (s.phase == "reinforce" and s.pending is None and s.reserves.get(me, 0) >= 3
            and len(s.hands[me]) < 5)


def _tap(phone, territory: str) -> None:
    """A tap on a tile, wherever the zoomed phone map shows it."""
    phone.locator(f'g.tile[data-id="{territory}"]').dispatch_event("click")


def test_a_trade_unticks_the_hand_and_all_here_places_the_rest(served, browser):  # noqa: F811
    table, app, server = served
    _pw, context = browser
    play_until(table, _placing)
    me = table.state.current_player
    own = table.state.territories_of(me)
    other = next(t for t in BOARD.territories if t not in own)
    table.state.hands[me] = [*WILDS, own[0], other]
    tokens = app.extensions["riskboard"].seats.tokens()
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(f"{server.url}/me#t={tokens[me]}")
    phone.wait_for_selector(f'#hand input[value="{other}"]:visible')
    phone.check(f'#hand input[value="{other}"]')
    # the set is traded on the board (its long Confirm): the card left ticked is unticked
    table.submit({"type": "trade_cards", "player": me, "cards": [*WILDS, own[0]]},
                 Viewer("player", me))
    phone.wait_for_function("() => document.querySelectorAll('#hand input').length === 1")
    assert phone.locator("#hand input:checked").count() == 0
    # one army on a tap, then "all here": the rest on that territory
    where = own[1]
    before = table.state.armies[where]
    _tap(phone, where)
    phone.wait_for_selector("#all-here-btn:visible")  # the army has landed
    assert table.state.armies[where] == before + 1
    left = table.state.reserves[me]
    button = phone.locator("#all-here-btn")
    button.wait_for()
    phone.wait_for_selector(f'#all-here-btn:has-text("All {left} on {BOARD.names[where]}")')
    box, sentence = button.bounding_box(), phone.locator("#state-sentence").bounding_box()
    assert box and sentence and box["y"] + box["height"] <= PHONE["height"], "on the first screen"
    phone.screenshot(path="test-artifacts/web/first-screen-all-here.png")
    button.click()
    phone.wait_for_selector("#all-here-btn", state="hidden")
    assert table.state.armies[where] == before + 1 + left
    assert table.state.reserves[me] == 0 and table.state.phase == "attack"
    phone.close()


def _aiming_phone(served, browser, armies: tuple[int, int] | None = None):  # noqa: F811
    """(phone, player, source, target): the player to move's phone at 360 px, aimed with two
    taps at an attack whose defender may choose one or two dice (`armies`: the source's and
    the target's, set first)."""
    table, app, server = served
    _pw, context = browser
    play_until(table, lambda s: attack_needing_defence(s) is not None)
    me = table.state.current_player
    source, target = attack_needing_defence(table.state)
    if armies:
        table.state.armies[source], table.state.armies[target] = armies
    tokens = app.extensions["riskboard"].seats.tokens()
    phone = context.new_page()
    phone.set_viewport_size(PHONE)
    phone.goto(f"{server.url}/me#t={tokens[me]}")
    phone.wait_for_selector("#private:not([hidden])")
    _tap(phone, source)
    _tap(phone, target)
    return phone, me, source, target


def test_a_reload_keeps_the_aim_and_all_but_one_fortifies(served, browser):  # noqa: F811
    table, _app, _server = served
    phone, me, source, target = _aiming_phone(served, browser)
    title = f"{BOARD.names[source]} → {BOARD.names[target]}"
    phone.wait_for_selector(f'#attack-title:has-text("{title}")')
    phone.reload()
    phone.wait_for_selector(f'#attack-title:has-text("{title}")')
    assert phone.locator("#attack-panel").is_visible()
    phone.screenshot(path="test-artifacts/web/first-screen-aim-after-reload.png")
    # fortify: every army but one from a territory of three or more to a neighbour of its own
    table.submit({"type": "end_attack", "player": me}, Viewer("player", me))
    state = table.state
    pairs = [(a, b) for a in state.territories_of(me) if state.armies[a] >= 3
             for b in BOARD.neighbours[a] if state.owner[b] == me]
    # the game is seeded: it always has such a pair; a change that loses it must fail here
    assert pairs, "no territory of three armies beside another of its own: pick another seed"
    source, target = pairs[0]
    most = state.armies[source] - 1
    phone.wait_for_selector('#banner[data-step="fortify"]')
    _tap(phone, source)
    _tap(phone, target)
    button = phone.locator("#all-but-one-btn")
    phone.wait_for_selector(f'#all-but-one-btn:has-text("All but one: {most}")')
    phone.screenshot(path="test-artifacts/web/first-screen-all-but-one.png")
    button.click()
    phone.wait_for_selector('#banner:not([data-step="fortify"])')  # a fortify ends the turn
    assert table.state.armies[source] == 1 and table.state.armies[target] >= most + 1
    phone.close()
    bot_step(table)


def test_after_a_roll_the_dice_and_losses_stand_beside_the_attack_button(served, browser):  # noqa: F811
    table, _app, _server = served
    # one roll cannot take a target of four (two defence dice take at most two armies)
    phone, me, _source, target = _aiming_phone(served, browser, armies=(6, 4))
    defender = table.state.owner[target]
    phone.wait_for_selector("#attack-panel:not([hidden])")
    phone.click("#attack-btn")
    phone.wait_for_function("() => document.querySelector('#banner').dataset.step !== 'attack'"
                            " || document.querySelector('#me-error').textContent")
    assert phone.locator("#me-error").text_content() == ""
    rolled = table.submit({"type": "choose_defence", "player": defender, "dice": 2},
                          Viewer("player", defender))
    battle = next(e for e in rolled.events if e["type"] == "battle")
    phone.wait_for_function(f"() => +document.body.dataset.seq >= {rolled.seq}")
    faces = [int(f) for f in phone.locator("#my-roll .die").all_text_contents()]
    assert faces == [*sorted(battle["attack_dice"], reverse=True),
                     *sorted(battle["defence_dice"], reverse=True)]
    losses = (f"{me.title()} lost {battle['attacker_losses']}, "
              f"{defender.title()} lost {battle['defender_losses']}")
    assert phone.locator("#my-roll .losses").text_content() == losses
    # on the first screen, right above the Attack button that rolls again
    phone.wait_for_selector("#attack-btn:visible")
    dice = phone.locator("#my-roll").bounding_box()
    attack = phone.locator("#attack-btn").bounding_box()
    assert dice and attack and attack["y"] + attack["height"] <= PHONE["height"], "first screen"
    below_the_dice = dice["y"] + dice["height"]  # the button comes after them, close by
    assert below_the_dice <= attack["y"] < below_the_dice + 80, (dice, attack)
    phone.screenshot(path="test-artifacts/web/first-screen-dice-beside-attack.png")
    # the roll belongs to its phase: the end of the attack takes it away
    table.submit({"type": "end_attack", "player": me}, Viewer("player", me))
    phone.wait_for_selector("#my-roll", state="hidden")
    phone.close()
    play_until(table, lambda s: s.current_player != me)
