"""`riskboard simulate`: bots finish games of every variant; --json prints one JSON object."""

from __future__ import annotations

import json

import pytest

from pi_app.cli import main


def test_json_summary_of_finished_games(capsys):
    assert main(["simulate", "--variant", "classic", "--players", "4", "--games", "3",
                 "--seed", "7", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out)  # exactly one JSON object, nothing else
    assert out.strip().count("\n") == 0
    assert summary["games"] == 3 and summary["finished"] == 3
    assert sum(summary["winners"].values()) == 3
    assert set(summary["winners"]) == {"red", "blue", "green", "yellow"}
    assert summary["commands"] > 3 * 42  # at least the claims of every game
    assert isinstance(summary["seconds"], float)


def test_same_seed_same_results(capsys):
    args = ["simulate", "--players", "3", "--games", "2", "--seed", "11", "--json"]
    main(args)
    first = json.loads(capsys.readouterr().out)
    main(args)
    second = json.loads(capsys.readouterr().out)
    assert first["winners"] == second["winners"] and first["commands"] == second["commands"]


def test_plain_summary_names_the_winners(capsys):
    assert main(["simulate", "--players", "3", "--games", "1", "--seed", "2",
                 "--setup", "deal"]) == 0
    out = capsys.readouterr().out
    assert "1 finished" in out and "wins" in out


@pytest.mark.parametrize(("variant", "seats"), [
    ("classic", 6), ("mission", 4), ("mission", 6), ("capital", 5), ("capital", 6),
    ("two-player", 2), ("allied", 2), ("strike", 3)])
def test_every_variant_simulates_to_finished_games_with_the_same_json_shape(
        capsys, variant, seats):
    assert main(["simulate", "--variant", variant, "--players", str(seats), "--games", "2",
                 "--seed", "3", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert set(summary) == {"variant", "players", "seed", "games", "finished", "winners",
                            "commands", "turns", "seconds"}
    assert summary["variant"] == variant and summary["players"] == seats
    assert summary["finished"] == 2 and sum(summary["winners"].values()) == 2
    assert len(summary["winners"]) == seats


def test_two_seat_variants_default_to_two_players(capsys):
    assert main(["simulate", "--variant", "allied", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == 2


def test_house_rules_are_set_with_rule_options(capsys):
    assert main(["simulate", "--variant", "mission", "--rule", "mission_deck=euro14",
                 "--rule", "fortify=adjacent", "--games", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 1
    assert main(["simulate", "--variant", "capital", "--rule", "capital_short_game=maybe"]) == 2
    assert "capital_short_game must be true or false" in capsys.readouterr().err
    assert main(["simulate", "--rule", "no-equals-sign"]) == 2
    assert "KEY=VALUE" in capsys.readouterr().err


def test_a_two_seat_variant_refuses_four_players(capsys):
    assert main(["simulate", "--variant", "two-player", "--players", "4"]) == 2
    assert "2 to 2 players" in capsys.readouterr().err


def test_bad_player_count_exits_2(capsys):
    assert main(["simulate", "--players", "2"]) == 2
    assert "3 to 6 players" in capsys.readouterr().err


@pytest.mark.parametrize("variant", ["classic", "strike"])
def test_too_many_players_names_the_number_asked_for(variant, capsys):
    assert main(["simulate", "--variant", variant, "--players", "9", "--games", "1"]) == 2
    assert "got 9" in capsys.readouterr().err


@pytest.mark.parametrize("variant", ["classic", "strike"])
def test_zero_games_is_refused_for_every_variant(variant, capsys):
    assert main(["simulate", "--variant", variant, "--players", "3", "--games", "0"]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err


def test_strike_summary_is_timed_by_the_cli(capsys):
    assert main(["simulate", "--variant", "strike", "--players", "2", "--games", "1",
                 "--json"]) == 0
    assert isinstance(json.loads(capsys.readouterr().out)["seconds"], float)


def run_with_stderr_on_a_pty(args: list[str]) -> tuple[str, str, int]:
    """Run `riskboard simulate ...` in a child whose stderr is a terminal (a pty) and whose
    stdout is a pipe; return (stdout, what the terminal showed, exit code)."""
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    child = subprocess.Popen([sys.executable, "-m", "pi_app", "simulate", *args],
                             stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal (EIO)
            break
        if not chunk:
            break
        shown += chunk
    out = child.stdout.read().decode()
    child.wait(timeout=120)
    os.close(master)
    return out, shown.decode(errors="replace"), child.returncode


@pytest.mark.slow
def test_progress_shows_on_stderr_when_it_is_a_terminal_and_json_stays_the_same(capsys):
    import re

    args = ["--players", "3", "--games", "6", "--seed", "5", "--json"]
    out, shown, code = run_with_stderr_on_a_pty(args)
    assert code == 0
    assert "classic games:   0%" in shown and "0/6" in shown
    assert re.search(r"[1-6]/6 \[", shown), shown  # it counted games as they finished
    assert main(["simulate", *args]) == 0
    plain = capsys.readouterr()
    assert plain.err == ""  # not a terminal: no progress at all
    piped, on_tty = json.loads(plain.out), json.loads(out)
    piped.pop("seconds"), on_tty.pop("seconds")
    assert on_tty == piped  # the JSON is the same with the bar as without
    assert out.strip().count("\n") == 0


def test_no_progress_when_stderr_is_not_a_terminal():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pi_app", "simulate", "--players", "3",
                           "--games", "2", "--seed", "5"], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stderr == ""
    assert "2 finished" in done.stdout
