"""`ComputerPlayer`: one seat played by the Pi, deciding from that seat's redacted view only."""

from __future__ import annotations

from typing import Any

from pi_app.computer.strategy import LEVELS, Strategist
from pi_app.computer.strike_bot import REACTIONS
from pi_app.computer.view import board_state_from_view, strike_state_from_view
from pi_app.rules import GAMES, Command
from pi_app.rules.strike.deck import CANCEL

# The tactics cards each level plays in RISK Strike's reaction windows: hard all of them;
# normal answers a card played against it (Cancel Orders) but does not yet see when
# Sabotage, Artillery, Rally or Bombard turn a battle; easy passes every window and keeps
# its troop cards in hand when it fights (issue 23.11: before, normal and hard were the
# same player).
# How each level fights in RISK Strike beyond that (StrikeBot's defaults otherwise): hard
# weighs the domination coins (an attack that takes one, or stops a player one coin from
# winning; every troop into a battle where a coin is at stake).
STRIKE_STYLE: dict[str, dict[str, Any]] = {"hard": {"coin_sense": True}}
STRIKE_REACTIONS = {"hard": REACTIONS, "normal": frozenset({CANCEL}), "easy": frozenset()}


class ComputerPlayer:
    """A computer seat at `level` ("easy", "normal", "hard").

    `decide(view)` takes the JSON view `pi_app.redaction.redact(state, seat)` gives that
    seat's phone and returns the command it plays now. It never sees the table's state, so
    other hands, the deck order, other missions and HQs and the dice seed cannot sway it.
    """

    def __init__(self, level: str = "normal") -> None:
        self.level = level
        self._board = Strategist(level)
        self._strike: Any = None

    def decide(self, view: dict[str, Any]) -> Command:
        """The command the seat `view["viewer"]` plays now (it must be awaited)."""
        seat = view["viewer"]
        if seat is None:
            raise ValueError("a computer player decides from a seat's view, not the public one")
        game = GAMES.get(view.get("variant"))  # type: ignore[arg-type]
        if game is not None and game.card_game:
            return self._decide_strike(view, seat)
        return self._board.choose(board_state_from_view(view), seat)

    def _decide_strike(self, view: dict[str, Any], seat: str) -> Command:
        from pi_app.computer.strike_bot import StrikeBot
        from pi_app.rules.strike.commands import Pass


        if self._strike is None:
            self._strike = StrikeBot(STRIKE_REACTIONS[self.level], deploys=self.level != "easy",
                                     **STRIKE_STYLE.get(self.level, {}))
        state = strike_state_from_view(view)
        if self.level == "easy" and state.window is not None:
            return Pass(seat)  # a beginner forgets its tactics cards in reaction windows
        return self._strike.choose(state, seat)


__all__ = ["LEVELS", "ComputerPlayer"]
