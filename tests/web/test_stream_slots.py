"""Live-stream slots: seats and the host come first, spectators share the rest (issue 12.9)."""

from __future__ import annotations

import json

from pi_app.web import create_app

from .conftest import PIN, host, seat


def spectator(client, address: str):
    return client.get("/api/events", environ_base={"REMOTE_ADDR": address})


def private(client, headers: dict[str, str], address: str = "10.9.0.1"):
    ticket = client.post("/api/stream-ticket", headers=headers,
                         environ_base={"REMOTE_ADDR": address}).get_json()["ticket"]
    return client.get(f"/api/events?ticket={ticket}", environ_base={"REMOTE_ADDR": address})


def first_event(res) -> tuple[str, dict]:
    """The first named event of an SSE response: (name, data)."""
    text = b""
    for chunk in res.response:
        text += chunk
        if b"\n\n" in text.split(b"retry: 1000\n\n", 1)[-1]:
            break
    block = text.split(b"retry: 1000\n\n", 1)[-1].split(b"\n\n")[0].decode()
    fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
    return fields["event"], json.loads(fields["data"])


def test_the_issue_case_48_guest_streams_leave_the_seats_and_host_theirs(app, client, tokens):
    opened = []
    for k in range(61):
        res = spectator(client, f"10.1.{k // 200}.{k % 200 + 1}")
        if res.status_code == 200:
            opened.append(res)
        else:
            res.close()
    slots = app.extensions["riskboard"].stream_slots
    assert len(opened) == slots.spectators == 48 - 7
    full = spectator(client, "10.2.0.1")
    error = full.get_json()["error"]
    assert (full.status_code, error["code"]) == (503, "server_busy")
    assert "watching" in error["message"] and "Seated players" in error["message"]
    seated = [private(client, seat(tokens[p])) for p in ("red", "blue", "green")]
    assert [r.status_code for r in seated] == [200, 200, 200]
    assert first_event(seated[0])[0] == "update"
    hosted = private(client, host())
    assert hosted.status_code == 200
    name, data = first_event(hosted)
    assert name == "update" and "my_hand" not in data["state"]  # the host sees the public view
    for res in opened + seated + [hosted]:
        res.close()
    assert slots.open_count() == 0


def test_a_seat_stream_is_admitted_even_from_an_address_at_its_guest_cap(client, tokens):
    held = [spectator(client, "10.3.0.1") for _ in range(3)]
    assert (spectator(client, "10.3.0.1").status_code) == 429
    mine = private(client, seat(tokens["red"]), address="10.3.0.1")
    assert mine.status_code == 200
    for res in [*held, mine]:
        res.close()


def test_the_newest_stream_of_a_seat_replaces_the_oldest(app, client, tokens):
    older = private(client, seat(tokens["red"]))
    assert first_event(older)[0] == "update"
    newer = private(client, seat(tokens["red"]))
    assert first_event(newer)[0] == "update"
    name, data = first_event(older)
    assert (name, data["code"]) == ("replaced", "replaced")
    assert list(older.response) == []  # it ended
    older.close()
    slots = app.extensions["riskboard"].stream_slots
    assert slots.open_count() == 1
    other = private(client, seat(tokens["blue"]))  # another seat keeps its own
    assert first_event(other)[0] == "update"
    assert slots.open_count() == 2
    newer.close()
    other.close()
    assert slots.open_count() == 0


def test_the_spectators_share_is_what_the_seats_leave(table, tmp_path):
    app = create_app(table, host_pin=PIN, data_dir=tmp_path, streams_total=10, seat_streams=7)
    client = app.test_client()
    held = [spectator(client, f"10.4.0.{k}") for k in range(1, 4)]
    assert all(r.status_code == 200 for r in held)
    assert spectator(client, "10.4.0.9").status_code == 503
    for res in held:
        res.close()


def test_a_host_ticket_needs_the_right_pin(client):
    res = client.post("/api/stream-ticket", headers=host("00000000"))
    assert (res.status_code, res.get_json()["error"]["code"]) == (403, "bad_pin")
