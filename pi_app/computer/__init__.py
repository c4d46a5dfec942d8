"""The players that play by themselves, in one home (issue 22.3).

- `ComputerPlayer(level).decide(view)` (`player.py`, `strategy.py`, `view.py`): a seat
  played by the Pi (issue 16), deciding from that seat's redacted view only
  (`pi_app.redaction.redact`). Levels: easy, normal, hard. `seats.py` runs them at the
  table; `matches.py` plays headless games with them (`riskboard simulate --computer`).
- `SimpleBot` (`simple_bot.py`): the board-game bot of simulations and tests, reading the
  whole state; its helpers are shared with the computer's strategy.
- `StrikeBot` (`strike_bot.py`): the RISK Strike bot; `strike_games.py` plays bot games
  headless (`riskboard simulate --variant strike`).

None of them is part of the rules (`pi_app.rules` stays pure and never imports them), and
none reaches into the table: this room imports only the rules, the dice and the redacted
view (tests/computer/test_layers.py). The bot that drives a whole table with touches and
presses is the table's (`pi_app.table.autoplay`).
"""

from pi_app.computer.player import ComputerPlayer
from pi_app.computer.strategy import LEVELS

LEVEL_NAMES = tuple(LEVELS)

__all__ = ["LEVEL_NAMES", "ComputerPlayer"]
