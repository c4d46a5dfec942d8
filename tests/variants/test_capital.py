"""Capital RISK (docs/RULES.md §4, docs/MAP_AND_CARDS.md §4): secret HQs, HQ cards, HQ victories."""

from __future__ import annotations

import pytest
from rules.builders import dice, no_chance, position, refused

from pi_app.dice import SeededSource
from pi_app.redaction import redact
from pi_app.rules import (
    Attack,
    EndTurn,
    HouseRules,
    PickHQ,
    Place,
    TradeCards,
    apply,
    awaiting_players,
    legal_commands,
    new_game,
    selectable_territories,
    waiting_for,
)
from pi_app.rules.board import load_cards
from pi_app.rules.state import HQ_PICK, REINFORCE

from .playing import BOT, COLOURS, bot_game, events_of

HQS = ["alaska", "brazil", "egypt", "japan", "iceland", "siam"]


def at_hq_pick(players: int = 3):
    """A Capital game whose starting armies are all placed: the HQ pick is next."""
    rng = SeededSource(3)
    state = new_game("capital", COLOURS[:players], HouseRules(setup="deal"), rng).state
    while state.phase != HQ_PICK:
        apply(state, BOT.choose(state, waiting_for(state)), rng)
    return state


def capital_position(players: int, short: bool = False, **kw):
    """Capital in red's attack phase; player i's HQ is HQS[i] (revealed), owned by them."""
    colours = COLOURS[:players]
    territories = {HQS[i]: [colours[i], 3] for i in range(players)}
    territories.update(kw.pop("territories", {}))
    state = position(colours, territories, variant="capital",
                     house_rules=HouseRules(capital_short_game=short), **kw)
    state.hq = {colours[i]: HQS[i] for i in range(players)}
    state.hq_revealed = True
    state.variant_data = {"hq_holders": {c: c for c in colours}}
    state.deck = [c for c in state.deck if c not in state.hq.values()]  # the HQ cards
    return state


def reveal(state):
    """Every seat picks its first territory as HQ (the last pick reveals them all)."""
    outcome = None
    for colour in state.players:
        outcome = apply(state, PickHQ(colour, state.territories_of(colour)[0]), no_chance())
    return outcome


def take(state, source, target):
    """Red conquers `target` (1 army) from `source` (4 armies) with one winning roll."""
    state.owner[source], state.armies[source] = "red", 4
    state.armies[target] = 1
    return apply(state, Attack("red", source, target, 3), dice((6, 6, 6), (1,)))


def test_after_setup_every_seat_picks_a_headquarters():
    state = at_hq_pick()
    assert state.phase == HQ_PICK and state.hq == {} and not state.hq_revealed
    for colour in state.players:
        assert selectable_territories(state, colour) == state.territories_of(colour)
        assert {c.territory for c in legal_commands(state, colour)} == set(
            state.territories_of(colour))


def test_picks_come_from_any_seat_in_any_order_and_stay_secret_until_all_are_in():
    state = at_hq_pick()
    red, blue = state.players[:2]
    last = state.players[-1]
    outcome = apply(state, PickHQ(last, state.territories_of(last)[0]), no_chance())
    assert [e.type for e in outcome.events] == ["hq_chosen"]
    assert not state.hq_revealed and state.phase == HQ_PICK
    apply(state, PickHQ(red, state.territories_of(red)[0]), no_chance())
    assert waiting_for(state) == blue  # the first seat still to pick
    assert awaiting_players(state) == [blue]
    outcome = apply(state, PickHQ(blue, state.territories_of(blue)[0]), no_chance())
    assert state.hq_revealed and state.phase == REINFORCE
    revealed = [e.to_dict() for e in outcome.events if e.type == "hq_revealed"]
    assert revealed == [{"type": "hq_revealed", "hq": state.hq}]
    assert list(state.hq) == state.players
    assert state.variant_data["hq_holders"] == {p: p for p in state.players}
    assert state.current_player == state.first_player
    assert awaiting_players(state) == [state.first_player]


def test_a_pick_may_change_until_the_reveal():
    state = at_hq_pick()
    red = state.players[0]
    first, second = state.territories_of(red)[:2]
    apply(state, PickHQ(red, first), no_chance())
    outcome = apply(state, PickHQ(red, second), no_chance())
    assert state.hq[red] == second and outcome.events[0]["changed"] is True


def test_hq_must_be_your_own_territory_and_only_in_the_pick_phase():
    state = at_hq_pick()
    red, blue = state.players[:2]
    refused(state, PickHQ(red, state.territories_of(blue)[0]), "not_your_territory")
    refused(state, PickHQ(red, "atlantis"), "unknown_territory")
    refused(state, Place(red, state.territories_of(red)[0], 1), "wrong_phase")
    playing = capital_position(3)
    refused(playing, PickHQ("red", "alaska"), "wrong_phase")


def test_capturing_an_hq_hands_its_card_to_the_conqueror_and_does_not_eliminate():
    state = capital_position(3)
    outcome = take(state, "middle-east", "egypt")  # egypt is green's HQ
    captured = [e.to_dict() for e in outcome.events if e.type == "hq_captured"]
    assert captured == [{"type": "hq_captured", "player": "red", "hq_of": "green",
                         "territory": "egypt", "previous": "green"}]
    assert state.variant_data["hq_holders"] == {"red": "red", "blue": "blue", "green": "red"}
    assert "green" not in state.eliminated and state.winner is None


def test_hq_cards_never_enter_a_hand_so_never_a_set():
    state = capital_position(3)
    top = state.deck[-1]
    take(state, "middle-east", "egypt")
    apply(state, EndTurn("red"), no_chance())
    assert state.hands["red"] == [top]  # only the turn's RISK card; the HQ card lies apart
    assert state.variant_data["hq_holders"]["green"] == "red"


