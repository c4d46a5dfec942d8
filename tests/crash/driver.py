"""A deterministic random-legal-move driver for journaled games (crash test, benchmarks).

Picks uniformly among the rules' legal commands for whoever must act; the choice comes
from its own seeded `random.Random`, never from the game's dice.
"""

from __future__ import annotations

import random

from pi_app.rules import Command, GameState, legal_commands


def actor(state: GameState) -> str:
    """The player the game waits for: the pending decision's player, else the current one."""
    pending = state.pending
    return str(pending["player"]) if pending else state.current_player


def next_command(state: GameState, chooser: random.Random) -> Command | None:
    """A legal command for whoever must act, or None when the game is over."""
    options = legal_commands(state, actor(state))
    if not options:
        return None
    return options[chooser.randrange(len(options))]
