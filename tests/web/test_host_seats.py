"""The host cannot read the seats' secrets (issue 12.5): no token a phone holds ever leaves
the host API; a seat's code shows one seat at a time, on request, until a phone holds it;
a reissue moves the seat and tells the old phone."""

from __future__ import annotations

import json

import pytest

from pi_app.web.seats import SeatHeld, SeatTokens

from .conftest import host, seat


def test_the_seat_list_holds_no_token_and_no_link(client, tokens):
    res = client.get("/api/host/seats", headers=host())
    assert res.status_code == 200
    assert res.get_json() == {"seats": [{"player": p, "claimed": False, "phones": 0}
                                        for p in ("red", "blue", "green")]}
    assert not any(token.encode() in res.data for token in tokens.values())


def test_a_new_game_answers_no_token(client, app):
    res = client.post("/api/host/new_game", json={"variant": "classic",
                                                  "players": ["red", "blue", "green"]},
                      headers=host())
    assert res.status_code == 200
    issued = app.extensions["riskboard"].seats.tokens()
    assert not any(token.encode() in res.data for token in issued.values())
    assert b"#t=" not in res.data and b"<svg" not in res.data


def test_a_seat_code_shows_until_its_phone_uses_it_then_never(client, tokens):
    res = client.get("/api/host/seats/blue/code", headers=host())
    assert res.status_code == 200
    assert res.get_json()["seat"]["url"].endswith(f"/me#t={tokens['blue']}")
    assert tokens["red"].encode() not in res.data  # one seat at a time
    assert client.get("/api/me", headers=seat(tokens["blue"])).status_code == 200  # scanned
    res = client.get("/api/host/seats/blue/code", headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (409, "seat_taken")
    assert "new code" in res.get_json()["error"]["message"]
    assert tokens["blue"].encode() not in res.data
    seats = client.get("/api/host/seats", headers=host()).get_json()["seats"]
    assert {s["player"]: s["claimed"] for s in seats} == {"red": False, "blue": True,
                                                          "green": False}
    res = client.get("/api/host/seats/purple/code", headers=host())
    assert (res.status_code, res.get_json()["error"]["code"]) == (404, "unknown_seat")
    assert client.get("/api/host/seats/red/code").status_code == 401


def test_a_held_seat_stays_held_after_a_restart(app, tokens, tmp_path):
    client = app.test_client()
    client.get("/api/state", headers=seat(tokens["green"]))
    again = SeatTokens(tmp_path / "data")
    assert again.unclaimed_token("green") is None
    assert again.unclaimed_token("red") == tokens["red"]
    stored = json.loads((tmp_path / "data" / SeatTokens.FILE_NAME).read_text())
    assert "claimed" in stored and "green" in stored["claimed"]


def test_a_reissue_moves_the_seat_and_tells_the_old_phone(client, tokens):
    assert client.get("/api/me", headers=seat(tokens["red"])).status_code == 200
    res = client.post("/api/host/seats/red/reissue", headers=host())
    assert res.status_code == 200
    new = res.get_json()["seat"]["url"].split("#t=")[1]
    assert new != tokens["red"] and tokens["blue"].encode() not in res.data
    old = client.get("/api/me", headers=seat(tokens["red"]))
    assert old.status_code == 403
    assert old.get_json()["error"]["code"] == "seat_moved"
    assert old.get_json()["error"]["message"].startswith(
        "Your seat was moved to another phone.")
    assert client.get("/api/me", headers=seat(new)).get_json() == {"player": "red"}
    # the new phone now holds it: the host can no longer read that token either
    assert client.get("/api/host/seats/red/code", headers=host()).status_code == 409


def test_the_old_phones_private_stream_ends_saying_its_seat_moved(app, table, tmp_path):
    from pi_app.web import create_app

    from .conftest import PIN

    quick = create_app(table, host_pin=PIN, data_dir=tmp_path / "q",
                       heartbeat_seconds=0.05, command_rate=(1000.0, 1000))
    client = quick.test_client()
    tokens = quick.extensions["riskboard"].seats.issue_all(list(table.state.players))
    ticket = client.post("/api/stream-ticket", headers=seat(tokens["red"])).get_json()["ticket"]
    res = client.get(f"/api/events?ticket={ticket}", buffered=False)
    chunks = iter(res.response)
    text = next(c for c in chunks if b"event: update" in c)
    assert client.post("/api/host/seats/red/reissue", headers=host()).status_code == 200
    text = b""
    for chunk in chunks:
        text += chunk
        if b"event: unseated" in text and text.endswith(b"\n\n"):
            break
    res.close()
    data = json.loads(text.split(b"event: unseated\ndata: ")[1].split(b"\n")[0])
    assert data["code"] == "seat_moved"
    assert data["message"].startswith("Your seat was moved to another phone.")


def test_the_host_sees_how_many_phones_opened_a_seats_link(tables):
    """Issue 34.5: a seat's link that reached a second phone (a forwarded link, a
    photographed QR code) shows on the host's seat list as two phones; the second is
    refused (one phone per seat), and a reissue starts the count again."""
    from pi_app.table.loop import NewGameSpec

    table = tables(NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}))
    client, red = table.client, table.tokens["red"]

    def phones() -> dict[str, int]:
        seats = client.get("/api/host/seats", headers=host()).get_json()["seats"]
        return {s["player"]: s["phones"] for s in seats}

    first = {**seat(red), "X-Seat-Phone": "first-phone"}
    second = {**seat(red), "X-Seat-Phone": "second-phone"}
    assert client.get("/api/state", headers=first).status_code == 200
    assert client.get("/api/me", headers=first).status_code == 200  # the same phone again
    assert phones() == {"red": 1, "blue": 0, "green": 0}
    for _ in range(3):
        assert client.get("/api/me", headers=second).status_code == 409
    assert client.get("/api/me", headers=seat(red)).status_code == 409  # no key: no phone
    assert phones() == {"red": 2, "blue": 0, "green": 0}
    for path, headers in (("/api/state", first), ("/api/state", {}), ("/api/me", first),
                          ("/api/status", {})):
        text = client.get(path, headers=headers,
                          environ_base={"REMOTE_ADDR": "192.168.1.23"}).get_data(as_text=True)
        assert '"phones"' not in text, path  # the count is the host's alone
    client.post("/api/host/seats/red/reissue", headers=host())
    assert phones() == {"red": 0, "blue": 0, "green": 0}


def test_the_phones_that_opened_a_seat_are_counted_across_a_restart(tmp_path):
    seats = SeatTokens(tmp_path)
    tokens = seats.issue_all(["red", "blue"])
    assert seats.seat_for(tokens["red"], "first") == "red"
    for phone in ("second", "third", "second"):
        with pytest.raises(SeatHeld):
            seats.seat_for(tokens["red"], phone)
    assert [s["phones"] for s in SeatTokens(tmp_path).seats()] == [3, 0]
    assert "second" not in (tmp_path / SeatTokens.FILE_NAME).read_text()  # hashes only
