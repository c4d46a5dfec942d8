"""`riskboard doctor` beside the running service, as the maker's own user and with sudo
(issue 11, check 7): what this user may not read, and what the service holds (the Pico's
port, the LED strip, the buttons' GPIO lines), is asked of the service, never opened."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import pytest

from hardware.profiles import load_profile
from pi_app.cli import doctor, main
from pi_app.table.bringup_desk import LEARNED_NAME
from pi_app.table.sim import make_emulator

PROFILE = load_profile("classic-42")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def installed_service(tmp_path: Path, leds: str = "memory", linked: bool = True
                      ) -> Iterator[tuple[Path, int, Path]]:
    """`riskboard serve --config` as the unit runs it, with an emulated Pico on its
    serial port; yields (config file, web port, data folder) once the link is up (or, not
    `linked`, once it has given its first answer either way)."""
    emulator = make_emulator(PROFILE)
    pico = emulator.start()
    port = free_port()
    data = tmp_path / "var-lib-riskboard"
    config = tmp_path / "config.toml"
    config.write_text(f'[serial]\nport = "{pico}"\n[web]\nport = {port}\n'
                      f'[storage]\ndata_dir = "{data}"\n[leds]\nbackend = "{leds}"\n'
                      '[buttons]\nbackend = "mock"\n')
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen([sys.executable, "-m", "pi_app", "serve", "--config",
                               str(config)], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=env, text=True)
    try:
        assert "serving on" in server.stdout.readline()
        url = f"http://127.0.0.1:{port}/api/status"
        for _ in range(300):  # the service's link connects in the background
            with urllib.request.urlopen(url, timeout=10) as answer:
                link = json.load(answer)["link"]
                if link.get("connected") or (not linked and link.get("last_error")):
                    break
            time.sleep(0.05)
        yield config, port, data
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(20) == 0
        emulator.stop()


@pytest.fixture
def nothing_held_is_opened(monkeypatch):
    """Fail the test if doctor opens the Pico's port, the strip or the buttons itself."""
    def opened(what):
        def refuse(*args, **kwargs):
            raise AssertionError(f"doctor opened {what}, which the running service holds")
        return refuse

    monkeypatch.setattr(doctor, "_serial", opened("the Pico's port"))
    monkeypatch.setattr(doctor, "_leds", opened("the LED strip"))
    monkeypatch.setattr(doctor, "_buttons", opened("the buttons' GPIO lines"))


def doctor_as_the_maker(monkeypatch, config: Path, data: Path, port: int) -> int:
    """`riskboard doctor` as the pi user, who may read neither the config (0640
    root:riskboard) nor the data folder (0700 riskboard): these tests run as root, so
    access is denied by hand. Its exit code."""
    real_access = os.access
    private = {str(config), str(data)}
    monkeypatch.setattr(doctor.os, "access", lambda path, mode: False
                        if str(path) in private else real_access(path, mode))
    monkeypatch.setenv("RISKBOARD_CONFIG", str(config))
    return main(["doctor", "--port", str(port)])


def test_as_the_makers_own_user_a_healthy_table_passes_every_check(
        tmp_path, monkeypatch, capsys, nothing_held_is_opened):
    with installed_service(tmp_path) as (config, port, data):
        code = doctor_as_the_maker(monkeypatch, config, data, port)
    out = capsys.readouterr().out
    assert out.rstrip().endswith("All checks passed."), out
    assert code == 0
    lines = {line.split()[1]: line for line in out.splitlines() if line[:4] in ("ok  ", "WARN")}
    assert set(lines) == {"config", "profile", "storage", "serial", "board", "leds",
                          "buttons", "colours"}
    assert f"{config} is readable by the service only (that's fine)" in lines["config"]
    assert "(from the running service) classic-42: 42 territories" in lines["profile"]
    assert f"(from the running service) {data} is writable by the service" in \
        lines["storage"]
    assert "the riskboard service is using the Pico (that's fine); its link status: " \
        "connected, firmware 1.0.0" in lines["serial"]
    assert "(from the running service) the Pico's 42 sensor channels and their map (CRC " \
        f"{PROFILE.sensor_crc():08x}) match classic-42" in lines["board"]
    assert "learned at bring-up" not in lines["profile"]
    assert "(from the running service) memory: 135 LEDs" in lines["leds"]
    assert "(from the running service) mock: confirm on GPIO 5" in lines["buttons"]


