"""Setup (docs/RULES.md §2.1–2.2): first player, claim and deal, one-at-a-time placement."""

from __future__ import annotations

import pytest

from pi_app.dice import RecordingSource, ReplaySource, SeededSource
from pi_app.rules import Claim, GameState, HouseRules, Place, RuleError, apply, new_game
from pi_app.rules.board import load_map
from pi_app.rules.state import CLAIM, REINFORCE, SETUP_PLACE

BOARD = load_map()


def shuffle_draws(length: int) -> list[list]:
    """The below() draws of a Fisher–Yates shuffle of `length` items, all choosing 0."""
    return [["u", i + 1, 0] for i in range(length - 1, 0, -1)]


def test_claim_first_player_by_dice_and_ties_reroll_among_the_tied():
    draws = [["d", [5, 5, 2]], ["d", [3, 6]], *shuffle_draws(44)]
    rng = ReplaySource(draws)
    outcome = new_game("classic", ["red", "blue", "green"], HouseRules(), rng)
    assert rng.exhausted  # every setup draw came from the rng, nothing else
    state = outcome.state
    assert state.phase == CLAIM
    assert state.first_player == state.current_player == "blue"
    rolls = [e.to_dict()["rolls"] for e in outcome.events if e.type == "first_player_roll"]
    assert rolls == [{"red": 5, "blue": 5, "green": 2}, {"red": 3, "blue": 6}]
    assert len(state.deck) == 44


@pytest.mark.parametrize(("players", "armies"), [(3, 35), (4, 30), (5, 25), (6, 20)])
def test_starting_armies_by_player_count(players, armies):
    colours = ["red", "blue", "green", "yellow", "black", "pink"][:players]
    state = new_game("classic", colours, HouseRules(), SeededSource(1)).state
    assert set(state.reserves.values()) == {armies}


def claim_all(state, rng):
    while state.phase == CLAIM:
        territory = next(t for t, o in state.owner.items() if o is None)
        state = apply(state, Claim(state.current_player, territory), rng).state
    return state


def test_claims_go_to_the_left_one_army_each_until_all_42_are_claimed():
    rng = SeededSource(2)
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), rng).state
    first = state.current_player
    order = ["red", "blue", "green"]
    i = order.index(first)
    state = apply(state, Claim(first, "alaska"), rng).state
    assert state.owner["alaska"] == first and state.armies["alaska"] == 1
    assert state.current_player == order[(i + 1) % 3]
    state = claim_all(state, rng)
    assert state.phase == SETUP_PLACE
    assert sorted(state.territory_count(p) for p in order) == [14, 14, 14]
    assert all(state.reserves[p] == 35 - 14 for p in order)


def test_claiming_a_taken_territory_is_refused():
    rng = SeededSource(2)
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), rng).state
    first = state.current_player
    state = apply(state, Claim(first, "alaska"), rng).state
    before = state.to_dict()
    with pytest.raises(RuleError) as err:
        apply(state, Claim(state.current_player, "alaska"), rng)
    assert err.value.code == "territory_taken"
    assert state.to_dict() == before


def test_claim_out_of_turn_and_unknown_territory_are_refused():
    rng = SeededSource(2)
    state = new_game("classic", ["red", "blue", "green"], HouseRules(), rng).state
    other = next(p for p in state.players if p != state.current_player)
    with pytest.raises(RuleError) as err:
        apply(state, Claim(other, "alaska"), rng)
    assert err.value.code == "not_your_turn"
    with pytest.raises(RuleError) as err:
        apply(state, Claim(state.current_player, "atlantis"), rng)
    assert err.value.code == "unknown_territory"


