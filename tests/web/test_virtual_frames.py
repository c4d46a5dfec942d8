"""The virtual board's frames follow the strip without being asked for at frame rate
(pi_app/web/virtual_frames.py): a long-poll (`/api/virtual/board?after=<version>`) waits
for the next frame, an event stream (`/api/virtual/frames`) sends each as it comes; both
are capped per address and in all, end when their client leaves or the server stops, and
a table without a virtual board still answers 404."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Callable

import pytest

from hardware.leds import open_strip
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette
from pi_app.table.service import LocalTableService
from pi_app.web import create_app, virtual_frames
from pi_app.web.serve import start_background
from pi_app.web.virtual_frames import FrameWaits, frame_waits

from .conftest import PIN
from .real_table import LEDS, PROFILE, RecordingEmulator, Table

PLAYERS = ["red", "blue", "green"]


def wait_until(done: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Poll `done` until it holds or `seconds` pass; whether it held."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


@pytest.fixture
def forever(monkeypatch):
    """A wait that only a new frame, a client gone or a stop can end."""
    monkeypatch.setattr(virtual_frames, "WAIT_S", 600.0)


class IdleTable:
    """A simulated table with no game yet, its LEDs dark and still: the table loop on a
    journal, the in-memory strip painted by the real painter's frame thread, the service
    the web reads it through. `new_game()` lights it."""

    def __init__(self, folder) -> None:
        self.strip = open_strip("memory", LEDS.count, history=2)
        self.painter = Painter(self.strip, LEDS, Palette.from_config())
        self.loop = TableLoop(folder / "journal.sqlite", Wiring.from_profile(PROFILE),
                              show=self.painter.show)
        self.loop.start()
        self.painter.start()
        self.service = LocalTableService(self.loop, leds=LEDS, strip=self.strip,
                                         painter=self.painter, emulator=RecordingEmulator())

    def new_game(self) -> None:
        """Start a Classic game: the free territories breathe in the claimer's colour."""
        self.service.host_action("new_game", {"variant": "classic", "players": PLAYERS})

    def close(self) -> None:
        """Stop the frame thread and the loop."""
        self.painter.stop()
        self.loop.stop()


@pytest.fixture
def served(tmp_path):
    """(idle table, app, server): an `IdleTable` behind a waitress server."""
    table = IdleTable(tmp_path)
    app = create_app(table.service, host_pin=PIN, data_dir=tmp_path / "data")
    server = start_background(app)
    yield table, app, server
    server.stop()
    table.close()


