"""The live event stream: snapshot on connect, resume by Last-Event-ID, private streams
by single-use ticket, redaction of every message, heartbeat, clean end on shutdown."""

from __future__ import annotations

import json
import threading

import pytest

from pi_app.table_api import Viewer
from pi_app.web.stream import EventId, event_stream, parse_event_id

from .conftest import BOT, bot_step, give_secrets, play_until, seat


def _messages(chunks, count: int) -> list[dict]:
    """Read `count` update messages from an SSE text iterator; each also gets its SSE id
    as `"_id"`."""
    out = []
    for chunk in chunks:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id: "):
            lines = dict(line.split(": ", 1) for line in text.strip().split("\n"))
            assert lines["event"] == "update"
            msg = json.loads(lines["data"])
            assert lines["id"].split(".")[0] == str(msg["seq"])
            msg["_id"] = lines["id"]
            out.append(msg)
            if len(out) == count:
                return out
    raise AssertionError("the stream ended early")


def _stream(table, viewer, last=None, heartbeat=15.0):
    return event_stream(table, viewer, last, threading.Event(), heartbeat)


def test_a_fresh_connection_gets_the_snapshot_and_the_log(table):
    start = table.revision  # the new game's
    bot_step(table)
    bot_step(table)
    (msg,) = _messages(_stream(table, Viewer("spectator")), 1)
    assert msg["reset"] is True and msg["seq"] == start + 2
    assert [u["seq"] for u in msg["updates"]] == [start, start + 1, start + 2]
    assert msg["updates"][0]["events"][0]["type"] == "game_started"
    assert msg["state"]["owner"] == table.state.owner


def test_updates_arrive_in_order_after_the_snapshot(table):
    stream = _stream(table, Viewer("spectator"))
    start = _messages(stream, 1)[0]["seq"]
    bot_step(table)
    bot_step(table)
    got = _messages(stream, 1)[0]
    seqs = [u["seq"] for u in got["updates"]]
    if seqs == [start + 1]:  # the stream may wake between the two commands
        seqs += [u["seq"] for u in _messages(stream, 1)[0]["updates"]]
    assert seqs == [start + 1, start + 2]


def _id_now(table) -> EventId:
    """The event id a phone connecting now is given."""
    (msg,) = _messages(_stream(table, Viewer("spectator")), 1)
    return parse_event_id(msg["_id"])


def test_resume_sends_only_what_was_missed(table):
    start = table.revision
    for _ in range(3):
        bot_step(table)
    seen = _id_now(table)
    assert seen.seq == start + 3
    bot_step(table)
    bot_step(table)
    (msg,) = _messages(_stream(table, Viewer("spectator"), last=seen), 1)
    assert msg["reset"] is False
    assert [u["seq"] for u in msg["updates"]] == [start + 4, start + 5]


def test_a_bare_seq_from_an_old_page_is_answered_with_a_reset(table):
    start = table.revision
    for _ in range(5):
        bot_step(table)
    (msg,) = _messages(_stream(table, Viewer("spectator"), last=EventId(start + 3)), 1)
    assert msg["reset"] is True
    assert [u["seq"] for u in msg["updates"]] == list(range(start, start + 6))


def test_resume_after_an_undo_resets_to_the_position_before(table):
    """The table's revision only rises, an undo too; a phone that saw the undone moves is
    reset (not sent the undo as one more update) and shows the earlier position."""
    for _ in range(2):
        bot_step(table)
    earlier = table.state.copy()
    for _ in range(2):
        bot_step(table)
    seen = _id_now(table)
    table.host_action("undo", {"count": 2})
    (msg,) = _messages(_stream(table, Viewer("spectator"), last=seen), 1)
    assert msg["reset"] is True and msg["seq"] > seen.seq
    assert msg["state"]["owner"] == earlier.owner != {t: None for t in earlier.owner}


