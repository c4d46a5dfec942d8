"""RISK Strike at the table (issue 23.13), tested the way it was found: the real table loop
behind the web app, three phones at 360×640 in English, Korean and French, the table view
and /virtual. Each phone's screen says what its decision is about (the battle, the card
just played, the dice each side would roll), the dice stand above the buttons after a
roll, the last roll stays shown once its window closes, and the log and /virtual speak
Strike (no "undefined", no raw ids, no Classic controls or bonuses). Screenshots land in
test-artifacts/web/strike-*.png."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_app.rules.strike import load_strike_deck, waiting_for
from pi_app.table.loop import NewGameSpec
from pi_app.web.serve import start_background

from .browsing import shot

pytestmark = pytest.mark.browser
WAIT = 30_000  # ms: generous; these tests prove behaviour, latency is bench's job
PHONE = {"width": 360, "height": 640}
LANG_OF = {"red": "en", "blue": "ko", "green": "fr"}
LOCALE = {"en": "en-GB", "ko": "ko-KR", "fr": "fr-FR"}
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LOCALE}
DECK = load_strike_deck()
# 600 s: in these tests windows close by passes; the clock itself is tested below
SPEC = NewGameSpec("strike", ("red", "blue", "green"), {"reaction_seconds": 600})


def words(lang: str, key: str, **params) -> str:
    """A catalogue sentence with its {placeholders} filled, as RB.t fills them."""
    text = WORDS[lang].get(f"{key}.one") if params.get("n") == 1 else None
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text or WORDS[lang][key])


def colour(lang: str, player: str) -> str:
    return WORDS[lang][f"colour.{player}"]


def continent(lang: str, c: str) -> str:
    return WORDS[lang][f"continent.{c}"]


def held(state, player: str, c: str) -> int:
    return sum(1 for card in state.tables[player] if card.rsplit(".", 1)[0] == c)


def attack_ready(state) -> bool:
    """The current player chooses, may attack someone, and every player holds a card (so
    every step and window asks a phone)."""
    if state.phase != "choose" or not all(state.hands[p] for p in state.players):
        return False
    me = state.current_player
    return any(held(state, me, a) and held(state, d, c) and DECK.may_attack(a, c)
               for d in state.players if d != me for a in DECK.continents
               for c in DECK.continents)


@pytest.fixture
def strike_table(tables, chromium):
    """A real table at an attack-ready position, served, with a phone per seat (each in
    its own language and browser context) and the table view; yields a dict."""
    table = tables(SPEC, seed=b"\x05")
    table.bot_until(attack_ready)
    # every seat asked in every window it might answer (RULES §7, "Passing"): the position
    # seed 5 stages asks each phone in turn, whatever its hand holds
    for player in SPEC.players:
        table.play(player, {"type": "strike_choose_passing", "choice": "every"})
    server = start_background(table.app)
    contexts = []
    try:
        phones = {}
        for player, lang in LANG_OF.items():
            ctx = chromium[1].new_context(viewport=PHONE, locale=LOCALE[lang])
            contexts.append(ctx)
            page = ctx.new_page()
            page.goto(f"{server.url}/me#t={table.tokens[player]}")
            page.wait_for_selector("#private:not([hidden])")
            page.wait_for_function(f"() => document.documentElement.lang === '{lang}'")
            phones[player] = page
        view_ctx = chromium[1].new_context(viewport=PHONE, locale="en-GB")
        contexts.append(view_ctx)
        view = view_ctx.new_page()
        view.goto(f"{server.url}/")
        view.wait_for_selector("#conn.ok")
        yield {"table": table, "server": server, "phones": phones, "view": view,
               "context": view_ctx}
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()


def sentence_is(page, text: str) -> None:
    """Wait until the phone's state sentence reads `text` (the assertion names what it read)."""
    try:
        page.wait_for_function(
            "(t) => document.getElementById('state-sentence').textContent === t",
            arg=text, timeout=WAIT)
    except Exception:
        shown = page.locator("#state-sentence").inner_text()
        raise AssertionError(f"the phone says {shown!r}, not {text!r}") from None


def click(page, command: str) -> None:
    """Tap the command's button, or, for a card sharing the chooser with others (more
    buttons than fit a phone), choose the card and tap Play."""
    button = page.locator(f'#strike-actions button[data-command="{command}"]')
    chooser = page.locator(f'#strike-actions select[name=card] option[value="{command}"]')
    page.wait_for_function(
        "(c) => document.querySelector(`#strike-actions button[data-command=\"${c}\"]`)"
        " || document.querySelector(`#strike-actions select[name=card] option[value=\"${c}\"]`)",
        arg=command, timeout=WAIT)
    if button.count():
        button.first.click()
    else:
        assert chooser.count() == 1
        page.select_option("#strike-actions select[name=card]", command)
        page.click("#strike-actions [data-command=strike_play]")


