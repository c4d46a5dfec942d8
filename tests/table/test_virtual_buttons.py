"""The virtual board's control buttons: the host's press drives the simulated button (its
own hold time makes a long press), a seat acts only for itself when it may, and the web
route keeps them behind the host PIN or a seat token."""

from __future__ import annotations

import dataclasses
import time

import pytest

from pi_app.config import Config
from pi_app.table.loop import NewGameSpec
from pi_app.table.rig import build_rig
from pi_app.table_api import CommandRejected
from pi_app.web import create_app

HOLD = 1.5  # a quick press (0.08 s) stays quick even when a loaded machine stalls this thread
QUICK = NewGameSpec("classic", ("red", "blue", "green"),
                    {"setup": "deal", "setup_armies_per_turn": 5})
PIN = "24681357"


@pytest.fixture
def rig(tmp_path):
    config = Config()
    config = dataclasses.replace(config, buttons=dataclasses.replace(config.buttons,
                                                                      hold_time=HOLD))
    rig = build_rig(config, sim=True, data_dir=tmp_path, demo=QUICK)
    rig.start()
    try:
        deadline = time.monotonic() + 30
        while not rig.link.connected and time.monotonic() < deadline:
            time.sleep(0.01)
        yield rig
    finally:
        rig.stop()


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the table did not get there"
        time.sleep(0.01)


def snapshot(rig):
    return rig.loop.publisher.snapshot


def test_a_quick_press_and_a_held_press_are_what_the_buttons_make_of_them(rig):
    service = rig.service
    assert {"confirm", "undo", "end_phase", "roll"} <= set(service.virtual_board()["buttons"])
    state = snapshot(rig).state
    player = state.current_player
    mine = state.territories_of(player)[0]
    armies = state.armies[mine]
    service.virtual_touch(mine)
    wait_for(lambda: snapshot(rig).state.armies[mine] == armies + 1)
    service.virtual_button("confirm", "down")
    time.sleep(0.08)
    service.virtual_button("confirm", "up")  # a press: the rest of this setup turn there
    wait_for(lambda: snapshot(rig).state.armies[mine] == armies + 5)
    nxt = snapshot(rig).state.current_player
    assert nxt != player
    theirs = snapshot(rig).state.territories_of(nxt)[0]
    service.virtual_touch(theirs)
    wait_for(lambda: snapshot(rig).state.armies[theirs] > 1)
    seq = snapshot(rig).revision
    service.virtual_button("confirm", "down")
    time.sleep(HOLD + 0.2)  # held: a long press, which places nothing in setup
    service.virtual_button("confirm", "up")
    wait_for(lambda: snapshot(rig).revision > seq)
    assert snapshot(rig).refusal["code"] == "touch_to_place"
    assert snapshot(rig).state.armies[theirs] == 2


def test_a_seat_presses_only_for_itself_and_only_when_it_may(rig):
    service = rig.service
    state = snapshot(rig).state
    other = next(p for p in state.players if p != state.current_player)
    service.virtual_button("roll", "down", other, seat=True)
    with pytest.raises(CommandRejected) as refused:
        service.virtual_button("roll", "up", other, seat=True)
    assert refused.value.status == 403 and refused.value.code == "not_your_turn"
    with pytest.raises(CommandRejected) as unknown:
        service.virtual_button("blitz_now", "down")
    assert unknown.value.code == "unknown_button"


def test_the_button_route_needs_the_host_pin_or_a_seat_token(rig, tmp_path):
    app = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "web")
    client = app.test_client()
    body = {"button": "undo", "action": "down"}
    assert client.post("/api/virtual/button", json=body).status_code == 401
    assert client.post("/api/virtual/button", json=body,
                       headers={"X-Host-Pin": "99999999"}).status_code in (401, 403)
    assert client.post("/api/virtual/button", json={"button": "undo", "action": "sideways"},
                       headers={"X-Host-Pin": PIN}).status_code == 400
    assert client.post("/api/virtual/button", json=body,
                       headers={"X-Host-Pin": PIN}).status_code == 200
    assert client.post("/api/virtual/button", json={"button": "undo", "action": "up"},
                       headers={"X-Host-Pin": PIN}).status_code == 200
