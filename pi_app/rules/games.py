"""One entry point for every game the table plays: the board variants and RISK Strike.

The board engine (`pi_app.rules.engine`) and the Strike engine (`pi_app.rules.strike`)
have separate states; callers (the session, the table, the web) use these functions and
never need to know which engine a game belongs to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules import commands as board_commands
from pi_app.rules import engine
from pi_app.rules.commands import Command
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Outcome
from pi_app.rules.house_rules import HouseRules
from pi_app.rules.state import GameState

if TYPE_CHECKING:
    from typing_extensions import TypeIs  # typing's own from Python 3.13

    from pi_app.dice import RandomSource
    from pi_app.rules.strike.state import StrikeState

# RISK Strike's engine is imported inside the functions that need it, on first use: the
# board game never pays for it.
STRIKE = "strike"
_STRIKE_PREFIX = "strike_"

# The rules version each game is journaled with (its new_game entry's `rules_version`):
# raised whenever a rule change would replay an older journal differently. A journal
# without the field was written before it existed: version 1. RISK Strike 2: who a
# reaction window asks, passing for a battle and the attacker's Roll in a window (issue
# 23.13; Strike journals written before commit fdf43b5 already did not replay). RISK Strike
# 3: one window after deployment (supporters join it; the defender's deploy is their pass,
# Sabotage and Artillery at the defender's deploy step), after a roll only who can change
# something is asked, the attacker's EndAttack in a window, Pass (and Deploy) until a card,
# for the battle or until the next turn, Artillery on another player only (issue 23.13,
# waiting is the exception). RISK Strike 4: each seat's passing choice, and a window asks a
# seat that never chose only while its hand could change the result (issue 32.5): a Pass a
# Strike 3 window asked for may have nobody to answer now.
RULES_VERSIONS: dict[str, int] = {STRIKE: 4}


def rules_version(variant: str) -> int:
    """The rules version this code plays `variant` by."""
    return RULES_VERSIONS.get(variant, 1)


def new_game(variant: str, players: list[str],
             house_rules: HouseRules | dict[str, Any] | None, rng: RandomSource
             ) -> Outcome[Any]:
    """Start a game of any variant; `house_rules` may be the typed object or its dict form."""
    if variant == STRIKE:
        from pi_app.rules import strike

        if isinstance(house_rules, HouseRules):
            raise RuleError("bad_house_rules", "RISK Strike has its own house rules "
                            "(reaction_seconds, physical_dice); pass them as a dict.")
        return strike.new_game(players, house_rules, rng)
    if house_rules is None or isinstance(house_rules, HouseRules):
        rules = house_rules
    elif isinstance(house_rules, dict):
        rules = HouseRules.from_dict(house_rules)
    else:
        raise RuleError("bad_house_rules", "House rules must be a set of named options.")
    return engine.new_game(variant, players, rules, rng)


def house_rules_of(variant: str, value: HouseRules | dict[str, Any] | None) -> Any:
    """The typed house rules of a `variant` game from their dict form (RISK Strike has its
    own set, `StrikeRules`; the board variants share `HouseRules`)."""
    if variant == STRIKE:
        from pi_app.rules.strike import StrikeRules

        if isinstance(value, HouseRules):
            raise RuleError("bad_house_rules", "RISK Strike has its own house rules.")
        return StrikeRules.from_dict(value)
    if isinstance(value, HouseRules):
        return value
    return HouseRules.from_dict(value)


def apply(state: Any, command: Command, rng: RandomSource) -> Outcome[Any]:
    """Apply `command` to a game of any variant (see `engine.apply`)."""
    if state.variant == STRIKE:
        from pi_app.rules import strike

        return strike.apply(state, command, rng)
    return engine.apply(state, command, rng)


def command_from_dict(data: Any) -> Command:
    """Build a command of any variant from its dict form, or raise `bad_command`."""
    if isinstance(data, dict):
        kind = data.get("type")
        if isinstance(kind, str) and kind.startswith(_STRIKE_PREFIX):
            from pi_app.rules import strike

            return strike.command_from_dict(data)
    return board_commands.command_from_dict(data)


def state_from_dict(data: dict[str, Any]) -> Any:
    """Rebuild the state of any variant from its `to_dict()` form."""
    if isinstance(data, dict) and data.get("variant") == STRIKE:
        from pi_app.rules import strike

        return strike.StrikeState.from_dict(data)
    return GameState.from_dict(data)


def is_strike(state: object) -> TypeIs[StrikeState]:
    """True for a RISK Strike game (it has no map state: no owners, armies or phases of
    the board game)."""
    return getattr(state, "variant", None) == STRIKE