def pass_window(phones, table) -> None:
    """Every phone the open window waits for taps Pass, until it closes."""
    state = table.state()
    window = state.window
    while window is not None:
        player = waiting_for(state)[0]
        phones[player].wait_for_selector('#strike-actions button[data-command="strike_pass"]',
                                         timeout=WAIT)
        click(phones[player], "strike_pass")
        for _ in range(1200):  # 60 s of 50 ms waits
            now = table.state()
            if now.window is None or player not in waiting_for(now):
                break
            phones[player].wait_for_timeout(50)
        state = table.state()
        window = state.window


def test_a_strike_battle_says_what_each_decision_is_about_on_every_phone(strike_table):
    table, phones, view = strike_table["table"], strike_table["phones"], strike_table["view"]
    state = table.state()
    me = state.current_player
    lang = LANG_OF[me]
    phone = phones[me]
    # the attack form: the dice each side would roll before troop cards
    phone.wait_for_selector('#strike-actions button[data-command="strike_declare_attack"]')
    form = phone.locator("#strike-actions")
    defender, attack, defence = (form.locator(f"select[name={n}]").input_value()
                                 for n in ("defender", "attack_continent", "defence_continent"))
    preview = form.locator("[data-dice-preview]").inner_text()
    assert preview == words(lang, "strike.dice_preview", a=min(3, held(state, me, attack)),
                            player=colour(lang, defender), d=min(2, held(state, defender, defence)))
    shot(phone, f"strike-attack-form-{lang}-360")
    click(phone, "strike_declare_attack")
    names = {"from": continent, "to": continent}

    def battle(lang_: str) -> dict[str, str]:
        return {"attacker": colour(lang_, me), "defender": colour(lang_, defender),
                "from": names["from"](lang_, attack), "to": names["to"](lang_, defence)}

    # the attacker is told whom and where they attack
    sentence_is(phone, words(lang, "strike.you_attack_deploy", **battle(lang)))
    click(phone, "strike_deploy")
    # the defender reads who attacks which of their continents, from where
    d_lang = LANG_OF[defender]
    sentence_is(phones[defender], words(d_lang, "strike.you_defend_deploy", **battle(d_lang)))
    shot(phones[defender], f"strike-defend-{d_lang}-360")
    phones[defender].select_option("#strike-actions select[name=count]", "0")
    click(phones[defender], "strike_deploy")
    # the third player's support window names the battle and offers one troop card
    third = next(p for p in state.players if p not in (me, defender))
    t_lang = LANG_OF[third]
    sentence_is(phones[third], words(t_lang, "strike.you_support", **battle(t_lang)))
    # staged by seed 5: the supporter holds two troop cards or more, so one is not "all"
    troops = sum(1 for card in table.state().hands[third] if card.startswith("troops."))
    assert troops >= 2, table.state().hands[third]
    count = phones[third].locator("#strike-actions select[name=count]")
    assert count.count() == 1, "the supporter is asked how many troop cards"
    assert count.locator("option").all_inner_texts() == [str(n) for n in range(1, troops + 1)]
    assert count.input_value() == "1", "supporting defaults to one troop card, not all"
    shot(phones[third], f"strike-support-{t_lang}-360")
    pass_window(phones, table)  # support
    pass_window(phones, table)  # deployed
    phone.wait_for_selector('#strike-actions button[data-command="strike_roll"]', timeout=WAIT)
    click(phone, "strike_roll")
    for _ in range(1200):  # 60 s of 50 ms waits
        rolled = table.state()
        if rolled.window is not None and rolled.window["kind"] == "rolled":
            break
        phone.wait_for_timeout(50)
    dice = rolled.battle["dice"]
    asked = waiting_for(rolled)[0]
    a_lang = LANG_OF[asked]
    page = phones[asked]
    sentence_is(page, words(a_lang, "strike.you_rolled", attacker=colour(a_lang, me),
                            defender=colour(a_lang, defender),
                            a=" ".join(map(str, dice["attacker"])),
                            d=" ".join(map(str, dice["defender"]))))
    # the dice stand above the buttons, on the first screen
    box = page.locator("#strike-dice").bounding_box()
    button = page.locator('#strike-actions button[data-command="strike_pass"]').bounding_box()
    assert box["y"] + box["height"] <= button["y"], "the dice are above Pass"
    assert box["y"] + box["height"] <= PHONE["height"], "the dice are on the first screen"
    assert page.locator("#strike-dice .die.attack").count() == len(dice["attacker"])
    shot(page, f"strike-rolled-{a_lang}-360")
    # a card played in the window: every other phone asked is told which card, by whom
    from pi_app.rules.strike import available_commands
    player = next((p for p in waiting_for(rolled)
                   if "strike_play_artillery" in available_commands(rolled, p)), None)
    assert player is not None, "seed 5 gives a phone an Artillery to play after the roll"
    if player is not None:
        target = phones[player].locator("#strike-actions select[name=target]").input_value()
        click(phones[player], "strike_play_artillery")
        for _ in range(1200):  # 60 s of 50 ms waits
            if len(table.state().window["plays"]) == 1:
                break
            phone.wait_for_timeout(50)
        for other in waiting_for(table.state()):
            o_lang = LANG_OF[other]
            played = words(o_lang, "strike.play_on", player=colour(o_lang, player),
                           card=WORDS[o_lang]["tactic.artillery"], target=colour(o_lang, target))
            # ... and in which battle (issue 23.13: the waited seat reads card and battle)
            fight = table.state().battle
            sentence_is(phones[other], words(
                o_lang, "strike.you_answer_battle", play=played,
                attacker=colour(o_lang, fight["attacker"]),
                defender=colour(o_lang, fight["defender"]),
                **{"from": continent(o_lang, fight["attack_continent"]),
                   "to": continent(o_lang, fight["defence_continent"])}))
            shot(phones[other], f"strike-answer-{o_lang}-360")
        if player not in waiting_for(table.state()):
            # the phone that played reads whose answer the window waits for, and to what
            p_lang = LANG_OF[player]
            mine = words(p_lang, "strike.play_on", player=colour(p_lang, player),
                         card=WORDS[p_lang]["tactic.artillery"], target=colour(p_lang, target))
            waited = ", ".join(colour(p_lang, p) for p in waiting_for(table.state()))
            sentence_is(phones[player], words(p_lang, "strike.waiting_answer", player=waited,
                                              play=mine))
            shot(phones[player], f"strike-waiting-answer-{p_lang}-360")
        # a Cancel Orders names the card it cancels in the log, never the play's number
        now = table.state()
        canceller = next((p for p in waiting_for(now)
                          if "strike_play_cancel_orders" in available_commands(now, p)), None)
        assert canceller is not None, "seed 5 gives another phone a Cancel Orders"
        if canceller is not None:
            click(phones[canceller], "strike_play_cancel_orders")
            line = words("en", "strike.play_cancel", player=colour("en", canceller),
                         card=WORDS["en"]["tactic.cancel-orders"],
                         target=colour("en", player), target_card=WORDS["en"]["tactic.artillery"])
            view.wait_for_selector(f'#log li:text-is("{line}")', timeout=WAIT)
            # in Korean too: the card and its player by name, never a play's or card's number
            korean = next(p for p, lang_ in LANG_OF.items() if lang_ == "ko")
            line = words("ko", "strike.play_cancel", player=colour("ko", canceller),
                         card=WORDS["ko"]["tactic.cancel-orders"], target=colour("ko", player),
                         target_card=WORDS["ko"]["tactic.artillery"])
            # the play's line, however it reads: then the whole log is read
            phones[korean].wait_for_function(
                "c => [...document.querySelectorAll('#log li')].some((li) =>"
                " li.textContent.includes(c))", arg=WORDS["ko"]["tactic.cancel-orders"],
                timeout=WAIT)
            lines = phones[korean].evaluate("[...document.querySelectorAll('#log li')]"
                                            ".filter((li) => !li.querySelector('li'))"
                                            ".map((li) => li.textContent)")
            log = "\n".join(lines)
            # ASCII word edges: a Korean particle follows an id directly ("red에게")
            assert not re.search(r"\d\s*(에게|의)", log), log  # "3에게": a raw play id
            assert not re.search(r"\b[a-z]+(-[a-z]+)*\.\d+\b", log, re.ASCII), log  # "troops.8"
            assert not re.search(r"\b(red|blue|green)\b", log, re.ASCII), log  # a colour's id
            assert "undefined" not in log and "{" not in log, log
            assert line in lines, log
            # My view's map, in Korean, names each continent with its domination number
            labels = phones[korean].evaluate(
                "Array.from(document.querySelectorAll('.continent-label'))"
                ".map((n) => n.textContent)")
            assert sorted(labels) == sorted(f"{continent('ko', c)} ●{DECK.domination[c]}"
                                            for c in DECK.continents)
            phones[korean].locator("#log").scroll_into_view_if_needed()  # drawn once in sight
            shot(phones[korean], "strike-log-ko-360")
    pass_window(phones, table)  # rolled: the cards resolve, the dice are compared
    # the last roll stays on the table and on every phone once the window has closed
    faces = sorted(dice["attacker"], reverse=True)
    for page in [view, *phones.values()]:
        page.wait_for_function("() => document.querySelectorAll('#dice .die.attack').length > 0",
                               timeout=WAIT)
        shown = page.locator("#dice .die.attack").all_inner_texts()
        assert [int(f) for f in shown] == faces
    shot(view, "strike-table-after-roll-en-360")
    # the map names each continent with its domination number, not Classic's bonus
    labels = view.evaluate("Array.from(document.querySelectorAll('.continent-label'))"
                           ".map((n) => n.textContent)")
    assert sorted(labels) == sorted(f"{continent('en', c)} ●{DECK.domination[c]}"
                                    for c in DECK.continents)
    # the log tells the roll in words, with the players' names and no raw values
    log = view.locator("#log").inner_text()
    assert "undefined" not in log and "{" not in log
    assert f"{colour('en', me)} {', '.join(map(str, faces))} vs {colour('en', defender)}" in log



