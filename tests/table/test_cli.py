"""`riskboard serve` and `riskboard doctor` as a user runs them."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

from pi_app.cli import main


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
    config.write_text(f'[serial]\nport = "{tmp_path}/no-pico"\n')
    assert main(["doctor", "--config", str(config), "--data", str(tmp_path / "d")]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  serial    {tmp_path}/no-pico does not exist" in out


def test_doctor_names_a_bad_config_key(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[leds]\nbrightness = 1.5\n")
    assert main(["doctor", "--config", str(config)]) == 1
    assert "leds.brightness must be between 0 and 1" in capsys.readouterr().out


def test_serve_sim_lights_a_demo_game_prints_pin_and_url_and_stops_on_sigterm(tmp_path):
    port = free_port()
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port),
         "--data", str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        env=env, text=True)
    try:
        lines = [server.stdout.readline(), server.stdout.readline()]
        assert f"http://127.0.0.1:{port}/" in lines[0]
        assert "host PIN 135790" in lines[1]
        board = None
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/virtual/board") as r:
                    board = json.load(r)
                if any(any(px) for px in board.get("leds", [])):
                    break
            except OSError:
                time.sleep(0.1)
        assert board is not None and any(any(px) for px in board["leds"])
        assert (tmp_path / "journal.sqlite").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(15) == 0


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
        assert server.wait(15) == 0