def test_a_live_stream_sees_an_undo(table):
    for _ in range(2):
        bot_step(table)
    earlier = table.state.copy()
    bot_step(table)
    stream = _stream(table, Viewer("spectator"))
    before = _messages(stream, 1)[0]
    assert before["state"]["owner"] != earlier.owner
    table.host_action("undo", {"count": 1})
    msg = _messages(stream, 1)[0]
    assert msg["reset"] is True and msg["seq"] > before["seq"]
    assert msg["state"]["owner"] == earlier.owner


def test_a_changed_history_marker_resets_even_when_seq_rises(table):
    class RevisionTable:
        """The real table's way: seq only rises; an undo bumps the view's `history`."""

        def __init__(self, inner):
            self.inner, self.history = inner, 0

        def view(self, viewer):
            return {**self.inner.view(viewer), "history": self.history}

        def __getattr__(self, name):
            return getattr(self.inner, name)

    wrapped = RevisionTable(table)
    stream = _stream(wrapped, Viewer("spectator"))
    _messages(stream, 1)
    bot_step(table)
    assert _messages(stream, 1)[0]["reset"] is False
    wrapped.history += 1
    bot_step(table)
    assert _messages(stream, 1)[0]["reset"] is True


def test_private_streams_carry_only_their_owners_secrets(table):
    give_secrets(table)
    streams = {p: _stream(table, Viewer("player", p)) for p in ("red", "blue")}
    streams[None] = _stream(table, Viewer("spectator"))
    first = {p: json.dumps(_messages(s, 1)) for p, s in streams.items()}
    assert "SECRET-MISSION-red" in first["red"] and "wild-1" in first["red"]
    for other in ("blue", None):
        assert "SECRET-MISSION-red" not in first[other] and "SECRET-HQ-red" not in first[other]
        assert "wild-1" not in first[other]
    assert "deck" not in json.loads(first[None])[0]["state"]


def test_drawn_cards_reach_only_their_holder_over_a_whole_turn(table):
    play_until(table, lambda s: any(
        e["type"] == "card_drawn" for entry in table.entries for e in entry["events"]))
    drawn = [(e["player"], e["card"]) for entry in table.entries
             for e in entry["events"] if e["type"] == "card_drawn"]
    holder, card = drawn[0]
    for viewer in ("red", "blue", "green", None):
        v = Viewer("player", viewer) if viewer else Viewer("spectator")
        (msg,) = _messages(_stream(table, v), 1)
        events = [e for u in msg["updates"] for e in u["events"] if e["type"] == "card_drawn"]
        first = next(e for e in events if e["player"] == holder)
        assert first.get("card") == (card if viewer == holder else None), viewer


def test_heartbeat_comment_when_nothing_happens(table):
    stream = _stream(table, Viewer("spectator"), heartbeat=0.5)
    _messages(stream, 1)
    assert next(stream) == ": heartbeat\n\n"


def test_the_stream_ends_when_the_server_stops(table):
    stopping = threading.Event()
    stream = event_stream(table, Viewer("spectator"), None, stopping, 15.0)
    _messages(stream, 1)
    threading.Timer(0.2, stopping.set).start()
    assert list(stream) == []


def test_events_route_serves_sse_with_no_caching(client):
    res = client.get("/api/events")
    assert res.status_code == 200
    assert res.mimetype == "text/event-stream"
    assert res.headers["Cache-Control"].startswith("no-cache")
    assert res.headers["X-Accel-Buffering"] == "no"
    msg = _messages(res.response, 1)[0]
    assert msg["reset"] is True
    res.close()


def test_last_event_id_header_is_honoured_and_checked(client, table):
    start = table.revision
    bot_step(table)
    res = client.get("/api/events")
    seen = _messages(res.response, 1)[0]["_id"]
    res.close()
    bot_step(table)
    res = client.get("/api/events", headers={"Last-Event-ID": seen})
    assert [u["seq"] for u in _messages(res.response, 1)[0]["updates"]] == [start + 2]
    res.close()
    res = client.get("/api/events", headers={"Last-Event-ID": "1"})  # an old page's bare seq
    assert _messages(res.response, 1)[0]["reset"] is True
    res.close()
    for junk in ("abc", "1.", "1.xyz", ".ab", "1.ab.cd"):
        res = client.get("/api/events", headers={"Last-Event-ID": junk})
        assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_last_event_id")
    res = client.get("/api/events?last_event_id=-4")
    assert res.status_code == 400