def test_the_virtual_board_and_the_host_page_speak_strike(tables, chromium):
    from .conftest import PIN
    table = tables(SPEC, seed=b"\x05")
    table.bot_until(lambda s: s.turn >= 3 and s.battle is None and s.window is None)
    server = start_background(table.app)
    ctx = chromium[1].new_context(viewport=PHONE, locale="en-GB")
    try:
        # /virtual: Strike's rolls in words, Strike's controls, the domination numbers
        virtual = ctx.new_page()
        virtual.goto(f"{server.url}/virtual")
        virtual.wait_for_selector("#conn.ok")
        virtual.wait_for_selector("#log li")
        log = virtual.locator("#log").inner_text()
        assert "undefined" not in log and "{" not in log, log
        assert re.search(r"(Red|Blue|Green) [\d, ]+ vs (Red|Blue|Green) [\d, ]+: ", log), log
        help_text = virtual.locator("#v-buttons + p").inner_text()
        assert help_text == WORDS["en"]["vboard.keys_strike"]
        assert virtual.locator("#v-state").inner_text().startswith(f"Turn {table.state().turn}:")
        labels = virtual.evaluate("Array.from(document.querySelectorAll('.continent-label'))"
                                  ".map((n) => n.textContent)")
        assert sorted(labels) == sorted(f"{continent('en', c)} ●{DECK.domination[c]}"
                                        for c in DECK.continents)
        shot(virtual, "strike-virtual-en-360")
        # the host page: a reload still shows the game being played, then who won
        host = ctx.new_page()
        host.goto(f"{server.url}/host")
        host.fill("#pin", PIN)
        host.click("#login-btn")
        host.wait_for_selector("#console:not([hidden])")
        host.reload()
        host.wait_for_selector("#console:not([hidden])")
        host.wait_for_selector("#game-now:not([hidden])", timeout=WAIT)
        assert host.locator("#game-now").inner_text() == words(
            "en", "host.game_now", variant=WORDS["en"]["variant.strike"],
            turn=table.state().turn, players="Red, Blue, Green")
        host.wait_for_function("() => document.getElementById('variant').value === 'strike'",
                               timeout=WAIT)
        shot(host, "strike-host-running-en-360")
        table.bot_until(lambda s: s.winner is not None, limit=20_000)
        winner = table.state().winner
        won = words("en", "host.game_won", variant=WORDS["en"]["variant.strike"],
                    player=colour("en", winner))
        # ... with the revealed seed after it (test_browser_game_over.py)
        host.wait_for_function("(t) => document.getElementById('game-now').textContent"
                               ".startsWith(t)", arg=won, timeout=WAIT)
        shot(host, "strike-host-won-en-360")
    finally:
        ctx.close()
        server.stop()


@pytest.mark.parametrize("lang", sorted(LOCALE))
def test_strike_log_counts_read_right_for_one(lang):
    """Issue 23.13: "1 troops", "1 cartes", "a Asia card": a count of one has its own words."""
    for key in ("slog.troops_deployed", "slog.sabotaged", "slog.troops_discarded",
                "slog.n_continent_cards", "slog.n_tactics_cards", "slog.tactics_drawn"):
        one = words(lang, key, n=1, player="X", side="Y", card="Z")
        assert "1" in one and one != words(lang, key, n=2, player="X", side="Y", card="Z")
    assert not re.search(r"\ba \{continent\}", WORDS["en"]["slog.continent_surrendered"])
