"""RISK Strike, the card-and-dice game (docs/RULES.md §7): a pure engine apart from the board game.

It shares the dice (`RandomSource`), `RuleError`, `Event`/`Outcome` and the map's continents
with the board engine, but not its state.

>>> from pi_app.dice import SeededSource
>>> outcome = new_game(["red", "blue"], None, SeededSource(1))
>>> outcome.state.phase
'draw'
>>> player = waiting_for(outcome.state)[0]
>>> apply(outcome.state, Draw(player, continents=1, tactics=1), SeededSource(2)).state.phase
'choose'
"""

from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event, Outcome
from pi_app.rules.strike.commands import (
    COMMAND_TYPES,
    SETTING_COMMANDS,
    TABLE,
    ChoosePassing,
    CloseWindow,
    DeclareAttack,
    Deploy,
    Draw,
    EndAttack,
    Pass,
    PassTurn,
    PlayArtillery,
    PlayBombard,
    PlayCancelOrders,
    PlayExpand,
    PlayRally,
    PlaySabotage,
    PlaySpy,
    Roll,
    command_from_dict,
)
from pi_app.rules.strike.deck import StrikeDeck, load_strike_deck
from pi_app.rules.strike.engine import (
    answers,
    apply,
    available_commands,
    new_game,
    playable_tactics,
)
from pi_app.rules.strike.error_codes import STRIKE_ERROR_CODES
from pi_app.rules.strike.queries import (
    attack_choices,
    continent_colours,
    continent_of_territory,
    decider,
    dice_counts,
    territory_colours,
    waiting_for,
)
from pi_app.rules.strike.redaction import redact_strike, redact_strike_event
from pi_app.rules.strike.state import PASSING_CHOICES, StrikeRules, StrikeState

__all__ = [
    "COMMAND_TYPES", "PASSING_CHOICES", "SETTING_COMMANDS", "STRIKE_ERROR_CODES", "TABLE",
    "ChoosePassing", "CloseWindow", "DeclareAttack", "Deploy",
    "Draw", "EndAttack", "Event", "Outcome", "Pass", "PassTurn", "PlayArtillery",
    "PlayBombard", "PlayCancelOrders", "PlayExpand", "PlayRally", "PlaySabotage", "PlaySpy",
    "Roll", "RuleError", "StrikeDeck", "StrikeRules", "StrikeState", "answers", "apply",
    "attack_choices", "available_commands",
    "command_from_dict", "continent_colours", "continent_of_territory", "decider",
    "dice_counts", "load_strike_deck", "new_game", "playable_tactics", "redact_strike",
    "redact_strike_event", "territory_colours", "waiting_for",
]
