"""GET routes of the JSON API: state per viewer, map, odds, dice, status, virtual board."""

from __future__ import annotations

from pi_app.table_api import Viewer

from .conftest import seat


def test_spectator_state_hides_every_hand_mission_and_the_deck_order(client):
    body = client.get("/api/state").get_json()
    state = body["state"]
    assert body["viewer"] == {"player": None}
    assert state["hands"] == {"red": 3, "blue": 3}
    assert state["missions"] == {}
    assert isinstance(state["deck"], int)


def test_player_state_shows_their_own_hand_and_mission_only(client, tokens):
    state = client.get("/api/state", headers=seat(tokens["red"])).get_json()["state"]
    assert state["hands"]["red"] == ["red-card-0", "red-card-1", "red-card-2"]
    assert state["hands"]["blue"] == 3
    assert state["missions"] == {"red": "secret mission of red"}


def test_state_with_a_wrong_token_is_refused(client, tokens):
    res = client.get("/api/state", headers=seat("x" * 43))
    assert res.status_code == 403
    assert res.get_json()["error"]["code"] == "bad_token"


def test_state_of_an_unknown_game_is_404(client):
    res = client.get("/api/state?game=999")
    assert res.status_code == 404
    assert res.get_json()["error"]["code"] == "unknown_game"


def test_me_names_the_seat_of_the_token(client, tokens):
    assert client.get("/api/me", headers=seat(tokens["blue"])).get_json() == {"player": "blue"}
    assert client.get("/api/me").status_code == 401


def test_map_has_42_territories_and_83_symmetric_edges(client):
    layout = client.get("/api/map").get_json()
    ids = {t["id"] for t in layout["territories"]}
    assert len(ids) == 42
    assert len({tuple(sorted(e)) for e in layout["edges"]}) == 83
    assert all(a in ids and b in ids for a, b in layout["edges"])
    assert sum(len(c["territories"]) for c in layout["continents"]) == 42


def test_odds_come_from_the_rules_for_the_armies_on_the_board(client, table):
    res = client.get("/api/odds?source=alaska&target=kamchatka")
    assert res.status_code == 200
    odds = res.get_json()
    assert (odds["attackers"], odds["defenders"]) == (3, 3)
    # 2 attacking armies against 3 defenders: well under even
    assert 0.0 < odds["p_conquer"] < 0.5


def test_odds_reject_missing_unknown_and_non_adjacent_territories(client):
    assert client.get("/api/odds?source=alaska").get_json()["error"]["code"] == "bad_territory"
    res = client.get("/api/odds?source=alaska&target=atlantis")
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_territory")
    res = client.get("/api/odds?source=alaska&target=siam")
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "not_adjacent")


def test_dice_page_data_keeps_the_seed_secret_until_the_game_ends(client, table):
    table.submit({"type": "attack", "player": "red", "source": "alaska",
                  "target": "northwest-territory"}, Viewer("player", "red"))
    before = client.get("/api/dice").get_json()
    assert before["commitment"] == table.dice.commitment
    assert before["seed"] is None and before["draws"] == []
    assert before["rolls"] == 1 and sum(before["faces"]) == 4  # 2 attack + 2 defence dice
    table.host_action("end_game", {})
    after = client.get("/api/dice").get_json()
    assert after["seed"] == bytes(range(32)).hex()
    assert [d[0] for d in after["draws"]] == ["d", "d"]


def test_status_reports_the_link(client):
    assert client.get("/api/status").get_json()["link"]["state"] == "connected"


def test_virtual_board_and_touch_in_simulation(client, table):
    board = client.get("/api/virtual/board").get_json()
    assert len(board["leds"]) == 42
    res = client.post("/api/virtual/touch", json={"territory": "alaska"})
    assert res.status_code == 200
    assert table.armies["alaska"] == 4


def test_virtual_touch_rejects_unknown_territories_and_fields(client):
    res = client.post("/api/virtual/touch", json={"territory": "atlantis"})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_territory")
    res = client.post("/api/virtual/touch", json={"territory": "alaska", "force": 1})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_field")


def test_virtual_board_is_404_and_touch_refused_on_real_hardware(client, table):
    table.virtual = False
    assert client.get("/api/virtual/board").status_code == 404
    res = client.post("/api/virtual/touch", json={"territory": "alaska"})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "not_simulated")


def test_pages_are_served(client):
    for path in ("/", "/me", "/host", "/dice", "/virtual"):
        res = client.get(path)
        assert res.status_code == 200 and b"<script src=" in res.data, path
    assert b"openapi: 3" in client.get("/openapi.yaml").data
