"""The map, deck, colours, missions and Strike data load, and broken data is a clear error."""

from __future__ import annotations

import copy
import json
from importlib import resources

import pytest

from pi_app.rules.board import (
    BoardDataError,
    load_cards,
    load_map,
    load_missions,
    load_roster,
    load_strike,
    validate_cards,
    validate_map,
    validate_missions,
    validate_roster,
    validate_strike,
)


def raw(name: str) -> dict:
    return json.loads(resources.files("pi_app.data").joinpath(name).read_text("utf-8"))


def test_classic_map_has_42_territories_in_6_continents_with_rulebook_bonuses():
    board = load_map()
    assert len(board.territories) == 42
    assert dict(board.bonuses) == {"north-america": 5, "south-america": 2, "europe": 5,
                                   "africa": 3, "asia": 7, "australia": 2}
    sizes = {c: len(board.members[c]) for c in board.continents}
    assert sizes == {"north-america": 9, "south-america": 4, "europe": 7, "africa": 6,
                     "asia": 12, "australia": 4}


def test_map_has_83_edges_14_between_continents_including_sea_lanes():
    board = load_map()
    edges = {frozenset((a, b)) for a in board.territories for b in board.adjacency[a]}
    assert len(edges) == 83
    crossing = [e for e in edges if len({board.continent_of[t] for t in e}) == 2]
    assert len(crossing) == 14
    for a, b in [("alaska", "kamchatka"), ("greenland", "iceland"), ("brazil", "north-africa"),
                 ("east-africa", "middle-east"), ("siam", "indonesia"),
                 ("southern-europe", "egypt")]:
        assert board.are_adjacent(a, b) and board.are_adjacent(b, a)


def test_greenland_neighbours_as_the_seed_lists_them():
    # 003_…: Greenland can be attacked from Iceland, Quebec, Ontario and Northwest Territory.
    assert load_map().adjacency["greenland"] == {"iceland", "quebec", "ontario",
                                                 "northwest-territory"}


def test_deck_has_14_of_each_symbol_and_2_wilds():
    deck = load_cards()
    symbols = list(deck.symbols.values())
    assert len(deck.all_cards) == 44
    for symbol in ("infantry", "cavalry", "artillery"):
        assert symbols.count(symbol) == 14
    assert symbols.count("wild") == 2


def test_trade_values_follow_the_table_wide_sequence():
    deck = load_cards()
    assert [deck.trade_value(n) for n in range(10)] == [4, 6, 8, 10, 12, 15, 20, 25, 30, 35]


def test_roster_has_six_colours_and_starting_armies():
    roster = load_roster()
    assert roster.colours == ("red", "blue", "green", "yellow", "black", "pink")
    assert dict(roster.starting_armies) == {3: 35, 4: 30, 5: 25, 6: 20}


def test_mission_decks_us12_and_euro14():
    data = load_missions()
    assert len(data["decks"]["us12"]["cards"]) == 12
    assert len(data["decks"]["euro14"]["cards"]) == 14
    destroy = [c for c in data["decks"]["us12"]["cards"] if c["kind"] == "destroy"]
    assert sorted(c["colour"] for c in destroy) == sorted(load_roster().colours)


def test_strike_deck_counts_and_assumed_markers():
    data = load_strike()
    assert sum(c["cards"] for c in data["continents"]) == 42
    assert sum(t["count"] for t in data["tactics"]) == 40
    by_id = {t["id"]: t for t in data["tactics"]}
    assert by_id["troops"]["count"] == 18 and not by_id["troops"]["assumed"]
    assert by_id["rally"]["assumed"]


# --- broken data is a clear error naming the problem --------------------------------------
def broken_map(change) -> dict:
    data = copy.deepcopy(raw("map.json"))
    change(data)
    return data


def test_asymmetric_adjacency_is_named():
    data = broken_map(lambda d: d["adjacency"]["japan"].remove("kamchatka"))
    with pytest.raises(BoardDataError, match=r"not symmetric.*kamchatka.*japan"):
        validate_map(data)


def test_disconnected_map_is_named():
    def cut_australia(d):
        d["adjacency"]["siam"].remove("indonesia")
        d["adjacency"]["indonesia"].remove("siam")
    with pytest.raises(BoardDataError, match=r"not one connected graph.*indonesia"):
        validate_map(broken_map(cut_australia))


def test_territory_in_two_continents_is_named():
    data = broken_map(lambda d: d["continents"][1]["territories"].append("alaska"))
    with pytest.raises(BoardDataError, match="'alaska' is in two continents"):
        validate_map(data)


def test_territory_in_no_continent_is_named():
    data = broken_map(lambda d: d["continents"][5]["territories"].remove("japan")
                      if "japan" in d["continents"][5]["territories"]
                      else d["continents"][4]["territories"].remove("japan"))
    with pytest.raises(BoardDataError, match="'japan' is in no continent"):
        validate_map(data)


def test_wrong_territory_count_is_named():
    def drop(d):
        d["territories"] = d["territories"][:-1]
    with pytest.raises(BoardDataError, match="expected 42 territories, found 41"):
        validate_map(broken_map(drop))


