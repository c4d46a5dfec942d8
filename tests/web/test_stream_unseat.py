"""A private stream belongs to a seat TOKEN: a new game or a reissued token ends it with an
`unseated` event before any of the new seat's secrets, and tickets die with their token."""

from __future__ import annotations

import json
import time

import pytest

from pi_app.web import create_app

from .conftest import PIN, bot_step, host, seat


@pytest.fixture
def quick(table, tmp_path):
    """An app whose streams send a heartbeat (and re-check their seat) every 0.2 s."""
    return create_app(table, host_pin=PIN, data_dir=tmp_path / "data", heartbeat_seconds=0.2,
                      command_rate=(1000.0, 1000), join_rate=(1000.0, 1000))


def _events(response, limit: int = 40, seconds: float = 30.0) -> list[tuple[str, str]]:
    """(event name, data) of each SSE block until the stream ends, sends something other than
    an update, or `limit` blocks or `seconds` (heartbeats keep chunks coming) have passed."""
    out = []
    deadline = time.monotonic() + seconds
    for chunk in response.response:
        if time.monotonic() > deadline:
            break
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: ") or text.startswith("event: "):
            lines = dict(line.split(": ", 1) for line in text.strip().split("\n"))
            out.append((lines["event"], lines["data"]))
            if lines["event"] != "update" or len(out) >= limit:
                break
    return out


def _private_stream(client, token: str):
    ticket = client.post("/api/stream-ticket", headers=seat(token)).get_json()["ticket"]
    res = client.get(f"/api/events?ticket={ticket}")
    assert res.status_code == 200
    return res


def test_a_new_game_ends_the_old_seats_stream_before_the_new_seat_is_shown(quick, table):
    client = quick.test_client()
    tokens = quick.extensions["riskboard"].seats.issue_all(list(table.state.players))
    bot_step(table)
    res = _private_stream(client, tokens["red"])
    first = _events(res, 1)
    assert first[0][0] == "update"
    new = {"variant": "mission", "players": ["blue", "red", "green"]}
    assert client.post("/api/host/new_game", json=new, headers=host()).status_code == 200
    assert table.state.missions["red"]  # the new red player has a secret mission
    after = _events(res)
    res.close()
    assert after[-1][0] == "unseated"
    assert all("my_mission" not in data for _, data in after)
    assert json.loads(after[-1][1])["code"] == "unseated"


@pytest.mark.slow
def test_a_reissued_token_ends_its_stream_and_its_unused_tickets(quick, table):
    client = quick.test_client()
    tokens = quick.extensions["riskboard"].seats.issue_all(list(table.state.players))
    res = _private_stream(client, tokens["green"])
    assert _events(res, 1)[0][0] == "update"
    spare = client.post("/api/stream-ticket", headers=seat(tokens["green"])).get_json()["ticket"]
    blue = client.post("/api/stream-ticket", headers=seat(tokens["blue"])).get_json()["ticket"]
    assert client.post("/api/host/seats/green/reissue", headers=host()).status_code == 200
    assert _events(res)[-1][0] == "unseated"
    res.close()
    for ticket in (spare, blue):  # reissuing clears every outstanding ticket
        again = client.get(f"/api/events?ticket={ticket}")
        assert (again.status_code, again.get_json()["error"]["code"]) == (403, "bad_ticket")
    _private_stream(client, tokens["blue"]).close()  # blue's token still opens a stream
