"""The host starts every variant with its own player counts and house rules, and a bad
request names each bad field in a sentence before the table sees it."""

from __future__ import annotations

import pytest

from .conftest import host

COLOURS = ["red", "blue", "green", "yellow", "black", "pink"]

# variant, players allowed (low, high), house rules of that variant that differ from defaults
CASES = [
    ("classic", (3, 6), {"setup": "deal", "fortify": "adjacent",
                         "territory_bonus_once_per_turn": False}),
    ("mission", (3, 6), {"mission_deck": "euro14", "setup": "claim"}),
    ("capital", (3, 6), {"capital_short_game": True, "defender_chooses_dice": False}),
    ("two-player", (2, 2), {"two_player_placement": [3, 2]}),
    ("allied", (2, 2), {"allied_initial": "free", "defender_chooses_dice": False}),
    ("strike", (2, 5), {"reaction_seconds": 45}),
]


@pytest.mark.parametrize(("variant", "counts", "rules"), CASES)
def test_every_variant_starts_with_its_player_counts_and_house_rules(
        client, table, variant, counts, rules):
    low, high = counts
    for n in (low, high):
        res = client.post("/api/host/new_game", headers=host(), json={
            "variant": variant, "players": COLOURS[:n], "house_rules": rules})
        assert res.status_code == 200, res.get_json()
        assert table.state.variant == variant and list(table.state.players) == COLOURS[:n]
        assert [s["player"] for s in res.get_json()["seats"]] == COLOURS[:n]
        chosen = table.state.house_rules.to_dict()
        assert {k: chosen[k] for k in rules} == rules
    for n in (low - 1, high + 1):
        if not 1 <= n <= 6:
            continue
        res = client.post("/api/host/new_game", headers=host(), json={
            "variant": variant, "players": COLOURS[:n]})
        error = res.get_json()["error"]
        assert res.status_code == 400 and error["code"] == "bad_players"
        assert f"{n} were chosen" in error["fields"]["players"] or "1 was" in error["message"]


def test_each_bad_field_gets_its_own_sentence(client, table):
    before = table.game_id
    res = client.post("/api/host/new_game", headers=host(), json={
        "variant": "mission", "players": ["red", "blue", "green"],
        "house_rules": {"mission_deck": "nordic", "fortify": "diagonal",
                        "physical_dice": "yes", "capital_short_game": True}})
    assert res.status_code == 400
    error = res.get_json()["error"]
    assert error["code"] == "bad_house_rules"
    fields = error["fields"]
    assert set(fields) == {"house_rules.mission_deck", "house_rules.fortify",
                           "house_rules.physical_dice", "house_rules.capital_short_game"}
    assert "us12, euro14" in fields["house_rules.mission_deck"]
    assert "connected, adjacent" in fields["house_rules.fortify"]
    assert "true or false" in fields["house_rules.physical_dice"]
    assert "not a house rule of Secret Mission RISK" in fields["house_rules.capital_short_game"]
    assert all(sentence in error["message"] for sentence in fields.values())
    assert table.game_id == before, "a refused new game changes nothing"


@pytest.mark.parametrize(("variant", "rules", "field", "words"), [
    ("strike", {"reaction_seconds": 601}, "house_rules.reaction_seconds", "0 to 600"),
    ("strike", {"reaction_seconds": True}, "house_rules.reaction_seconds", "whole number"),
    ("strike", {"fortify": "adjacent"}, "house_rules.fortify", "not a house rule"),
    ("two-player", {"two_player_placement": [0, 1]}, "house_rules.two_player_placement",
     "own from 1"),
    ("two-player", {"setup": "claim"}, "house_rules.setup", "not a house rule"),
    ("allied", {"allied_initial": "random"}, "house_rules.allied_initial", "even, free"),
])
def test_variant_specific_rules_are_checked(client, variant, rules, field, words):
    players = ["red", "blue"]
    res = client.post("/api/host/new_game", headers=host(), json={
        "variant": variant, "players": players, "house_rules": rules})
    assert res.status_code == 400
    assert words in res.get_json()["error"]["fields"][field]


def test_a_mixed_bad_request_names_variant_and_players_together(client):
    res = client.post("/api/host/new_game", headers=host(), json={
        "variant": "chess", "players": ["red", "purple"]})
    error = res.get_json()["error"]
    assert res.status_code == 400 and error["code"] == "bad_new_game"
    assert set(error["fields"]) == {"variant", "players"}


def test_the_variant_catalogue_drives_the_host_form(client):
    data = client.get("/api/variants").get_json()
    by_id = {v["id"]: v for v in data["variants"]}
    assert list(by_id) == [c[0] for c in CASES]
    for variant, (low, high), rules in CASES:
        assert (by_id[variant]["min_players"], by_id[variant]["max_players"]) == (low, high)
        assert set(rules) <= {f["name"] for f in by_id[variant]["house_rules"]}
    assert data["colours"] == COLOURS


def test_a_physical_dice_game_starts_from_the_typed_first_player_roll(client, table):
    body = {"variant": "classic", "players": ["red", "blue", "green"],
            "house_rules": {"physical_dice": True}}
    game = table.game_id
    # the request lacks the dice the table needs: 400, as every bad new-game request
    res = client.post("/api/host/new_game", headers=host(), json=body)
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "dice_needed"
    assert "tied" not in res.get_json()["error"]["message"], "nobody has rolled yet"
    res = client.post("/api/host/new_game", headers=host(), json={**body, "faces": [6, 6, 2]})
    assert res.status_code == 400 and res.get_json()["error"]["code"] == "dice_needed"
    assert res.get_json()["error"]["message"].startswith("red and blue tied for first")
    assert table.game_id == game, "no game was started"
    assert table.state.variant == "classic" and not table.state.house_rules.physical_dice
    res = client.post("/api/host/new_game", headers=host(),
                      json={**body, "faces": [6, 6, 2, 3, 5]})
    assert res.status_code == 200, res.get_json()
    assert table.state.first_player == "blue"


@pytest.mark.parametrize(("rules", "faces", "words"), [
    ({"physical_dice": True}, [1, 7], "from 1 to 6"),
    ({"physical_dice": True}, "641", "from 1 to 6"),
    ({}, [6, 5, 4], "only for a game with physical dice"),
])
def test_typed_setup_dice_are_checked(client, rules, faces, words):
    res = client.post("/api/host/new_game", headers=host(), json={
        "variant": "classic", "players": ["red", "blue", "green"], "house_rules": rules,
        "faces": faces})
    assert res.status_code == 400
    assert words in res.get_json()["error"]["fields"]["faces"]


def test_the_host_is_offered_every_game_of_the_rules_list_in_its_order(client):
    from pi_app.rules import GAMES

    offered = client.get("/api/variants").get_json()["variants"]
    assert [v["id"] for v in offered] == list(GAMES)
    assert {v["id"]: (v["min_players"], v["max_players"]) for v in offered} == {
        name: game.player_limits for name, game in GAMES.items()}
