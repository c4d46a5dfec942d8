"""GET routes of the JSON API: state per viewer, map, odds, dice, status, virtual board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from pi_app.rules.odds import battle_odds

from .conftest import bot_step, give_secrets, host, play_until, seat
from .real_table import LEDS


def test_spectator_state_hides_every_hand_mission_hq_and_the_deck_order(client, table):
    give_secrets(table)
    body = client.get("/api/state").get_json()
    state = body["state"]
    assert body["viewer"] == {"player": None}
    assert state["hand_counts"] == {"red": 1, "blue": 1, "green": 1}
    assert isinstance(state["deck_count"], int) and "deck" not in state
    text = json.dumps(body)
    assert "SECRET" not in text and "wild-1" not in text and "my_hand" not in state


def test_player_state_shows_their_own_hand_mission_and_hq_only(client, table, tokens):
    give_secrets(table)
    state = client.get("/api/state", headers=seat(tokens["red"])).get_json()["state"]
    assert state["my_hand"] == ["wild-1"]
    assert state["my_mission"] == "SECRET-MISSION-red"
    assert state["my_hq"] == "SECRET-HQ-red"
    text = json.dumps(state)
    assert "wild-2" not in text and "SECRET-MISSION-blue" not in text
    assert "SECRET-HQ-blue" not in text


def test_state_with_a_wrong_token_is_refused(client, tokens):
    res = client.get("/api/state", headers=seat("x" * 43))
    assert res.status_code == 403
    assert res.get_json()["error"]["code"] == "bad_token"


def test_state_of_an_unknown_game_is_404(client):
    res = client.get("/api/state?game=999")
    assert res.status_code == 404
    assert res.get_json()["error"]["code"] == "unknown_game"
    assert client.get("/api/state?game=1").status_code == 200


def test_me_names_the_seat_of_the_token(client, tokens):
    assert client.get("/api/me", headers=seat(tokens["blue"])).get_json() == {"player": "blue"}
    assert client.get("/api/me").status_code == 401


def test_map_has_the_rules_42_territories_and_83_edges_with_positions(client):
    layout = client.get("/api/map").get_json()
    ids = {t["id"] for t in layout["territories"]}
    assert len(ids) == 42
    assert len({tuple(sorted(e)) for e in layout["edges"]}) == 83
    assert sum(len(c["territories"]) for c in layout["continents"]) == 42
    # honest: a tile drawn off the map's 1000 x 535 drawing is off the phone's screen
    assert all(0 <= t["x"] <= 1000 and 0 <= t["y"] <= 535 for t in layout["territories"])
    spots = {(t["x"] // 40, t["y"] // 30) for t in layout["territories"]}
    assert len(spots) == 42, "two tiles drawn on top of each other"


def test_each_continent_lists_its_territories_in_the_maps_order_at_every_start():
    """The map's list (its text alternative) is read in /api/map's order: the same on every
    start of the server, whatever Python's hash seed, and the map file's order."""
    script = ("import json; from pi_app.web.api import board_map; "
              "print(json.dumps(board_map()))")
    answers = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script], env=env, check=True,
                             capture_output=True, text=True).stdout
        answers.append(json.loads(out))
    assert answers[0] == answers[1] == answers[2]
    order = [t["id"] for t in answers[0]["territories"]]
    for continent in answers[0]["continents"]:
        listed = continent["territories"]
        assert listed == sorted(listed, key=order.index), continent["id"]


def test_odds_come_from_the_rules_for_the_armies_on_the_board(client, table):
    play_until(table, lambda s: s.phase == "attack")
    source, target = "alaska", "kamchatka"
    odds = client.get(f"/api/odds?source={source}&target={target}").get_json()
    assert (odds["attackers"], odds["defenders"]) == (
        table.state.armies[source], table.state.armies[target])
    rules = battle_odds(table.state.armies[source], table.state.armies[target])
    assert odds["p_conquer"] == pytest.approx(float(rules.p_conquer), abs=1e-9)


def test_odds_of_one_army_against_one_is_zero(client, table):
    table.state.armies["alaska"] = 1
    table.state.armies["kamchatka"] = 1
    odds = client.get("/api/odds?source=alaska&target=kamchatka").get_json()
    assert odds["p_conquer"] == 0.0  # one army must stay behind: nothing can attack


def test_odds_reject_missing_unknown_and_non_adjacent_territories(client):
    assert client.get("/api/odds?source=alaska").get_json()["error"]["code"] == "bad_territory"
    res = client.get("/api/odds?source=alaska&target=atlantis")
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_territory")
    res = client.get("/api/odds?source=alaska&target=siam")
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "not_adjacent")


def test_dice_page_keeps_the_seed_secret_until_the_game_ends(client, table):
    before = client.get("/api/dice").get_json()
    assert before["commitment"] == table.dice.commitment
    assert before["seed"] is None and before["draws"] == []
    table.host_action("end_game", {})
    after = client.get("/api/dice").get_json()
    assert after["seed"] == bytes(range(32)).hex()
    assert after["draws"], "the first-player roll and the shuffle are draws"


def test_dice_page_counts_the_battle_dice(client, table):
    play_until(table, lambda s: any(
        e["type"] == "battle" for entry in table.entries for e in entry["events"]))
    battles = [e for entry in table.entries for e in entry["events"] if e["type"] == "battle"]
    data = client.get("/api/dice").get_json()
    assert data["rolls"] == len(battles)
    assert sum(data["faces"]) == sum(len(b["attack_dice"]) + len(b["defence_dice"])
                                     for b in battles)


def test_status_says_there_is_no_serial_link_when_the_sensors_are_not_on_one(client):
    """The `table` fixture's sensors reach the loop directly: no link to report."""
    status = client.get("/api/status").get_json()
    assert status["link"]["state"] == "none"
    assert status["simulated"] is True and status["leds"]["backend"] == "memory"