def test_a_private_stream_needs_a_ticket_that_works_once(client, table, tokens):
    give_secrets(table)
    assert client.post("/api/stream-ticket").status_code == 401
    ticket = client.post("/api/stream-ticket", headers=seat(tokens["red"])).get_json()["ticket"]
    assert len(ticket) >= 32
    res = client.get(f"/api/events?ticket={ticket}")
    assert res.status_code == 200
    assert _messages(res.response, 1)[0]["state"]["my_mission"] == "SECRET-MISSION-red"
    res.close()
    again = client.get(f"/api/events?ticket={ticket}")
    assert (again.status_code, again.get_json()["error"]["code"]) == (403, "bad_ticket")
    assert client.get("/api/events?ticket=forged").status_code == 403


def test_one_device_cannot_hold_every_server_thread(table, tmp_path):
    from pi_app.web import create_app

    app = create_app(table, host_pin="12345678", data_dir=tmp_path, streams_per_client=2)
    client = app.test_client()
    first, second = client.get("/api/events"), client.get("/api/events")
    third = client.get("/api/events")
    assert (third.status_code, third.get_json()["error"]["code"]) == (429, "too_many_streams")
    _messages(first.response, 1)
    first.close()  # a closed stream gives its slot back
    second.close()  # even one that never sent a byte
    assert app.extensions["riskboard"].stream_slots.open_count("127.0.0.1") == 0
    again = client.get("/api/events")
    assert again.status_code == 200
    again.close()


def test_streams_are_capped_in_all_and_three_per_device(table, tmp_path):
    from pi_app.web import create_app

    app = create_app(table, host_pin="12345678", data_dir=tmp_path, streams_total=4,
                     seat_streams=0)
    client = app.test_client()

    def open_from(address: str):
        return client.get("/api/events", environ_base={"REMOTE_ADDR": address})

    held = [open_from("10.0.0.1") for _ in range(3)]
    fourth = open_from("10.0.0.1")
    assert (fourth.status_code, fourth.get_json()["error"]["code"]) == (429, "too_many_streams")
    held.append(open_from("10.0.0.2"))
    assert all(r.status_code == 200 for r in held)
    busy = open_from("10.0.0.3")
    error = busy.get_json()["error"]
    assert (busy.status_code, error["code"]) == (503, "server_busy")
    assert "try again" in error["message"]
    for r in held:
        r.close()
    assert app.extensions["riskboard"].stream_slots.open_count() == 0
    again = open_from("10.0.0.3")
    assert again.status_code == 200
    again.close()


def test_the_default_stream_cap_keeps_threads_for_pages_and_commands(app):
    from pi_app.web.serve import DEFAULT_THREADS

    slots = app.extensions["riskboard"].stream_slots
    assert slots.per_client == 3
    assert DEFAULT_THREADS - slots.total >= 16


def test_a_ticket_survives_a_refused_stream_request(client, tokens):
    ticket = client.post("/api/stream-ticket", headers=seat(tokens["red"])).get_json()["ticket"]
    bad = client.get(f"/api/events?ticket={ticket}&last_event_id=x")
    assert bad.status_code == 400
    res = client.get(f"/api/events?ticket={ticket}")  # not spent by the refused request
    assert res.status_code == 200
    res.close()


