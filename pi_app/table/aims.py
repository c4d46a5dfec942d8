"""What a seat's phone may do with two territories it taps now: its attack (or fortify)
panel, as the rules' legal commands allow it (issue 32: the table decides, the pages render).

A phone aims by tapping a source and a target; whether that pair is an attack, a fortify
or nothing, with how many dice, whether a blitz is offered and how many armies may move, is
the rules' answer (`pi_app.rules.legal.legal_commands`), not the page's: the page once
offered the Allied Army's commander an attack on the commander's own territories (the
rules allow only the seat whose turn the Allied Army plays), and a fortify between two own
territories that no chain of own territories joins.
"""

from __future__ import annotations

from typing import Any

from pi_app.rules import Attack, Blitz, Fortify
from pi_app.rules.legal import legal_commands

# the steps whose commands are aimed at two territories
AIMED_STEPS = ("attack", "allied_attack", "fortify")


def aims(state: Any, me: str) -> dict[str, Any]:
    """`me`'s aims now, for a phone whose step is one of AIMED_STEPS:
    `{"attack": {source: {"to": [targets], "dice": most dice}}, "fortify": {source: {"to":
    [own targets], "most": armies that may move}}, "blitz": whether a blitz is offered}`,
    sources and targets in the map's order; empty maps when the rules allow neither."""
    attack: dict[str, dict[str, Any]] = {}
    fortify: dict[str, dict[str, Any]] = {}
    blitz = False
    for cmd in legal_commands(state, me):
        if isinstance(cmd, Attack):
            aim = attack.setdefault(cmd.source, {"to": [], "dice": 0})
            if cmd.target not in aim["to"]:
                aim["to"].append(cmd.target)
            aim["dice"] = max(aim["dice"], cmd.dice)
        elif isinstance(cmd, Blitz):
            blitz = True
        elif isinstance(cmd, Fortify):
            aim = fortify.setdefault(cmd.source, {"to": [], "most": 0})
            if cmd.target not in aim["to"]:
                aim["to"].append(cmd.target)
            aim["most"] = max(aim["most"], cmd.count)
    return {"attack": attack, "fortify": fortify, "blitz": blitz}