def test_status_reports_the_link_to_the_simulated_pico(tmp_path):
    """`riskboard serve --sim`'s table: the emulated Pico on a pseudo-terminal, the real
    serial link to it; /api/status says when the link is up, and on which port."""
    from hardware.supervised import Backoff
    from pi_app.config import Config
    from pi_app.table.loop import NewGameSpec
    from pi_app.table.rig import build_rig
    from pi_app.web import create_app

    from .conftest import PIN

    rig = build_rig(Config(), sim=True, data_dir=tmp_path / "d",
                    demo=NewGameSpec("classic", ("red", "blue", "green"), {}),
                    backoff=lambda: Backoff(0.01, 0.05))
    rig.start()
    try:
        client = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "d").test_client()
        deadline = time.monotonic() + 60
        link = client.get("/api/status", headers=host(PIN)).get_json()["link"]
        while link["state"] != "connected" and time.monotonic() < deadline:
            time.sleep(0.1)
            link = client.get("/api/status", headers=host(PIN)).get_json()["link"]
        assert link["state"] == "connected", link
        assert os.path.realpath(link["port"]).startswith("/dev/pts/")  # a pseudo-terminal
    finally:
        rig.stop()
    assert rig.service.status()["link"]["state"] != "connected"


def test_virtual_board_and_touch_in_simulation(client, table):
    board = client.get("/api/virtual/board").get_json()
    assert len(board["leds"]) == LEDS.count  # the strip's whole frame
    assert set(board["territory_leds"]) == set(table.state.owner)
    alaska = board["territory_leds"]["alaska"]
    before = [board["leds"][i] for i in alaska]
    res = client.post("/api/virtual/touch", json={"territory": "alaska"}, headers=host())
    assert res.status_code == 200
    assert table.state.owner["alaska"] == "red"
    # the painter draws on its own thread: the frame follows the claim, not at once
    deadline = time.monotonic() + 30
    after = before
    while after == before and time.monotonic() < deadline:
        time.sleep(0.05)
        board = client.get("/api/virtual/board").get_json()
        after = [board["leds"][i] for i in alaska]
    assert after != before, "the claim shows on the strip"
    assert all(r > g and r > b for r, g, b in after), f"alaska lights in red: {after}"


def test_virtual_touch_rejections(client, table):
    def touch(body):
        return client.post("/api/virtual/touch", json=body, headers=host())

    res = touch({"territory": "atlantis"})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_territory")
    res = touch({"territory": "alaska", "force": 1})
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "unknown_field")
    touch({"territory": "alaska"})
    journal_seq = table.seq
    # A hand on the board gets no HTTP answer: the sensor was touched (200), and the table
    # refuses the gesture as it would a hand's, by blinking and in every phone's view.
    res = touch({"territory": "alaska"})
    assert res.status_code == 200
    refusal = client.get("/api/state").get_json()["state"]["table"]["refusal"]
    assert (refusal["code"], refusal["territory"]) == ("territory_taken", "alaska")
    assert table.state.owner["alaska"] == "red" and table.seq == journal_seq


def test_a_virtual_touch_needs_the_host_pin_or_a_seat_token(client, table, tokens):
    for headers, code in (({}, "pin_required"), (host("00000000"), "bad_pin"),
                          (seat("forged-token-forged-token"), "bad_token")):
        res = client.post("/api/virtual/touch", json={"territory": "alaska", "player": "red"},
                          headers=headers)
        assert (res.status_code // 100, res.get_json()["error"]["code"]) == (4, code)
    assert table.seq == 0 and table.state.owner["alaska"] is None
    res = client.post("/api/virtual/touch", json={"territory": "alaska", "player": "red"},
                      headers=seat(tokens["blue"]))
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "not_your_seat")
    seen = []

    def virtual_touch(territory, player=None, seat=False, **_how):
        seen.append((territory, player, seat))
        return True  # heard

    table.virtual_touch = virtual_touch
    client.post("/api/virtual/touch", json={"territory": "peru"}, headers=seat(tokens["blue"]))
    client.post("/api/virtual/touch", json={"territory": "argentina", "player": "green"},
                headers=host())
    # the seat's own touch (checked by the table); the host's pick of a token
    assert seen == [("peru", "blue", True), ("argentina", "green", False)]


