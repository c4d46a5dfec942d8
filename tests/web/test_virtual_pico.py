"""POST /api/virtual/pico: the host resets, unplugs and replugs the virtual board's Pico, and
the table's link lives through it as it does on real hardware."""

from __future__ import annotations

import pytest

from .conftest import PIN, host
from .test_pin_board import CLASSIC, wait_until


@pytest.fixture
def virtual(tmp_path):
    from hardware.supervised import Backoff
    from pi_app.config import Config
    from pi_app.table.rig import build_rig
    from pi_app.web import create_app

    rig = build_rig(Config(), sim=True, data_dir=tmp_path / "d", demo=CLASSIC,
                    backoff=lambda: Backoff(0.01, 0.05))
    rig.start()
    try:
        app = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "d",
                         command_rate=(1000.0, 1000))
        yield rig, app.test_client()
    finally:
        rig.stop()


def test_a_reset_pico_gets_a_new_boot_and_the_link_shakes_hands_again(virtual):
    rig, client = virtual
    wait_until(lambda: rig.link.connected)
    epoch = rig.link.position[0]
    answer = client.post("/api/virtual/pico", json={"action": "reset"}, headers=host(PIN))
    assert answer.status_code == 200
    assert rig.emulator.stats["resets"] == 1
    wait_until(lambda: rig.link.connected and rig.link.position[0] != epoch)
    assert rig.link.get_status()["stats"]["pico_resets"] == 1


def test_an_unplugged_pico_comes_back_when_replugged(virtual):
    rig, client = virtual
    wait_until(lambda: rig.link.connected)
    assert client.post("/api/virtual/pico", json={"action": "unplug"},
                       headers=host(PIN)).status_code == 200
    wait_until(lambda: not rig.link.connected)
    assert client.post("/api/virtual/pico", json={"action": "replug"},
                       headers=host(PIN)).status_code == 200
    wait_until(lambda: rig.link.connected)


def test_only_the_host_acts_on_the_pico_and_only_as_it_can(virtual):
    rig, client = virtual
    assert client.post("/api/virtual/pico", json={"action": "reset"}).status_code == 401
    wrong = client.post("/api/virtual/pico", json={"action": "explode"}, headers=host(PIN))
    assert (wrong.status_code, wrong.get_json()["error"]["code"]) == (400, "bad_action")
    assert rig.emulator.stats["resets"] == 0
