"""The table runs on when its LED strip or its buttons cannot start, retries them, and says
so in one sentence (issue 11: no SPI yet, a wrong pin, GPIO lines busy)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from gpiozero import Button

from hardware.errors import HardwareUnavailable
from hardware.leds import open_strip
from hardware.supervised import Backoff, Supervised
from pi_app.config import Config
from pi_app.table.rig import build_rig
from pi_app.web import create_app

QUICK = lambda: Backoff(0.01, 0.05)  # noqa: E731  (retry at once in tests)


def wait_until(predicate, timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_backoff_doubles_up_to_its_most_and_starts_again_after_a_success():
    backoff = Backoff(2.0, 60.0)
    assert [backoff.next() for _ in range(7)] == [2.0, 4.0, 8.0, 16.0, 32.0, 60.0, 60.0]
    backoff.reset()
    assert backoff.next() == 2.0


def test_a_part_that_keeps_failing_is_retried_until_closed_and_never_raises():
    calls = []

    def opener():
        calls.append(1)
        raise OSError("no /dev/spidev0.0")

    part = Supervised("The LED strip", opener, backoff=Backoff(0.01, 0.01))
    assert part.start() is False
    assert wait_until(lambda: len(calls) >= 4)
    assert part.fault_sentence() == ("The LED strip is not working: no /dev/spidev0.0. The "
                                     "game goes on without it; riskboard keeps trying to "
                                     "start it.")
    part.close()
    settled = len(calls)
    time.sleep(0.1)
    assert len(calls) == settled and part.status()["state"] == "closed"


def test_a_strip_missing_at_start_leaves_the_table_running_and_lights_up_once_it_works(
        tmp_path):
    spi = threading.Event()  # "SPI enabled": the strip opens from then on
    attempts = []

    def open_leds(backend, count, **opts):
        attempts.append(backend)
        if not spi.is_set():
            raise HardwareUnavailable("the LED driver could not start on GPIO 10: SPI is off")
        return open_strip(backend, count, **opts)

    rig = build_rig(Config(), sim=True, data_dir=tmp_path, open_leds=open_leds, backoff=QUICK)
    rig.start()
    try:
        assert rig.loop.running
        status = rig.service.status()
        assert status["parts"]["leds"]["state"] == "missing"
        assert status["faults"] == [
            "The LED strip is not working: the LED driver could not start on GPIO 10: SPI is "
            "off. The game goes on without it; riskboard keeps trying to start it."]
        # sensors, rules and journal go on: a touch through the Pico reaches the table
        before = rig.loop.inputs_handled
        rig.service.virtual_touch("alaska")
        assert wait_until(lambda: rig.loop.inputs_handled > before)
        assert wait_until(lambda: len(attempts) >= 3)  # retried, not given up
        spi.set()
        assert wait_until(lambda: rig.service.status()["parts"]["leds"]["state"] == "running")
        assert rig.service.status()["faults"] == []
        # the board is lit at once with the frame it missed (the owners' colours)
        assert wait_until(lambda: rig.strip.last is not None and any(map(any, rig.strip.last)))
    finally:
        rig.stop()


def test_buttons_on_busy_gpio_lines_are_retried_and_shown_until_the_lines_are_free(tmp_path):
    rig = build_rig(Config(), sim=True, data_dir=tmp_path, backoff=QUICK)
    pin = rig.controls.pins["confirm"]
    other_program = Button(pin, pin_factory=rig.button_factory)  # holds the line
    rig.start()
    try:
        assert rig.loop.running and rig.strip.supervisor.running
        status = rig.service.status()
        assert status["parts"]["buttons"]["state"] == "missing"
        assert status["buttons"] == {}
        [fault] = status["faults"]
        assert fault.startswith("The control buttons are not working: control button "
                                f"'confirm' on GPIO {pin}: ")
        assert fault.endswith("The game goes on without them; riskboard keeps trying to "
                              "start them.")
        other_program.close()
        assert wait_until(lambda: rig.service.status()["parts"]["buttons"]["state"]
                          == "running")
        assert rig.service.status()["buttons"]["confirm"]["pressed"] is False
    finally:
        rig.stop()


def test_api_status_carries_the_fault_sentence(tmp_path):
    def no_leds(backend, count, **opts):
        raise HardwareUnavailable("no /dev/spidev0.0 (SPI is off)")

    rig = build_rig(Config(), sim=True, data_dir=tmp_path / "d", open_leds=no_leds,
                    backoff=QUICK)
    rig.start()
    try:
        app = create_app(rig.service, host_pin="135790", data_dir=tmp_path / "d")
        body = app.test_client().get("/api/status").get_json()
        assert body["faults"][0].startswith("The LED strip is not working: no /dev/spidev0.0")
        assert body["parts"]["leds"]["state"] == "missing"
    finally:
        rig.stop()


@pytest.mark.slow
def test_serve_on_a_machine_whose_ws281x_strip_cannot_start_runs_on_and_says_why(tmp_path):
    """As on a Pi before SPI is enabled: here the ws281x backend refuses (not a Pi)."""
    config = tmp_path / "config.toml"
    config.write_text(f'[leds]\nbackend = "ws281x"\ngpio_pin = 18\n'
                      f'[serial]\nport = "{tmp_path}/no-pico"\n'
                      '[buttons]\nbackend = "mock"\n')
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--config", str(config), "--port",
         str(port), "--data", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        assert "serving on" in server.stdout.readline()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=30) as r:
            status = json.load(r)
        assert status["loop"]["running"] is True
        assert status["parts"]["leds"]["state"] == "missing"
        assert status["faults"][0].startswith("The LED strip is not working: ")
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0
