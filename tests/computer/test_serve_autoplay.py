"""`riskboard serve --sim --autoplay`: every seat is a computer player and the demo game
plays to its end through the table (journaled, announced), as a host would see it."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from pi_app.journal import Journal


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_serve_sim_autoplay_seats_computers_that_finish_a_classic_game(tmp_path):
    port = free_port()
    env = dict(os.environ, RISKBOARD_HOST_PIN="135790")
    server = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--autoplay", "--port", str(port),
         "--data", str(tmp_path), "--variant", "classic", "--players",
         "red,blue,green", "--dice-seed", "computer"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True)
    try:
        done = seats = None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and done is None:
            line = server.stderr.readline()
            if "event=table.computer_seats" in line:
                seats = line
            if "event=serve.autoplay" in line:
                done = line
        assert seats is not None and all(f"'{c}': 'normal'" in seats
                                         for c in ("red", "blue", "green"))
        assert done is not None and "autoplay_done winner=" in done, done
        assert "winner=None" not in done
    finally:
        server.send_signal(signal.SIGTERM)
        assert server.wait(60) == 0
    with Journal(tmp_path / "journal.sqlite", read_only=True) as journal:
        game = journal.game_ids()[0]
        assert set(journal.computer_seats(game)) >= {"red", "blue", "green"}
        players = {e.command.get("player") for e in journal.load(game).active_entries()}
        assert {"red", "blue", "green"} <= players
