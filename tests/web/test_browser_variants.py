"""Browser tests per variant family on the real table service: a Capital HQ pick on a
phone, a RISK Strike turn on a phone, the two-player neutral placement and the Allied Army
commander's controls. Each phone is its own browser context (its own localStorage token)."""

from __future__ import annotations

import pytest

from pi_app.rules import legal_attacks_from
from pi_app.table_api import Viewer

from .browsing import DESKTOP, PHONE, PIN, open_page, serving, shot, without_public_blocks
from .conftest import bot_step, play_until
from .real_table import BOARD, ServedTable

pytestmark = pytest.mark.browser
WAIT = 30_000  # ms: generous; these tests prove behaviour, latency is bench's job


def phone_for(chromium, server, token: str):
    """A new phone-sized context opened on /me with `token`; returns (context, page)."""
    context = chromium[1].new_context(viewport=PHONE)
    return context, open_page(context, f"{server.url}/me#t={token}", "#private:not([hidden])")


def spectator(chromium, server):
    """A desktop-sized table view; returns (context, page)."""
    context = chromium[1].new_context(viewport=DESKTOP)
    return context, open_page(context, f"{server.url}/")


def test_capital_hq_is_picked_by_tapping_on_the_phone_and_revealed_together(
        chromium, tmp_path, served_table):
    table = served_table(variant="capital")
    play_until(table, lambda s: s.phase == "hq_pick")
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(list(table.state.players))
        ctx, red = phone_for(chromium, server, tokens["red"])
        vctx, view = spectator(chromium, server)
        red.wait_for_selector("#banner[data-phase=hq_pick]")
        assert "not picked yet" in red.locator("#my-hq").inner_text()
        first, second = table.state.territories_of("red")[:2]
        red.locator(f'g.tile[data-id="{first}"]').click()
        red.wait_for_selector(f'#my-hq:has-text("{BOARD.names[first]}")', timeout=WAIT)
        view.wait_for_selector('#variant-info:has-text("Picked: Red")', timeout=WAIT)
        # re-pick until everyone has picked
        red.locator(f'g.tile[data-id="{second}"]').click()
        red.wait_for_selector(f'#my-hq:has-text("{BOARD.names[second]}")', timeout=WAIT)
        assert table.state.hq["red"] == second
        foreign = next(t for t, o in table.state.owner.items() if o != "red")
        red.locator(f'g.tile[data-id="{foreign}"]').click()
        red.wait_for_selector('#me-error:has-text("your own territories")')
        # before the reveal nobody else learns where: no marker, no HQ list, no territory
        assert view.locator("g.tile[data-hq]").count() == 0
        assert BOARD.names[second] not in view.locator("#variant-info").inner_text()
        shot(red, "capital-hq-pick-360")
        for player in ("blue", "green"):
            territory = table.state.territories_of(player)[0]
            table.submit({"type": "pick_hq", "player": player, "territory": territory},
                         Viewer("player", player))
        view.wait_for_selector(f'g.tile[data-id="{second}"][data-hq="red"]', timeout=WAIT)
        view.wait_for_selector('[data-hq-of="red"]')
        red.wait_for_selector(f'g.tile[data-id="{second}"][data-hq="red"]', timeout=WAIT)
        assert view.locator("g.tile[data-hq]").count() == 3
        assert "HQ" in view.locator("#players").inner_text()
        # red's phone shows the HQ card red holds (its own HQ's), apart from the hand, and the
        # log says the HQ cards left the deck
        red.wait_for_selector(f'#my-hq-cards:has-text("{BOARD.names[second]}")', timeout=WAIT)
        assert red.locator(f'#hand:has-text("{BOARD.names[second]}")').count() == 0
        view.wait_for_selector('#log:has-text("The HQ cards are set apart for good")', timeout=WAIT)
        shot(view, "capital-revealed-1280")
        ctx.close()
        vctx.close()


def plant_spy(table: ServedTable, player: str) -> None:
    """Swap a Spy card into `player`'s hand (from wherever it is) for one of theirs."""
    state = table.state
    if any(c.startswith("spy.") for c in state.hands[player]):
        return
    spy = next(c for c in state.tactics_deck if c.startswith("spy."))
    given = state.hands[player][0]
    state.tactics_deck[state.tactics_deck.index(spy)] = given
    state.hands[player][0] = spy


def _click_when_listed(page, command: str) -> None:
    page.locator(f'#strike-actions button[data-command="{command}"]').first.click()