def test_the_reveal_takes_the_hq_cards_out_of_the_deck_the_discard_and_every_hand():
    state = at_hq_pick(4)
    picks = [state.territories_of(c)[0] for c in state.players]
    # put two of the HQ-to-be cards where the reveal must find them too
    state.deck.remove(picks[1])
    state.discard.append(picks[1])
    state.deck.remove(picks[2])
    state.hands[state.players[3]].append(picks[2])
    outcome = reveal(state)
    assert state.hq_revealed
    held = state.deck + state.discard + [c for hand in state.hands.values() for c in hand]
    assert not set(picks) & set(held)
    assert len(held) == 44 - 4 and len(state.deck) == 44 - 4
    apart = [e.to_dict() for e in outcome.events if e.type == "hq_cards_set_apart"]
    assert apart == [{"type": "hq_cards_set_apart", "cards": picks, "deck": 40}]


def test_nobody_ever_draws_an_hq_card_in_a_whole_game():
    state, history = bot_game("capital", 3, "cap-draws")
    hqs = set(state.hq.values())
    drawn = [e["card"] for e in events_of(history, "card_drawn")]
    assert len(drawn) > len(hqs) and not hqs & set(drawn)
    traded = [c for e in events_of(history, "cards_traded") for c in e["cards"]]
    assert traded and not hqs & set(traded)


def test_an_hq_card_in_a_set_is_refused_with_a_sentence():
    state = capital_position(3, phase=REINFORCE, hands={"red": ["kamchatka", "peru", "ural"]})
    refused(state, TradeCards("red", ("alaska", "kamchatka", "peru")), "hq_card_in_set")
    refused(state, TradeCards("red", ("kamchatka", "peru", "egypt")), "hq_card_in_set")


def test_a_phone_sees_its_hq_cards_apart_from_its_risk_cards():
    state = capital_position(3, hands={"red": ["kamchatka"]})
    take(state, "middle-east", "egypt")  # red now holds green's HQ card too
    view = redact(state, "red")
    assert view["my_hand"] == ["kamchatka"]
    assert view["my_hq_cards"] == ["alaska", "egypt"]
    assert redact(state, "green")["my_hq_cards"] == []
    assert "my_hq_cards" not in redact(state, None)
    assert view["deck_count"] == len(load_cards().all_cards) - 3 - 1


def test_full_game_needs_every_hq_including_your_own():
    state = capital_position(3, territories={"brazil": ["red", 3]})  # blue's HQ already red's
    state.variant_data["hq_holders"]["blue"] = "red"
    state.owner["alaska"] = "green"  # red's own HQ lost
    state.variant_data["hq_holders"]["red"] = "green"
    take(state, "middle-east", "egypt")
    assert state.winner is None  # all enemy HQs, but not its own
    outcome = take(state, "northwest-territory", "alaska")
    assert state.winner == "red"
    assert [e.type for e in outcome.events][-1] == "game_won"


@pytest.mark.parametrize(("players", "enemy_needed"), [(3, 2), (4, 2), (5, 3), (6, 3)])
def test_short_game_needs_own_hq_plus_the_table_number(players, enemy_needed):
    state = capital_position(players, short=True)
    sources = {"brazil": "north-africa", "egypt": "middle-east", "japan": "kamchatka",
               "iceland": "greenland", "siam": "india"}
    targets = HQS[1:players]
    for i, target in enumerate(targets[:enemy_needed]):
        assert state.winner is None
        take(state, sources[target], target)
        state.pending = None
        assert (state.winner == "red") == (i + 1 == enemy_needed)


def test_without_the_short_game_four_players_need_all_three_enemy_hqs():
    state = capital_position(4, short=False)
    take(state, "north-africa", "brazil")
    state.pending = None
    take(state, "middle-east", "egypt")
    state.pending = None
    assert state.winner is None
    take(state, "kamchatka", "japan")
    assert state.winner == "red"


@pytest.mark.parametrize(("players", "short"), [(3, False), (4, True), (6, False)])
def test_bots_play_capital_to_an_hq_victory(players, short):
    state, history = bot_game("capital", players, f"cap{players}",
                              HouseRules(capital_short_game=short))
    assert state.winner is not None
    holders = state.variant_data["hq_holders"]
    assert holders[state.winner] == state.winner
    needed = {4: 2, 5: 3, 6: 3}.get(players, players - 1) if short else players - 1
    enemy = [hq for hq, holder in holders.items() if holder == state.winner and hq != state.winner]
    assert len(enemy) >= needed or len(state.eliminated) == players - 1
    assert len(events_of(history, "hq_revealed")) == 1
    assert len(events_of(history, "hq_chosen")) >= players


@pytest.mark.parametrize(("players", "short", "needed"), [
    (3, False, 2), (3, True, 2),  # 3 players: the short game is the full game
    (4, False, 3), (4, True, 2),  # docs/MAP_AND_CARDS.md §4: 4 players, own + any 2
    (5, True, 3), (6, True, 3), (6, False, 5)])
def test_the_phones_read_how_many_enemy_hqs_win(players, short, needed):
    rng = SeededSource(5)
    state = new_game("capital", COLOURS[:players],
                     HouseRules(setup="deal", capital_short_game=short), rng).state
    while state.phase != HQ_PICK:
        apply(state, BOT.choose(state, waiting_for(state)), rng)
    assert state.variant_data["hq_needed"] == needed
    assert redact(state, None)["variant_data"]["hq_needed"] == needed  # public
