"""Words of a RISK Strike session's refusals (issue 23.13: "Only 0 command(s)")."""

from __future__ import annotations

import pytest

from pi_app.computer.strike_bot import StrikeBot
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules import RuleError
from pi_app.rules.strike import waiting_for
from pi_app.session import GameSession


def test_undo_says_how_many_commands_can_be_undone_in_plain_words(tmp_path):
    session = GameSession.new(Journal(tmp_path / "j.sqlite"), "strike", ["red", "blue"],
                              None, dice=FairDice(b"u" * 32))
    with pytest.raises(RuleError) as nothing:
        session.undo(1)
    assert nothing.value.message == "Nothing can be undone yet in this game."
    player = waiting_for(session.state)[0]
    session.submit(StrikeBot().choose(session.state, player))
    with pytest.raises(RuleError) as one:
        session.undo(2, override=True)
    assert one.value.message == "Only 1 command can be undone in this game."