def test_a_risk_strike_turn_on_the_phone(chromium, tmp_path, served_table):
    table = served_table(players=("red", "blue"), variant="strike")
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue"])
        me = table.state.current_player
        other = "blue" if me == "red" else "red"
        plant_spy(table, me)
        # the opponent asked in every window it might answer (RULES §7, "Passing"), so the
        # Spy's window asks it whatever its hand holds
        table.submit({"type": "strike_choose_passing", "player": other, "choice": "every"},
                     Viewer("player", other))
        ctx, phone = phone_for(chromium, server, tokens[me])
        octx, opponent = phone_for(chromium, server, tokens[other])
        vctx, view = spectator(chromium, server)
        phone.wait_for_selector("#strike-actions button[data-draw='1-1']")
        assert phone.locator("#hand .tactic").count() == len(table.state.hands[me])
        assert opponent.locator("#strike-actions button").count() == 0, "nothing to do: no buttons"
        waiting = opponent.locator("#state-sentence").inner_text()
        assert waiting.startswith(f"Waiting for {me.title()}")
        # a Spy from the phone: the report shows on the spy's phone only
        phone.locator("#strike-actions select[name=target]").select_option(other)
        _click_when_listed(phone, "strike_play_spy")
        opponent.wait_for_selector("#strike-actions button[data-command=strike_pass]")
        _click_when_listed(opponent, "strike_pass")
        phone.wait_for_selector("#spy-report", timeout=WAIT)
        spied = table.state.hands[other]
        report = phone.locator("#spy-report").inner_text()
        assert f"Spy report on {other.title()}" in report
        assert opponent.locator("#spy-report").count() == 0
        assert view.locator("#spy-report").count() == 0
        assert all(f'data-card="{c}"' not in view.content() for c in spied)
        # Draw: one continent card and one tactics card
        before = len(table.state.tables[me])
        phone.click("#strike-actions button[data-draw='1-1']")
        view.wait_for_selector("#banner[data-phase=choose]", timeout=WAIT)
        assert len(table.state.tables[me]) == before + 1
        # Declare an attack with the form's first valid choice, if there is one
        phone.wait_for_selector("#strike-actions button[data-command=strike_pass_turn]")
        declare = phone.locator("#strike-actions button[data-command=strike_declare_attack]")
        theirs = phone.locator("#strike-actions select[name=defence_continent] option").count()
        assert theirs > 0 or declare.count() == 0, "a form is offered only with a target"
        if declare.count() == 0:  # nobody can be attacked: the phone offers no form
            _click_when_listed(phone, "strike_pass_turn")
            view.wait_for_selector(f'#banner:has-text("{other.title()}\'s turn")', timeout=WAIT)
            ctx.close(), octx.close(), vctx.close()
            return
        _click_when_listed(phone, "strike_declare_attack")
        view.wait_for_selector("#strike-battle", timeout=WAIT)
        assert table.state.battle["attacker"] == me
        # Deploy all my troops (the select defaults to all), then the defender deploys none
        _click_when_listed(phone, "strike_deploy")
        opponent.wait_for_selector("#strike-actions button[data-command=strike_deploy]")
        opponent.select_option("#strike-actions select[name=count]", "0")
        _click_when_listed(opponent, "strike_deploy")
        # a reaction window after deployment, if any: everyone passes from the phones
        roll = phone.locator("#strike-actions button[data-command=strike_roll]")
        for _ in range(600):  # 60 s of 100 ms waits: a window may take a while to open
            if roll.count():
                break
            for page in (phone, opponent):
                passing = page.locator("#strike-actions button[data-command=strike_pass]")
                if passing.count():
                    passing.click()
            phone.wait_for_timeout(100)
        # in the window after deployment the attacker's Roll is their pass (RULES §7): the
        # dice roll once the opponent has passed too
        roll.click()
        shown = view.locator("#dice .die.attack")
        for _ in range(600):
            if shown.count():
                break
            passing = opponent.locator("#strike-actions button[data-command=strike_pass]")
            if passing.count():
                passing.click()
            phone.wait_for_timeout(100)
        view.wait_for_selector("#dice .die.attack", timeout=WAIT)
        # Strike 3 (RULES §7): after a roll only a player who can change it is asked, so the
        # roll may have been compared at once, and may have ended the battle and the turn;
        # the table then shows that roll, the journal's last `battle` event
        # (the game's recent events as the table holds them: the planted Spy keeps the
        # journal from replaying)
        last = table.seq
        recent = table.loop.call(lambda core: core.journal_events(0, last))
        battles = [e for e in recent if e["type"] == "battle"]
        battle = table.state.battle
        if battle is not None and battle["dice"] is not None:
            rolled = battle["dice"]["attacker"]
        else:
            assert battles, "the roll was compared"
            rolled = battles[-1]["attack_dice"]
        assert view.locator("#dice .die.attack").count() == len(rolled)
        shot(phone, "strike-me-360")
        shot(view, "strike-table-1280")
        text = view.locator("#players").inner_text()
        assert all(p in text for p in ("Red", "Blue"))
        # no other hand on the spectator page or the opponent's phone
        for card in table.state.hands[me]:
            assert f'data-card="{card}"' not in view.content()
            assert f'data-card="{card}"' not in opponent.content()
        ctx.close(), octx.close(), vctx.close()