def test_a_phone_reconnecting_after_a_restart_is_reset_even_at_the_same_seq(tmp_path):
    """`systemctl restart`: a new table service over the same journal rebuilds its seq from
    the journal, lower than the revisions the phone saw (refusals and selections count
    too), and may reach the phone's number again: the phone still gets a reset and the log
    lines it missed."""
    from pi_app.dice import FairDice
    from pi_app.table.gestures import Touch
    from pi_app.table.loop import NewGameSpec, TableLoop, Wiring, awaited
    from pi_app.table.service import LocalTableService

    from .real_table import LEDS, PROFILE

    spec = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})

    def start() -> tuple[TableLoop, LocalTableService]:
        loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(PROFILE), demo=spec,
                         dice=lambda: FairDice(b"\x07" * 32))
        loop.start()
        return loop, LocalTableService(loop, leds=LEDS)

    def refuse(loop: TableLoop, times: int) -> None:
        """Touch someone else's territory: a refusal, published but not journaled."""
        state = loop.call(lambda core: core.state.copy())
        theirs = next(t for t, o in state.owner.items() if o != awaited(state)[0])
        for _ in range(times):
            loop.call(lambda core: core.on_input(Touch(theirs)))

    def place(loop: TableLoop) -> dict:
        state = loop.call(lambda core: core.state.copy())
        player = awaited(state)[0]
        command = BOT.choose(state, player).to_dict()
        accepted = loop.call(lambda core: core.submit(command, Viewer("player", player)))
        return accepted.events[-1]

    loop, service = start()
    place(loop)
    refuse(loop, 3)
    (before,) = _messages(_stream(service, Viewer("spectator")), 1)
    journal_seq = loop.call(lambda core: core.session.last_seq)
    assert before["seq"] > journal_seq
    loop.stop()

    loop, service = start()
    try:
        assert loop.call(lambda core: core.revision) < before["seq"]
        missed = place(loop)  # the journal moves on: a log line the phone has not seen
        assert missed["type"] == "placed"
        while loop.call(lambda core: core.revision) < before["seq"]:
            refuse(loop, 1)
        assert loop.call(lambda core: core.revision) == before["seq"]
        (after,) = _messages(_stream(service, Viewer("spectator"),
                                     last=parse_event_id(before["_id"])), 1)
        assert after["seq"] == before["seq"]
        assert after["reset"] is True
        placed = [e for u in after["updates"] for e in u["events"] if e["type"] == "placed"]
        assert placed[-1] == missed, "the placement after the restart is in the phone's log"
    finally:
        loop.stop()


@pytest.mark.slow
def test_a_phones_log_after_a_restart_reads_on_as_before(tmp_path):
    """`systemctl restart` mid-game: a phone's reset after it gets the same log lines as a
    reset just before it, the old lines included (not the game's opening events and what
    happened since the restart), for a spectator and for a seat (its own card draws)."""
    from pi_app.dice import FairDice
    from pi_app.table.loop import RECENT_ENTRIES, NewGameSpec, TableLoop, Wiring, awaited
    from pi_app.table.service import LocalTableService

    from .real_table import PROFILE

    spec = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
    viewers = (Viewer("spectator"), Viewer("player", "red"))

    def start() -> tuple[TableLoop, LocalTableService]:
        loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(PROFILE), demo=spec,
                         dice=lambda: FairDice(b"\x07" * 32))
        loop.start()
        return loop, LocalTableService(loop, leds=None)  # type: ignore[arg-type]

    def logs(service: LocalTableService) -> list[list[dict]]:
        out = []
        for viewer in viewers:
            (message,) = _messages(_stream(service, viewer), 1)
            assert message["reset"] is True
            out.append([e for u in message["updates"] for e in u["events"]])
        return out

    loop, service = start()
    try:
        for _ in range(RECENT_ENTRIES + 40):  # longer than the log a reset carries
            state = loop.call(lambda core: core.state.copy())
            player = awaited(state)[0]
            command = BOT.choose(state, player).to_dict()
            loop.call(lambda core, c=command, p=player: core.submit(c, Viewer("player", p)))
        journal_seq = loop.call(lambda core: core.session.last_seq)
        before = logs(service)
    finally:
        loop.stop()
    assert journal_seq > RECENT_ENTRIES
    assert not any(e["type"] == "game_started" for e in before[0]), "a recent part only"
    assert any(e.get("card") for e in before[1]), "red's own cards are in red's log"

    loop, service = start()
    try:
        assert loop.call(lambda core: core.session.last_seq) == journal_seq
        assert logs(service) == before
    finally:
        loop.stop()
