"""`riskboard serve` and `riskboard doctor` as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.request

import pytest

from pi_app.cli import main
from pi_app.cli import serve as serve_cli


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_doctor_passes_on_the_simulated_setup(capsys):
    assert main(["doctor", "--sim"]) == 0
    out = capsys.readouterr().out
    assert "serial" in out and "firmware 1.0.0" in out and "All checks passed." in out


def test_doctor_names_a_missing_serial_port_and_exits_1(tmp_path, capsys):
    config = tmp_path / "config.toml"
    # a web port nothing listens on: a riskboard serving on 8080 beside the tests (`make run`)
    # must not answer for this config's missing Pico
    config.write_text(f'[serial]\nport = "{tmp_path}/no-pico"\n[web]\nport = {free_port()}\n')
    assert main(["doctor", "--config", str(config), "--data", str(tmp_path / "d")]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  serial    {tmp_path}/no-pico does not exist" in out


def test_doctor_names_a_bad_config_key(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[leds]\nbrightness = 1.5\n")
    assert main(["doctor", "--config", str(config)]) == 1
    assert "leds.brightness must be between 0 and 1" in capsys.readouterr().out


@pytest.mark.slow
def test_serve_sim_lights_a_demo_game_prints_pin_and_url_and_stops_on_sigterm(tmp_path):
    data = tmp_path / "data"  # serve creates it
    port = free_port()
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port),
         "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=env, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(3)]
        assert f"http://127.0.0.1:{port}/" in lines[0]
        assert "host PIN 135790" in lines[1]
        assert f"phones join at http://127.0.0.1:{port}/" in lines[2]  # the bind address
        board = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/virtual/board") as r:
                    board = json.load(r)
                if any(any(px) for px in board.get("leds", [])):
                    break
            except OSError:
                time.sleep(0.1)
        assert board is not None and any(any(px) for px in board["leds"])
        assert (data / "journal.sqlite").exists()
        # the journal holds the unrevealed dice seed: nobody else may read it
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        journal = [f for f in data.iterdir() if f.name.startswith("journal.sqlite")]
        assert journal and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in journal), \
            {f.name: oct(f.stat().st_mode) for f in journal}
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 0


@pytest.mark.slow
def test_serve_sim_autoplay_plays_a_strike_demo_to_its_end(tmp_path):
    port = free_port()
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--autoplay", "--port", str(port),
         "--data", str(tmp_path), "--variant", "strike", "--players", "red,blue,green"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    try:
        done = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and done is None:
            line = server.stderr.readline()
            if "event=serve.autoplay" in line:
                done = line
        assert done is not None and "autoplay_done winner=" in done, done
        assert "winner=None" not in done
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 0


def test_a_short_host_pin_is_a_sentence_and_exit_2_not_a_traceback(tmp_path, monkeypatch,
                                                                   capsys):
    monkeypatch.setenv("RISKBOARD_HOST_PIN", "1234")
    assert main(["serve", "--sim", "--data", str(tmp_path / "d"), "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert "RISKBOARD_HOST_PIN must have at least 6 characters (it has 4)" in err
    assert "Traceback" not in err
    assert not (tmp_path / "d").exists()  # nothing was started


def test_an_existing_journal_readable_by_others_is_tightened(tmp_path):
    old = os.umask(0o022)
    try:
        (tmp_path / "journal.sqlite").write_bytes(b"")
        (tmp_path / "journal.sqlite").chmod(0o644)
        serve_cli.private_data_dir(tmp_path / "new")
        serve_cli.private_data_dir(tmp_path)
        assert stat.S_IMODE((tmp_path / "journal.sqlite").stat().st_mode) == 0o600
        assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    finally:
        os.umask(old)


@pytest.mark.parametrize(("configured", "host", "port", "lan", "expected"), [
    ("", "0.0.0.0", 8080, "192.168.1.20", "http://192.168.1.20:8080"),
    ("", "::", 80, "fd00::5", "http://[fd00::5]"),
    ("", "0.0.0.0", 8080, None, "http://127.0.0.1:8080"),
    ("", "192.168.7.2", 8080, "10.0.0.9", "http://192.168.7.2:8080"),
    ("http://riskboard.local:8080/", "0.0.0.0", 8080, "10.0.0.9", "http://riskboard.local:8080"),
])
def test_the_public_url_comes_from_config_else_the_lan_address_else_the_bind_address(
        monkeypatch, configured, host, port, lan, expected):
    monkeypatch.setattr(serve_cli, "lan_address", lambda families=None: lan)
    assert serve_cli.public_url(configured, host, port) == expected