def test_two_player_setup_places_neutral_armies_from_the_phone(chromium, tmp_path, served_table):
    table = served_table(players=("red", "blue"), variant="two-player")
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue"])
        me = table.state.current_player
        ctx, phone = phone_for(chromium, server, tokens[me])
        vctx, view = spectator(chromium, server)
        neutral = table.state.territories_of("neutral")[0]
        before = table.state.armies[neutral]
        view.wait_for_selector('#players tr[data-player="neutral"]')
        assert "reserve" in view.locator('#players tr[data-player="neutral"]').inner_text()
        phone.locator(f'g.tile[data-id="{neutral}"]').click()
        view.wait_for_selector(f'g.tile[data-id="{neutral}"] .count:text("{before + 1}")',
                               timeout=WAIT)
        assert view.locator(f'g.tile[data-id="{neutral}"]').get_attribute("data-owner") == "neutral"
        fill = view.locator(f'g.tile[data-id="{neutral}"] rect.land').get_attribute("fill")
        assert fill == "#8a8a8a", "neutral has its own colour"
        shot(view, "two-player-setup-1280")
        ctx.close(), vctx.close()


def _allied_attack(state):
    if state.phase != "allied" or state.pending or state.variant_data["reserve"]:
        return None
    for source in state.territories_of("allied"):
        for target in legal_attacks_from(state, source):
            return source, target
    return None


def test_the_allied_commander_places_and_attacks_from_the_phone(chromium, tmp_path, served_table):
    table = served_table(players=("red", "blue"), variant="allied")
    play_until(table, lambda s: s.phase == "allied" and s.variant_data["reserve"] > 0)
    commander = table.state.current_player
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue"])
        ctx, phone = phone_for(chromium, server, tokens[commander])
        phone.wait_for_selector("#banner[data-phase=allied]")
        banner = phone.locator("#banner").inner_text()
        assert f"{commander.title()} commands the Allied Army" in banner
        assert phone.locator("#end-attack-btn").is_hidden(), "first the reserve, then attacks"
        reserve = table.state.variant_data["reserve"]
        allied = table.state.territories_of("allied")[0]
        mine = table.state.territories_of(commander)[0]
        phone.locator(f'g.tile[data-id="{mine}"]').click()
        phone.wait_for_selector('#me-error:has-text("Allied Army\'s reserve")')
        before = table.state.armies[allied]
        count = phone.locator(f'g.tile[data-id="{allied}"] .count')
        for k in range(1, reserve + 1):
            phone.locator(f'g.tile[data-id="{allied}"]').click()
            phone.wait_for_function("([el, n]) => el.textContent === n",
                                    arg=[count.element_handle(), str(before + k)], timeout=WAIT)
        assert table.state.variant_data["reserve"] == 0
        assert "to place" not in phone.locator("#banner").inner_text()
        phone.wait_for_selector("#end-attack-btn:not([hidden])")
        found = _allied_attack(table.state)
        # the Allied Army attacks only the seat whose turn it plays (docs/RULES.md 6): a pair
        # aimed at the commander's own territory opens no attack panel (the table's aims)
        own = next(((s, t) for s in table.state.territories_of("allied")
                    for t in BOARD.neighbours[s]
                    if table.state.owner[t] == commander and table.state.armies[s] >= 2), None)
        if own:
            phone.locator(f'g.tile[data-id="{own[0]}"]').click()
            phone.locator(f'g.tile[data-id="{own[1]}"]').click()
            assert phone.locator("#attack-panel").is_hidden(), own
        if found:
            source, target = found
            phone.locator(f'g.tile[data-id="{source}"]').click()
            phone.locator(f'g.tile[data-id="{target}"]').click()
            phone.wait_for_selector('#attack-title:has-text("Allied Army attack")')
            shot(phone, "allied-commander-360")
            phone.click("#blitz-btn")
            phone.wait_for_selector(f'#log li:has-text("attacked {BOARD.names[target]}")',
                                    timeout=WAIT)
            while table.state.pending:
                bot_step(table)
        if table.state.phase == "allied" and not table.state.pending:
            phone.click("#end-attack-btn")
            phone.wait_for_function(
                "() => document.querySelector('#banner').dataset.phase !== 'allied'",
                timeout=WAIT)
        ctx.close()


SIX = ("red", "blue", "green", "yellow", "black", "pink")


