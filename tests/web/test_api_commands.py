"""POST /api/command and its rejections: every bad input is a 4xx with a sentence."""

from __future__ import annotations

from pi_app.web import create_app

from .conftest import PIN, seat


def _error(res) -> tuple[int, str]:
    body = res.get_json()
    assert len(body["error"]["message"]) > 10, body
    return res.status_code, body["error"]["code"]


def test_a_legal_command_goes_to_the_table_as_the_tokens_player(client, table, tokens):
    start = table.revision
    res = client.post("/api/command", json={"command": {"type": "claim", "territory": "alaska"}},
                      headers=seat(tokens["red"]))
    assert res.status_code == 200
    assert res.get_json()["seq"] == start + 1 == table.revision  # the stream's seq
    assert res.get_json()["events"][0]["type"] == "claimed"
    command, viewer = table.submitted[-1]
    assert command["player"] == "red" and viewer.player == "red"
    assert table.state.owner["alaska"] == "red"


def test_a_seat_acting_out_of_turn_is_forbidden_with_a_sentence(client, table, tokens):
    res = client.post("/api/command", json={"command": {"type": "claim", "territory": "alaska"}},
                      headers=seat(tokens["blue"]))
    assert _error(res) == (403, "not_your_turn")
    assert res.get_json()["error"]["message"] == ("It is red's move; your phone can only act "
                                                  "for blue.")
    assert table.state.owner["alaska"] is None


def test_a_malformed_command_is_the_rules_bad_command(client, tokens):
    res = client.post("/api/command", json={"command": {"type": "claim", "land": "alaska"}},
                      headers=seat(tokens["red"]))
    assert _error(res) == (400, "bad_command")


def test_command_needs_a_valid_token(client, tokens):
    body = {"command": {"type": "end_turn"}}
    assert _error(client.post("/api/command", json=body)) == (401, "token_required")
    res = client.post("/api/command", json=body, headers=seat("nope"))
    assert _error(res) == (403, "bad_token")


def test_acting_for_another_seat_is_refused(client, tokens, table):
    res = client.post("/api/command", json={"command": {"type": "end_turn", "player": "blue"}},
                      headers=seat(tokens["red"]))
    assert _error(res) == (403, "not_your_seat")
    assert table.submitted == []


def test_malformed_bodies_are_400_with_a_sentence(client, tokens):
    h = {**seat(tokens["red"]), "Content-Type": "application/json"}
    assert _error(client.post("/api/command", data="{not json", headers=h)) == (400, "bad_json")
    assert _error(client.post("/api/command", data="[1, 2]", headers=h)) == (400, "bad_json")
    assert _error(client.post("/api/command", data="{}", headers=h)) == (400, "missing_field")
    res = client.post("/api/command", json={"command": {"type": "end_turn"}, "x": 1},
                      headers=seat(tokens["red"]))
    assert _error(res) == (400, "unknown_field")
    res = client.post("/api/command", json={"command": "end_turn"}, headers=seat(tokens["red"]))
    assert _error(res) == (400, "bad_command")


def test_a_form_body_is_415(client, tokens):
    res = client.post("/api/command", data="command=end_turn", headers=seat(tokens["red"]))
    assert _error(res) == (415, "not_json")


def test_an_oversized_body_is_413(client, tokens):
    big = {"command": {"type": "end_turn", "pad": "x" * 20_000}}
    res = client.post("/api/command", json=big, headers=seat(tokens["red"]))
    assert _error(res) == (413, "request_entity_too_large")


def test_a_command_for_an_unknown_game_is_404(client, tokens):
    res = client.post("/api/command", json={"command": {"type": "end_turn"}, "game": 77},
                      headers=seat(tokens["red"]))
    assert _error(res) == (404, "unknown_game")


