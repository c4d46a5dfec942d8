"""The one list of the games the table plays (`GAMES`, `VARIANT_NAMES`) and the registry of
board variants (`get_variant(name)`).

`GAMES` says what each game can do (`GameInfo`: its player limits, whether it is the card
game with its own engine, how many seats a bot game takes by default); code outside the
rules asks those flags, never a game's name (issue 35.1), and every other list of variants
(the config's choices, the host page's catalogue, the CLI's choices) derives from it.

Each variant is a small module in this package: a `Variant` subclass (`variants.base`,
Classic's hooks) overriding a few hooks. The registry sits above them (the variant modules
never import it): variant modules (`mission`, `capital`, `two_player`, `allied`) are
imported on first use by `get_variant`, so the Classic hot path never pays for them. RISK
Strike has its own engine (`pi_app.rules.strike`); asking this registry for it raises
RuleError("variant_not_available").
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from pi_app.rules.errors import RuleError
from pi_app.rules.variants.base import Variant
from pi_app.rules.variants.classic import CLASSIC

__all__ = ["GAMES", "PLANNED", "VARIANTS", "VARIANT_NAMES", "GameInfo", "Variant",
           "game_info", "get_variant", "register_variant"]


@dataclass(frozen=True)
class GameInfo:
    """What one game the table plays can do, for callers that must not ask its name.

    `player_limits` is (fewest, most) seats its engine accepts; `own_rules` is True for
    every game that is not Classic RISK as the rule book plays it (its own setup, phases,
    commands or victory: a bot that knows only Classic cannot play it); `card_game` is True
    for RISK Strike: tactics cards, coins and dice on its own engine (`pi_app.rules.strike`),
    with no armies on the map's territories, its own house rules, state, redaction and bot."""

    name: str
    player_limits: tuple[int, int]
    own_rules: bool = True
    card_game: bool = False

    @property
    def default_players(self) -> int:
        """Seats a bot game takes when none are asked for: 4 where the game allows it."""
        low, high = self.player_limits
        return max(low, min(4, high))


# The one list of the games, in the order people are offered them. The engines check the
# same limits (Variant.player_limits, RISK Strike's engine); tests/rules/test_games_list.py
# holds them together.
GAMES: dict[str, GameInfo] = {g.name: g for g in (
    GameInfo("classic", (3, 6), own_rules=False),
    GameInfo("mission", (3, 6)),
    GameInfo("capital", (3, 6)),
    GameInfo("two-player", (2, 2)),
    GameInfo("allied", (2, 2)),
    GameInfo("strike", (2, 5), card_game=True),
)}

VARIANTS: dict[str, Variant] = {"classic": CLASSIC}
# name -> (module, the module's variant object)
_MODULES = {
    "mission": ("pi_app.rules.variants.mission", "SECRET_MISSION"),
    "capital": ("pi_app.rules.variants.capital", "CAPITAL"),
    "two-player": ("pi_app.rules.variants.two_player", "TWO_PLAYER"),
    "allied": ("pi_app.rules.variants.allied", "ALLIED_VARIANT"),
}
PLANNED = tuple(name for name, game in GAMES.items() if game.card_game)  # not this engine's
VARIANT_NAMES = tuple(GAMES)


def game_info(name: str) -> GameInfo:
    """What the game called `name` can do, or RuleError("unknown_variant")."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RuleError("unknown_variant", f"There is no variant called {name!r}; choose "
                        "one of " + ", ".join(VARIANT_NAMES) + ".")
    return game


def register_variant(variant: Variant) -> Variant:
    """Make `variant` available to `new_game` under `variant.name`."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The registered variant called `name`, or RuleError naming what is available."""
    variant = VARIANTS.get(name)
    if variant is not None:
        return variant
    found = _MODULES.get(name) if isinstance(name, str) else None
    if found is not None:
        module, attribute = found
        return register_variant(getattr(importlib.import_module(module), attribute))
    if name in VARIANT_NAMES:
        raise RuleError("variant_not_available",
                        f"The {name} variant has its own engine (pi_app.rules.strike); "
                        "this board engine plays classic, mission, capital, two-player "
                        "and allied.")
    raise RuleError("unknown_variant",
                    f"There is no variant called {name!r}; choose one of "
                    + ", ".join(VARIANT_NAMES) + ".")