def test_secret_missions_six_colours_and_the_winners_reveal(chromium, tmp_path, served_table):
    table = served_table(players=SIX, variant="mission")
    play_until(table, lambda s: s.phase == "reinforce")
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(list(SIX))
        ctx, pink = phone_for(chromium, server, tokens["pink"])
        vctx, view = spectator(chromium, server)
        mine = table.state.missions["pink"]["text"]
        pink.wait_for_selector("#my-mission")
        assert mine in pink.locator("#my-mission").inner_text()
        others = {m["text"] for p, m in table.state.missions.items() if m["text"] != mine}
        assert not [t for t in others if t in without_public_blocks(pink.content())]
        table_html = without_public_blocks(view.content())
        assert not [m["text"] for m in table.state.missions.values() if m["text"] in table_html]
        fills = {p: view.locator(f'g.tile[data-owner="{p}"] rect.land').first.get_attribute("fill")
                 for p in SIX}
        assert len(set(fills.values())) == 6, f"six distinct colours: {fills}"
        shot(view, "mission-six-1280")
        shot(pink, "mission-me-360")
        play_until(table, lambda s: s.winner is not None, limit=5000)
        winner = table.state.winner
        view.wait_for_selector(f'[data-mission-of="{winner}"]', timeout=WAIT)
        assert table.state.missions[winner]["text"] in view.locator("#banner").inner_text()
        hidden = [m["text"] for p, m in table.state.missions.items()
                  if p != winner and m["text"] != table.state.missions[winner]["text"]]
        assert not [t for t in hidden if t in without_public_blocks(view.content())]
        shot(view, "mission-won-1280")
        ctx.close(), vctx.close()


def _neutral_attack(state):
    if state.phase != "attack" or state.pending:
        return None
    for source in state.territories_of(state.current_player):
        for target in legal_attacks_from(state, source):
            if state.owner[target] == "neutral" and state.armies[target] >= 2:
                return source, target
    return None


def test_the_other_seat_rolls_the_neutral_defence_on_its_phone(chromium, tmp_path, served_table):
    table = served_table(players=("red", "blue"), variant="two-player")
    play_until(table, lambda s: _neutral_attack(s) is not None)
    source, target = _neutral_attack(table.state)
    attacker = table.state.current_player
    other = "blue" if attacker == "red" else "red"
    with serving(table, tmp_path / "data") as (app, server):
        tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue"])
        ctx, phone = phone_for(chromium, server, tokens[other])
        table.submit({"type": "attack", "player": attacker, "source": source, "target": target,
                      "dice": 1}, Viewer("player", attacker))
        phone.wait_for_selector("#decision button:has-text('2 dice')", timeout=WAIT)
        question = phone.locator("#decision p").inner_text()
        assert f"Neutral's {BOARD.names[target]} is attacked by {attacker.title()}" in question
        shot(phone, "neutral-defence-360")
        phone.click("#decision button:has-text('2 dice')")
        phone.wait_for_selector(
            f'#log li:has-text("{attacker.title()} attacked {BOARD.names[target]}")', timeout=WAIT)
        ctx.close()


def test_the_host_form_follows_the_variant_and_names_each_bad_field(chromium, tmp_path,
                                                                    served_table):
    table = served_table()
    with serving(table, tmp_path / "data") as (_app, server):
        _pw, browser = chromium
        ctx = browser.new_context(viewport=PHONE)
        page = ctx.new_page()
        page.goto(f"{server.url}/host")
        page.fill("#pin", PIN)
        page.click("#login-btn")
        page.wait_for_selector("#console:not([hidden])")
        page.select_option("#variant", "strike")
        assert page.locator("[data-rule=reaction_seconds]").count() == 1
        assert page.locator("[data-rule=fortify]").count() == 0, "no map rules in Strike"
        page.fill("[data-rule=reaction_seconds]", "700")
        page.click("#new-game-btn")
        page.wait_for_selector(
            '[data-error="house_rules.reaction_seconds"]:has-text("from 0 to 600")')
        assert table.state.variant == "classic", "a refused form starts nothing"
        page.fill("[data-rule=reaction_seconds]", "30")
        page.click("#new-game-btn")
        page.wait_for_selector('#host-out:has-text("started")')  # the old game's seats are
        page.wait_for_selector("figure.seat >> nth=2")  # on the page until then
        assert table.state.variant == "strike"
        assert table.state.house_rules.reaction_seconds == 30
        page.select_option("#variant", "two-player")
        assert "exactly 2 players · 3 chosen" in page.locator("#player-hint").inner_text()
        page.click("#new-game-btn")
        page.wait_for_selector('#new-game-error:has-text("exactly 2 players")')
        page.select_option("#variant", "mission")
        page.select_option("[data-rule=mission_deck]", "euro14")
        shot(page, "host-variants-360")
        page.click("#new-game-btn")
        page.wait_for_selector('#host-out:has-text("started")')  # it showed the refusal before
        assert "{" not in page.locator("#host-said").inner_text(), "a sentence, not JSON"
        assert table.state.variant == "mission"
        assert table.state.house_rules.mission_deck == "euro14"
        ctx.close()