def test_commands_are_rate_limited_per_client(table, tmp_path):
    app = create_app(table, host_pin=PIN, data_dir=tmp_path, command_rate=(0.001, 3))
    tokens = app.extensions["riskboard"].seats.issue_all(["red", "blue", "green"])
    client = app.test_client()
    codes = [
        client.post("/api/command", json={"command": {"type": "claim", "territory": t}},
                    headers=seat(tokens["red"])).status_code
        for t in ("alaska", "peru", "congo", "siam", "japan")
    ]
    assert codes == [200, 403, 403, 429, 429]  # red is out of turn after one claim


def test_joining_is_rate_limited(table, tmp_path):
    app = create_app(table, host_pin=PIN, data_dir=tmp_path, join_rate=(0.001, 2))
    client = app.test_client()
    codes = [client.get("/api/me", headers=seat("guess")).status_code for _ in range(4)]
    assert codes == [403, 403, 429, 429]


def test_unknown_routes_and_methods_answer_json(client):
    assert _error(client.get("/api/nothing")) == (404, "not_found")
    assert _error(client.get("/api/command")) == (405, "method_not_allowed")


def test_a_table_crash_is_a_json_500_without_a_traceback(client, table, tokens, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError("secret internals")

    monkeypatch.setattr(table, "submit", boom)
    res = client.post("/api/command", json={"command": {"type": "end_turn"}},
                      headers=seat(tokens["red"]))
    assert res.status_code == 500
    assert b"secret internals" not in res.data and b"Traceback" not in res.data


def test_a_physical_dice_attack_carries_the_typed_faces(client, table):
    from pi_app.rules import legal_attacks_from

    from .conftest import host, play_until

    body = {"variant": "classic", "players": ["red", "blue", "green"],
            "house_rules": {"physical_dice": True, "defender_chooses_dice": False}}
    res = client.post("/api/host/new_game", headers=host(), json={**body, "faces": [6, 2, 1]})
    assert res.status_code == 200, res.get_json()
    tokens = {s["player"]: client.get(f"/api/host/seats/{s['player']}/code", headers=host())
              .get_json()["seat"]["url"].split("#t=")[1] for s in res.get_json()["seats"]}
    play_until(table, lambda s: s.phase == "attack")
    state = table.state
    attacker = state.current_player
    source, target = next((s, t) for s in state.territories_of(attacker)
                          if state.armies[s] >= 4 for t in legal_attacks_from(state, s))
    defence = min(2, state.armies[target])
    attack = {"type": "attack", "source": source, "target": target, "dice": 3}
    res = client.post("/api/command", json={"command": attack}, headers=seat(tokens[attacker]))
    assert _error(res) == (409, "dice_needed")
    assert table.state.armies[source] == state.armies[source], "a refusal changes nothing"
    typed = [6, 6, 6, 1, 1][: 3 + defence]
    res = client.post("/api/command", json={"command": {**attack, "faces": typed}},
                      headers=seat(tokens[attacker]))
    assert res.status_code == 200, res.get_json()
    battle = next(e for e in res.get_json()["events"] if e["type"] == "battle")
    assert battle["attack_dice"] == [6, 6, 6] and battle["defender_losses"] == defence


def test_a_too_deeply_nested_body_is_bad_json_not_a_crash(client, tokens):
    from .conftest import host

    nested = b"[" * 15000
    for path, headers in (("/api/command", seat(tokens["red"])),
                          ("/api/virtual/touch", host()), ("/api/host/undo", host())):
        res = client.post(path, data=nested, content_type="application/json", headers=headers)
        assert _error(res) == (400, "bad_json"), path
        assert res.get_json()["error"]["message"] == "The body is nested too deeply."


def test_a_chunked_host_body_is_read(client):
    import io

    from .conftest import host

    res = client.post("/api/host/undo", input_stream=io.BytesIO(b'{"steps": 1}'),
                      headers={"Transfer-Encoding": "chunked", **host()},
                      content_type="application/json",
                      environ_overrides={"wsgi.input_terminated": True})
    assert _error(res) == (400, "unknown_field")