def test_as_the_makers_own_user_the_profile_learned_at_bring_up_is_named_and_matched(
        tmp_path, monkeypatch, capsys, nothing_held_is_opened):
    # a bring-up saved the learned profile in the service's data folder (0700): the maker's
    # doctor cannot read it, so the service says it runs on it and that the Pico matches it
    data = tmp_path / "var-lib-riskboard"
    data.mkdir(mode=0o700)
    learned = data / LEARNED_NAME
    shutil.copyfile(resources.files("hardware.boards").joinpath("classic-42.toml"), learned)
    with installed_service(tmp_path) as (config, port, _data):
        code = doctor_as_the_maker(monkeypatch, config, data, port)
    out = capsys.readouterr().out
    assert code == 0 and out.rstrip().endswith("All checks passed."), out
    lines = {line.split()[1]: line for line in out.splitlines() if line[:4] in ("ok  ", "WARN")}
    assert f"classic-42: 42 territories (button), 135 LEDs, sensor map CRC " \
        f"{PROFILE.sensor_crc():08x} (learned at bring-up: {learned})" in lines["profile"]
    assert lines["board"].startswith("ok    board     (from the running service) the Pico's 42 "
                                     "sensor channels"), lines["board"]


def test_a_pico_that_does_not_match_the_learned_profile_fails_the_makers_doctor(
        tmp_path, monkeypatch, capsys, nothing_held_is_opened):
    # the learned profile counts 48 sensor channels; the Pico scans classic-42's 42: the
    # service's link refuses it, and no "board" line claims a match
    data = tmp_path / "var-lib-riskboard"
    data.mkdir(mode=0o700)
    shipped = resources.files("hardware.boards").joinpath("classic-42.toml").read_text()
    assert "\nsensor_count = 42\n" in shipped
    (data / LEARNED_NAME).write_text(shipped.replace("\nsensor_count = 42\n",
                                                     "\nsensor_count = 48\n"))
    with installed_service(tmp_path, linked=False) as (config, port, _data):
        code = doctor_as_the_maker(monkeypatch, config, data, port)
    out = capsys.readouterr().out
    assert code == 1, out
    serial = next((line for line in out.splitlines() if line.startswith("FAIL  serial ")), out)
    assert "board profile mismatch" in serial and "(classic-42, 42 sensors)" in serial, serial
    assert not any(line.split()[1:2] == ["board"] for line in out.splitlines() if line), out


@pytest.mark.slow
def test_with_sudo_beside_the_service_its_own_checks_run_and_held_parts_are_asked(
        tmp_path, capsys, nothing_held_is_opened):
    with installed_service(tmp_path) as (config, _port, data):
        code = main(["doctor", "--config", str(config)])
    out = capsys.readouterr().out
    assert code == 0 and out.rstrip().endswith("All checks passed."), out
    assert f"ok    config    {config} is valid" in out
    assert f"ok    storage   {data} is writable; journal passes its integrity check" in out
    assert "ok    buttons   (from the running service) mock: confirm on GPIO 5" in out


@pytest.mark.slow
def test_a_strip_the_service_could_not_start_is_named_by_doctor(
        tmp_path, capsys, nothing_held_is_opened):
    # the ws281x backend cannot start here (not a Pi), as on a Pi before SPI is enabled
    with installed_service(tmp_path, leds="ws281x") as (config, _port, _data):
        code = main(["doctor", "--config", str(config)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "FAIL  leds      (from the running service) The LED strip is not working: " in out
    assert "riskboard keeps trying to start it." in out
