"""Questions a user interface (or a bot) asks: what may be selected, attacked, moved now.

All functions are pure reads of the state. This is the face over `pi_app.rules.queries`
(Classic's answers, given the variant): the functions that depend on a variant resolve it
from `state.variant` here, once per question, and the rest are Classic's own.
"""

from __future__ import annotations

from pi_app.rules import queries
from pi_app.rules.board import load_map
from pi_app.rules.commands import Command
from pi_app.rules.queries import (
    attack_dice_range,
    awaiting_players,
    card_sets,
    classic_reinforcements,
    connected_through_own,
    continents_owned,
    defence_dice_range,
    legal_attacks_from,
    trade_value_next,
    waiting_for,
)
from pi_app.rules.state import GameState
from pi_app.rules.variants import get_variant

BOARD = load_map()

__all__ = [
    "attack_dice_range",
    "awaiting_players",
    "card_sets",
    "classic_legal_commands",
    "classic_reinforcements",
    "connected_through_own",
    "continents_owned",
    "defence_dice_range",
    "fortify_destinations",
    "legal_attacks_from",
    "legal_commands",
    "reinforcements_for",
    "selectable_territories",
    "trade_value_next",
    "waiting_for",
]


def reinforcements_for(state: GameState, player: str) -> int:
    """Armies `player` would receive at the start of a turn now (before cards)."""
    return get_variant(state.variant).reinforcements(state, BOARD, player)


def fortify_destinations(state: GameState, territory: str) -> list[str]:
    """Own territories `territory` may fortify to under the table's fortify rule."""
    return queries.fortify_destinations(get_variant(state.variant), state, territory)


def selectable_territories(state: GameState, player: str) -> list[str]:
    """Territories `player` may touch now to start an action (claim, place, attack, fortify)."""
    return queries.selectable_territories(get_variant(state.variant), state, player)


def legal_commands(state: GameState, player: str) -> list[Command]:
    """Legal commands for `player` now. Army counts are sampled (1, half and all) rather
    than listed one by one; every command returned is legal."""
    variant = get_variant(state.variant)
    own = variant.legal_commands(state, player)
    return own if own is not None else queries.classic_legal_commands(variant, state, player)


def classic_legal_commands(state: GameState, player: str) -> list[Command]:
    """`legal_commands` as Classic RISK answers it, whatever the variant's own answer."""
    return queries.classic_legal_commands(get_variant(state.variant), state, player)
