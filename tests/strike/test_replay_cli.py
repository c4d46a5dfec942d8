"""`riskboard replay` on a RISK Strike game (issue 23.13: it crashed at the first roll with
KeyError 'from', because Strike's battle event names no territories)."""

from __future__ import annotations

import re

import pytest

from pi_app.cli import main
from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules.strike import waiting_for
from pi_app.session import GameSession


@pytest.mark.slow
def test_replay_prints_a_whole_strike_game_with_every_roll_and_the_winner(tmp_path, capsys):
    path = tmp_path / "games.db"
    with Journal(path) as journal:
        session = GameSession.new(journal, "strike", ["red", "blue", "green"], None,
                                  dice=FairDice(b"p" * 32))
        bot = StrikeBot()
        battles = []
        for _ in range(5000):
            if session.state.winner is not None:
                break
            player = waiting_for(session.state)[0]
            _seq, events = session.submit(bot.choose(session.state, player))
            battles += [e.to_dict() for e in events if e.type == "battle"]
        winner, game_id = session.state.winner, session.game_id
    assert winner is not None and battles
    assert main(["replay", str(path), str(game_id)]) == 0
    out = capsys.readouterr().out
    lines = re.findall(r"battle (\w+) vs (\w+): \w+ rolls \[([\d,]*)\], \w+ rolls \[([\d,]*)\]; "
                       r"\w+ loses (\d), \w+ loses (\d)", out)
    assert len(lines) == len(battles)
    for line, event in zip(lines, battles, strict=True):
        a_lost = sum(1 for side in event["losers"] if side == "attacker")
        assert line == (event["attacker"], event["defender"],
                        ",".join(map(str, event["attack_dice"])),
                        ",".join(map(str, event["defence_dice"])),
                        str(a_lost), str(len(event["losers"]) - a_lost))
    assert out.rstrip().endswith(f"Winner: {winner}")
