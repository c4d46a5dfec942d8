"""The computer player: a seat played by the Pi (issue 16).

`ComputerPlayer(level).decide(view)` returns the command a seat plays, decided from that
seat's redacted view only (`pi_app.redaction.redact`). Levels: easy, normal, hard.
"""

from pi_app.computer.player import ComputerPlayer
from pi_app.computer.strategy import LEVELS

LEVEL_NAMES = tuple(LEVELS)

__all__ = ["LEVEL_NAMES", "ComputerPlayer"]