def test_virtual_board_is_404_and_touch_refused_on_real_hardware(client, table):
    table.virtual = False
    assert client.get("/api/virtual/board").status_code == 404
    res = client.post("/api/virtual/touch", json={"territory": "alaska"}, headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "not_simulated")


def test_pages_are_served(client):
    for path in ("/", "/me", "/host", "/dice", "/virtual"):
        res = client.get(path)
        # every page's scripts are ES modules (issue 32.7)
        assert res.status_code == 200 and b'<script type="module"' in res.data, path
    assert b"openapi: 3" in client.get("/openapi.yaml").data


def _counting(table, name: str) -> list[int]:
    """Count the calls of one table method."""
    calls: list[int] = []
    inner = getattr(table, name)
    setattr(table, name, lambda *a: calls.append(1) or inner(*a))
    return calls


def test_odds_are_cached_per_armies_and_capped_like_the_odds_command(client, table):
    from pi_app.rules.odds import MAX_ARMIES

    calls = _counting(table, "odds")
    table.state.armies["alaska"], table.state.armies["kamchatka"] = 40, 30
    url = "/api/odds?source=alaska&target=kamchatka"
    first, second = client.get(url).get_json(), client.get(url).get_json()
    assert first == second and len(calls) == 1
    table.state.armies["alaska"] = 41
    assert client.get(url).get_json()["attackers"] == 41 and len(calls) == 2
    table.state.armies["kamchatka"] = MAX_ARMIES + 1
    res = client.get(url)
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "too_many_armies")
    assert str(MAX_ARMIES) in res.get_json()["error"]["message"] and len(calls) == 2


def test_dice_record_is_read_once_per_table_state(client, table):
    calls = _counting(table, "dice_record")
    client.get("/api/dice")
    client.get("/api/dice")
    assert len(calls) == 1
    bot_step(table)
    client.get("/api/dice")
    assert len(calls) == 2


def test_odds_and_dice_are_rate_limited(table, tmp_path):
    from pi_app.web import create_app

    play_until(table, lambda s: s.armies["alaska"] > 0 and s.armies["kamchatka"] > 0)
    client = create_app(table, host_pin="12345678", data_dir=tmp_path,
                        read_rate=(0.001, 3)).test_client()
    codes = [client.get(path).status_code for path in
             ("/api/dice", "/api/odds?source=alaska&target=kamchatka", "/api/dice", "/api/dice")]
    assert codes == [200, 200, 200, 429]


def test_a_seats_snapshot_is_rate_limited_per_device_as_me_is(table, tmp_path):
    """Issue 34.5: /api/state with a seat token answers a flood from one device with 429
    `rate_limited` and the sentence /api/me answers it with; the public snapshot and
    another device's seat are not held by it."""
    from pi_app.web import create_app

    app = create_app(table, host_pin="12345678", data_dir=tmp_path,
                     seat_state_rate=(0.001, 3), join_rate=(0.001, 1))
    tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue", "green"])
    client = app.test_client()
    answers = [client.get("/api/state", headers=seat(tokens["red"])) for _ in range(5)]
    assert [a.status_code for a in answers] == [200, 200, 200, 429, 429]
    client.get("/api/me", headers=seat(tokens["red"]))
    me = client.get("/api/me", headers=seat(tokens["red"]))
    assert me.status_code == 429
    flood, joined = answers[-1].get_json()["error"], me.get_json()["error"]
    assert flood["code"] == joined["code"] == "rate_limited"
    assert flood["message"] == joined["message"]
    assert flood["message"].startswith("Too many requests; wait ")
    assert flood["params"]["wait"] >= 1
    assert [client.get("/api/state").status_code for _ in range(10)] == [200] * 10
    elsewhere = client.get("/api/state", headers=seat(tokens["blue"]),
                           environ_base={"REMOTE_ADDR": "192.168.1.40"})
    assert elsewhere.status_code == 200
    assert elsewhere.get_json()["viewer"] == {"player": "blue"}


def test_a_flood_of_wrong_tokens_is_limited_before_any_is_judged(table, tmp_path):
    from pi_app.web import create_app

    client = create_app(table, host_pin="12345678", data_dir=tmp_path,
                        seat_state_rate=(0.001, 2)).test_client()
    codes = [client.get("/api/state", headers=seat(f"guess-{n}")).status_code
             for n in range(4)]
    assert codes == [403, 403, 429, 429]