def test_setup_placement_is_one_army_at_a_time_then_first_player_reinforces():
    rng = SeededSource(3)
    state = claim_all(new_game("classic", ["red", "blue", "green"], HouseRules(), rng).state,
                      rng)
    player = state.current_player
    own = state.territories_of(player)[0]
    with pytest.raises(RuleError) as err:
        apply(state, Place(player, own, 2), rng)
    assert err.value.code == "one_at_a_time"
    enemy = next(t for t, o in state.owner.items() if o != player)
    with pytest.raises(RuleError) as err:
        apply(state, Place(player, enemy, 1), rng)
    assert err.value.code == "not_your_territory"
    while state.phase == SETUP_PLACE:
        p = state.current_player
        state = apply(state, Place(p, state.territories_of(p)[0], 1), rng).state
    assert state.phase == REINFORCE and state.turn == 1
    assert state.current_player == state.first_player
    assert state.total_armies() == 3 * 35
    # 14 territories -> max(3, 14 // 3) = 4, plus any continent bonus held
    assert state.reserves[state.first_player] >= 4


def test_deal_gives_every_territory_one_army_and_two_players_an_extra_with_four():
    rng = RecordingSource(SeededSource(4))
    outcome = new_game("classic", ["red", "blue", "green", "yellow"],
                       HouseRules(setup="deal"), rng)
    state = outcome.state
    assert state.phase == SETUP_PLACE
    counts = sorted(state.territory_count(p) for p in state.players)
    assert counts == [10, 10, 11, 11]
    assert all(state.armies[t] == 1 for t in state.owner)
    assert all(state.reserves[p] == 30 - state.territory_count(p) for p in state.players)
    # the same draws replayed give the same deal, deck and first player
    again = new_game("classic", ["red", "blue", "green", "yellow"], HouseRules(setup="deal"),
                     ReplaySource(rng.draws)).state
    assert again.to_dict() == state.to_dict()


def test_deal_shuffles_the_territory_cards_and_deals_them_in_turn_order_from_the_first():
    """RULES §2.2 deal: the 42 territory cards are shuffled and dealt out, one army on each;
    then the deck is shuffled. The draws come as setup.py says (first-player dice, territory
    shuffle, deck shuffle), the shuffle is contract A's Fisher–Yates (pi_app/DICE.md), and
    the cards go round in turn order from the first player, so with 4 players the first two
    get the extra territory. The log shows the deal and the shuffle (events)."""
    players = ["red", "blue", "green", "yellow"]
    picks = [["u", i + 1, (7 * i) % (i + 1)] for i in range(41, 0, -1)]  # not the identity
    rng = ReplaySource([["d", [2, 6, 3, 1]], *picks, *shuffle_draws(44)])
    outcome = new_game("classic", players, HouseRules(setup="deal"), rng)
    assert rng.exhausted
    cards = list(BOARD.territories)
    for (_u, bound, j) in picks:  # contract A, written out apart from the code
        cards[bound - 1], cards[j] = cards[j], cards[bound - 1]
    turn_order = ["blue", "green", "yellow", "red"]  # blue rolled the 6
    state = outcome.state
    assert state.phase == SETUP_PLACE and state.current_player == "blue"
    assert {t: state.owner[t] for t in cards} == {
        t: turn_order[i % 4] for i, t in enumerate(cards)}
    assert [state.territory_count(p) for p in turn_order] == [11, 11, 10, 10]
    dealt = next(e.to_dict() for e in outcome.events if e.type == "territories_dealt")
    assert dealt["territories"] == {p: state.territories_of(p) for p in turn_order}
    shuffled = [e.to_dict() for e in outcome.events if e.type == "deck_shuffled"]
    assert shuffled == [{"type": "deck_shuffled", "cards": 44}]


def test_claim_shows_the_deck_shuffle_and_deals_nothing():
    """RULES §2.2 claim: nothing is dealt (the players claim); the deck is shuffled once
    after setup's dice, and the log says so."""
    rng = ReplaySource([["d", [4, 2, 1]], *shuffle_draws(44)])
    outcome = new_game("classic", ["red", "blue", "green"], HouseRules(setup="claim"), rng)
    assert rng.exhausted
    types = [e.type for e in outcome.events]
    assert "territories_dealt" not in types and types.count("deck_shuffled") == 1
    assert set(outcome.state.owner.values()) == {None}