def get(server, path: str) -> tuple[int, dict]:
    """(status, JSON answer) of a GET to the served app."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def in_thread(call: Callable[[], object]) -> tuple[threading.Thread, list]:
    """Run `call` in a thread; (the thread, [its answer] once it answered)."""
    answer: list = []
    thread = threading.Thread(target=lambda: answer.append(call()), daemon=True)
    thread.start()
    return thread, answer


def test_a_long_poll_waits_for_the_next_frame_and_brings_it(served, forever):
    table, app, server = served
    _, board = get(server, "/api/virtual/board")
    thread, answer = in_thread(lambda: get(server, f"/api/virtual/board?after={board['version']}"))
    assert wait_until(lambda: frame_waits_of(app).waiting() == 1), "the ask waits"
    time.sleep(1.5)  # a few of the wait's looks at the still table
    assert answer == [], "nothing changed: no answer yet"
    table.new_game()
    thread.join(60)
    [(status, after)] = answer
    assert status == 200 and after["version"] != board["version"]
    assert not any(map(any, board["leds"])) and any(map(any, after["leds"])), \
        "the new game lights the frame the wait brought"
    assert frame_waits_of(app).waiting() == 0


def test_a_long_poll_for_a_frame_already_gone_is_answered_at_once(served, forever):
    _table, _app, server = served
    thread, answer = in_thread(lambda: get(server, "/api/virtual/board?after=another-start.7"))
    thread.join(60)
    [(status, board)] = answer  # it never waits (that would be ten minutes)
    assert status == 200 and board["version"] != "another-start.7" and board["leds"]


def test_a_wait_ends_when_the_server_stops(tmp_path, forever):
    table = IdleTable(tmp_path)
    app = create_app(table.service, host_pin=PIN, data_dir=tmp_path / "data")
    server = start_background(app)
    _, board = get(server, "/api/virtual/board")
    thread, answer = in_thread(lambda: get(server, f"/api/virtual/board?after={board['version']}"))
    assert wait_until(lambda: frame_waits_of(app).waiting() == 1)
    server.stop()  # returns: the waiting request does not hold it
    thread.join(60)
    assert not thread.is_alive()
    assert answer == [(200, board)], "the wait ended with the frame as it was"
    assert frame_waits_of(app).waiting() == 0
    table.close()


def test_a_client_gone_mid_wait_frees_its_thread(served, forever):
    _table, app, server = served
    _, board = get(server, "/api/virtual/board")
    for path in (f"/api/virtual/board?after={board['version']}", "/api/virtual/frames"):
        client = socket.create_connection(("127.0.0.1", server.port))
        client.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert wait_until(lambda: frame_waits_of(app).waiting() == 1), path
        client.close()  # the page closed mid-wait
        assert wait_until(lambda: frame_waits_of(app).waiting() == 0), f"{path} holds a thread"


def test_the_stream_sends_a_frame_as_the_strip_moves_on_and_the_map_once(served):
    table, _app, server = served
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request("GET", "/api/virtual/frames")
        response = conn.getresponse()
        assert response.status == 200
        assert response.getheader("Content-Type").startswith("text/event-stream")
        first = next_frame(response)
        assert set(first) >= {"version", "leds", "territory_leds", "status_leds"}
        assert not any(map(any, first["leds"])), "no game: every LED is dark"
        table.new_game()
        frame = next_frame(response)
        assert set(frame) == {"version", "leds"}, "the map is not sent again"
        assert frame["version"] != first["version"] and any(map(any, frame["leds"]))
        # the free territories breathe: the stream brings the breath, frame after frame. A
        # breath passes the same look going up and coming down, and a frame read just as the
        # next is pushed carries the newer LEDs under the older version, so two of the five
        # may look alike; all five alike would be a stream that does not follow the strip.
        frames = [next_frame(response) for _ in range(5)]
        assert len({f["version"] for f in frames}) == 5, "each frame is a new one"
        assert len({json.dumps(f["leds"]) for f in frames}) >= 2, "the breath reaches the page"
    finally:
        conn.close()


def next_frame(response) -> dict:
    """The data of the stream's next `frame` event."""
    event = None
    while True:
        line = response.readline().decode()
        assert line, "the stream ended"
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "frame":
            return json.loads(line[6:])


def test_a_stream_past_the_cap_says_busy_and_ends(served):
    _table, app, server = served
    app.extensions[virtual_frames._EXTENSION] = FrameWaits(total=4, per_client=1)
    first = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        first.request("GET", "/api/virtual/frames")
        streaming = first.getresponse()  # kept: a response let go closes its connection
        assert streaming.status == 200
        assert wait_until(lambda: frame_waits_of(app).waiting() == 1)
        second = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        second.request("GET", "/api/virtual/frames")
        busy = second.getresponse()
        assert busy.status == 200
        assert "event: busy" in busy.read().decode(), "ends at once, saying why"
        # a long-poll past the cap is answered at once, as if the frame had moved on
        status, board = get(server, "/api/virtual/board?after=whatever")
        assert status == 200 and board["leds"]
    finally:
        first.close()


def test_waits_are_capped_per_address_and_in_all():
    waits = FrameWaits(total=3, per_client=2)
    assert waits.acquire("a") and waits.acquire("a")
    assert not waits.acquire("a"), "an address's share is two"
    assert waits.acquire("b")
    assert not waits.acquire("c"), "three in all"
    waits.release("a")
    assert waits.acquire("c") and waits.waiting() == 3


def test_a_table_without_a_virtual_board_answers_404(tmp_path):
    plain = Table(tmp_path / "t", NewGameSpec("classic", tuple(PLAYERS)))
    try:
        for path in ("/api/virtual/board", "/api/virtual/board?after=x.1", "/api/virtual/frames"):
            res = plain.client.get(path)
            assert (res.status_code, res.get_json()["error"]["code"]) == (
                404, "no_virtual_board"), path
    finally:
        plain.loop.stop()


def frame_waits_of(app) -> FrameWaits:
    """The app's frame waits (made at the first use, as the routes make them)."""
    with app.app_context():
        return frame_waits()