def test_unknown_neighbour_is_named():
    data = broken_map(lambda d: d["adjacency"]["japan"].append("atlantis"))
    with pytest.raises(BoardDataError, match="unknown territory 'atlantis'"):
        validate_map(data)


def test_wrong_symbol_count_is_named():
    data = copy.deepcopy(raw("cards.json"))
    data["territory_cards"]["alaska"] = "cavalry"
    with pytest.raises(BoardDataError, match=r"expected 14 (infantry|cavalry) cards, found 1[35]"):
        validate_cards(data, load_map())


def test_missing_wild_is_named():
    data = copy.deepcopy(raw("cards.json"))
    data["wilds"] = ["wild-1"]
    with pytest.raises(BoardDataError, match="expected 2 distinct wild cards"):
        validate_cards(data, load_map())


def test_a_wild_card_listed_twice_is_named():
    """Two wilds that are one card (the same id twice) are not the deck's two wild cards."""
    data = copy.deepcopy(raw("cards.json"))
    data["wilds"] = [data["wilds"][0], data["wilds"][0]]
    with pytest.raises(BoardDataError, match="expected 2 distinct wild cards"):
        validate_cards(data, load_map())


def broken(name, change):
    data = copy.deepcopy(raw(name))
    change(data)
    return data


def _set(path, value):
    """A change that sets data[path[0]][path[1]]... = value."""
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


@pytest.mark.parametrize("change,fragment", [
    (lambda d: d["adjacency"]["japan"].append(["kamchatka"]),
     r"map.json: adjacency of 'japan' must be strings, got \[\"kamchatka\"\]"),
    (lambda d: d["adjacency"]["japan"].append("mongolia"),
     "map.json: adjacency of 'japan' lists 'mongolia' twice"),
    (lambda d: d["continents"][0]["territories"].append({"id": "x"}),
     "map.json: continent .* territories must be strings"),
    (lambda d: d["continents"][0].update(bonus=True),
     "map.json continent .*: 'bonus' must be an integer, got true"),
    (lambda d: d["continents"][0].update(bonus="5"),
     "'bonus' must be an integer, got \"5\""),
    (lambda d: d["territories"][0].update(continent=["north-america"]),
     "'continent' must be a string"),
])
def test_broken_map_values_are_named(change, fragment):
    with pytest.raises(BoardDataError, match=fragment):
        validate_map(broken("map.json", change))


@pytest.mark.parametrize("change,fragment", [
    (_set(["territory_cards", "alaska"], ["infantry"]),
     "cards.json: card 'alaska' symbol must be a string"),
    (_set(["trade_values", 0], True), "'trade_values' must be positive integers"),
    (_set(["trade_increment_after"], -5), "'trade_increment_after' must be at least 0, got -5"),
    (_set(["trade_increment_after"], True), "'trade_increment_after' must be an integer"),
    (_set(["territory_bonus"], 2.5), "'territory_bonus' must be an integer, got 2.5"),
    (lambda d: d["symbols"].append(d["symbols"][0]), "'symbols' lists '.*' twice"),
    (_set(["wilds"], [1, 2]), "'wilds' must be string ids, got \\[1, 2\\]"),
])
def test_broken_card_values_are_named(change, fragment):
    with pytest.raises(BoardDataError, match=fragment):
        validate_cards(broken("cards.json", change), load_map())


@pytest.mark.parametrize("change,fragment", [
    (_set(["starting_armies", "three"], 35),
     "players.json: starting_armies keys are player counts .* got 'three'"),
    (_set(["starting_armies", "3"], True), "starting_armies: '3' must be an integer, got true"),
    (_set(["starting_armies", "3"], 0), "starting_armies: '3' must be at least 1"),
    (lambda d: d["colours"].append("red"), "'colours' lists 'red' twice"),
    (_set(["colour_names", "red"], 7), "colour_names 'red' must be a string"),
    (_set(["min_players"], False), "'min_players' must be an integer, got false"),
])
def test_broken_roster_values_are_named(change, fragment):
    with pytest.raises(BoardDataError, match=fragment):
        validate_roster(broken("players.json", change))


def test_broken_mission_and_strike_values_are_named():
    missions = broken("missions.json", lambda d: d["decks"]["us12"]["cards"].append(["x"]))
    with pytest.raises(BoardDataError, match=r"missions.json deck 'us12': a card must be"):
        validate_missions(missions)
    missions = broken("missions.json",
                      lambda d: d["decks"]["us12"]["cards"][0].update(continents=[["asia"]]))
    with pytest.raises(BoardDataError, match="continents must be strings"):
        validate_missions(missions)
    strike = broken("strike.json", lambda d: d["continents"][0].update(cards="9"))
    with pytest.raises(BoardDataError, match=r"strike.json continents: 'cards' must be an integer"):
        validate_strike(strike)
    strike = broken("strike.json", lambda d: d["tactics"][0].pop("count"))
    with pytest.raises(BoardDataError, match=r"strike.json tactics: missing key 'count'"):
        validate_strike(strike)