@pytest.mark.parametrize("players", [["red", "blue"], ["red"] * 3,
                                     ["red", "blue", "green", "yellow", "black", "pink", "x"],
                                     ["red", "blue", "purple"]])
def test_bad_player_lists_are_refused(players):
    with pytest.raises(RuleError) as err:
        new_game("classic", players, HouseRules(), SeededSource(0))
    assert err.value.code == "bad_players"


def test_house_rules_come_typed_or_as_the_named_options_a_journal_keeps():
    """RULES: the choices of a table are named options (`house_rules.*`); the one entry
    point `new_game` (games.py) takes them typed or as the dict a journal keeps, and refuses
    anything else (`bad_house_rules`)."""
    players = ["red", "blue", "green"]
    dealt = new_game("classic", players, {"setup": "deal"}, SeededSource(1)).state
    assert dealt.house_rules.setup == "deal" and dealt.phase == SETUP_PLACE
    typed = new_game("classic", players, HouseRules(setup="deal"), SeededSource(1)).state
    assert typed.to_dict() == dealt.to_dict()
    with pytest.raises(RuleError) as err:
        new_game("classic", players, ["setup", "deal"], SeededSource(1))
    assert err.value.code == "bad_house_rules"


def test_strike_starts_its_own_engine_and_unknown_names_are_refused():
    strike = new_game("strike", ["red", "blue", "green"], None, SeededSource(0)).state
    assert strike.variant == "strike" and not isinstance(strike, GameState)
    with pytest.raises(RuleError) as err:  # the board game's house rules don't fit Strike
        new_game("strike", ["red", "blue", "green"], HouseRules(), SeededSource(0))
    assert err.value.code == "bad_house_rules"
    with pytest.raises(RuleError) as err:
        new_game("chess", ["red", "blue", "green"], HouseRules(), SeededSource(0))
    assert err.value.code == "unknown_variant"


def test_the_board_variant_registry_points_strike_to_its_own_engine():
    from pi_app.rules import get_variant

    with pytest.raises(RuleError) as err:
        get_variant("strike")
    assert err.value.code == "variant_not_available"


@pytest.mark.parametrize(("variant", "players", "rules", "expected"), [
    # docs/RULES.md §2.1/§2.2: 3 players start with 35 armies, claim by default; 4 with 30
    ("classic", ["red", "blue", "green"], HouseRules(), {"method": "claim",
                                                         "starting_armies": 35}),
    ("classic", ["red", "blue", "green", "yellow"], HouseRules(setup="deal"),
     {"method": "deal", "starting_armies": 30}),
    # §3: Secret Mission deals by default
    ("mission", ["red", "blue", "green"], HouseRules(), {"method": "deal",
                                                         "starting_armies": 35}),
    # §5: two players and neutral, 40 armies each, dealt; placing 2 own + 1 neutral
    ("two-player", ["red", "blue"], HouseRules(), {"method": "deal", "starting_armies": 40,
                                                   "neutral": "neutral",
                                                   "placement": [2, 1]}),
    # §6: the Allied Army game is claimed, 40 armies each, 2 Allied armies per territory
    ("allied", ["red", "blue"], HouseRules(), {"method": "claim", "starting_armies": 40,
                                               "allied": "allied", "allied_initial": "even"}),
])
def test_setup_started_tells_the_page_how_setup_runs_and_who_starts(variant, players, rules,
                                                                    expected):
    outcome = new_game(variant, players, rules, SeededSource(7))
    started = [e.to_dict() for e in outcome.events if e.type == "setup_started"]
    assert started == [{"type": "setup_started", **expected,
                        "first_player": outcome.state.first_player}]
    rolls = [e["rolls"] for e in outcome.events if e.type == "first_player_roll"]
    best = max(rolls[-1].values())
    assert [p for p, face in rolls[-1].items() if face == best] == [
        outcome.state.first_player]
