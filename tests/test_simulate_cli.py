"""`riskboard simulate`: bots finish games; --json prints exactly one JSON object."""

from __future__ import annotations

import json

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
    assert summary["seconds"] >= 0


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


def test_unbuilt_variant_exits_2_with_a_sentence(capsys):
    assert main(["simulate", "--variant", "mission", "--players", "4"]) == 2
    assert "not available yet" in capsys.readouterr().err


def test_bad_player_count_exits_2(capsys):
    assert main(["simulate", "--players", "2"]) == 2
    assert "3 to 6 players" in capsys.readouterr().err
