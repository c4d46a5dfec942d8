"""Variants as small objects overriding a few hooks of Classic RISK.

A variant subclasses `Variant` (the Classic behaviour) and overrides only what differs:
`player_limits`, `default_setup`, `setup`, `reinforcements`, `check_victory`,
`defence_chooser`, `after_conquest`, `next_player`, `turn_started` (turn steps such as the
Allied Army's move hang off these two). Register it in `VARIANTS` with `register_variant`.
Names reserved by contract B but not built yet are in `PLANNED`; asking for one raises
RuleError("variant_not_available").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.errors import RuleError

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.events import Event
    from pi_app.rules.state import GameState


class Variant:
    """Classic RISK's hooks; other variants subclass and override a few of them."""

    name = "classic"
    player_limits = (3, 6)
    default_setup = "claim"

    def starting_armies(self, roster: Roster, player_count: int) -> int:
        """Armies each player starts with."""
        return roster.starting_armies[player_count]

    def setup(self, state: GameState, board: Board, deck: Deck, roster: Roster,
              rng: RandomSource, events: list[Event]) -> None:
        """Fill in a fresh state: first player, territories (deal) or claim phase, deck."""
        from pi_app.rules.setup import classic_setup
        classic_setup(self, state, board, deck, roster, rng, events)

    def reinforcements(self, state: GameState, board: Board, player: str) -> int:
        """Armies `player` receives at the start of their turn (before cards)."""
        from pi_app.rules.legal import classic_reinforcements
        return classic_reinforcements(state, board, player)

    def check_victory(self, state: GameState) -> str | None:
        """The winner now, or None. Classic: the last player standing."""
        active = [p for p in state.players if p not in state.eliminated]
        return active[0] if len(active) == 1 else None

    def defence_chooser(self, state: GameState, target: str) -> str:
        """Who decides the defence dice for `target` (the owner; neutral: the other player)."""
        owner = state.owner[target]
        assert owner is not None
        return owner

    def after_conquest(self, state: GameState, target: str, previous_owner: str,
                       events: list[Event]) -> None:
        """Hook for variants that react to a conquest (capital HQs, missions)."""

    def next_player(self, state: GameState, player: str) -> str:
        """Whose turn follows `player`'s: the next seat to the left still in the game."""
        players = state.players
        i = players.index(player)
        for step in range(1, len(players) + 1):
            nxt = players[(i + step) % len(players)]
            if nxt not in state.eliminated:
                return nxt
        return player

    def turn_started(self, state: GameState, player: str, events: list[Event]) -> None:
        """Hook run after a turn's reinforcements are given (e.g. Allied Army reinforcement)."""


VARIANTS: dict[str, Variant] = {"classic": Variant()}
PLANNED = ("mission", "capital", "two-player", "allied", "strike")
VARIANT_NAMES = ("classic", *PLANNED)


def register_variant(variant: Variant) -> Variant:
    """Make `variant` available to `new_game` under `variant.name`."""
    VARIANTS[variant.name] = variant
    return variant


def get_variant(name: str) -> Variant:
    """The registered variant called `name`, or RuleError naming what is available."""
    variant = VARIANTS.get(name)
    if variant is not None:
        return variant
    if name in VARIANT_NAMES:
        raise RuleError("variant_not_available",
                        f"The {name} variant is not available yet; play classic for now.")
    raise RuleError("unknown_variant",
                    f"There is no variant called {name!r}; choose one of "
                    + ", ".join(VARIANT_NAMES) + ".")
