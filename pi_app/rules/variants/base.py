"""The base `Variant`: Classic RISK's hooks, which the other variants override.

A variant subclasses `Variant` and overrides only what differs: `player_limits`,
`default_setup`, `setup`, `setup_done`, `reinforcements`, `check_victory`, `on_victory`,
`defence_chooser`, `after_conquest`, `next_player`, `turn_started`,
`fortify_in_attack_phase`, plus `handlers` (its own commands, or Classic commands it handles
differently in some phase; a handler is `(variant, state, command, rng, events)`),
`any_seat_commands` (commands any seat may give, e.g. the secret HQ pick), `after_command`
(run after every accepted command, e.g. the mission check) and `legal_commands` (the
questions a UI or bot asks, where the variant differs).

Layering: this module and the variant modules build on Classic's steps (`steps`, `setup`,
`queries`) and the data modules; they never import the registry (`pi_app.rules.variants`),
the engine or `legal`, which sit above them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pi_app.rules.queries import classic_reinforcements
from pi_app.rules.setup import classic_setup
from pi_app.rules.steps import start_turn

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.commands import Command
    from pi_app.rules.events import Event
    from pi_app.rules.state import GameState


class Variant:
    """Classic RISK's hooks; other variants subclass and override a few of them."""

    name = "classic"
    player_limits = (3, 6)
    default_setup = "claim"
    handlers: ClassVar[dict[type, Any]] = {}  # (variant, state, cmd, rng, events) -> None
    any_seat_commands: ClassVar[frozenset[type]] = frozenset()
    after_command: Any = None  # or a method (state, command, events) -> None

    def starting_armies(self, roster: Roster, player_count: int) -> int:
        """Armies each player starts with."""
        return roster.starting_armies[player_count]

    def setup(self, state: GameState, board: Board, deck: Deck, roster: Roster,
              rng: RandomSource, events: list[Event]) -> None:
        """Fill in a fresh state: first player, territories (deal) or claim phase, deck."""
        classic_setup(self, state, board, deck, roster, rng, events)

    def setup_done(self, state: GameState, events: list[Event]) -> None:
        """Every starting army is placed: begin the first turn (Capital: pick HQs first)."""
        start_turn(self, state, state.first_player, events, first=True)

    def reinforcements(self, state: GameState, board: Board, player: str) -> int:
        """Armies `player` receives at the start of their turn (before cards)."""
        return classic_reinforcements(state, board, player)

    def check_victory(self, state: GameState) -> str | None:
        """The winner now, or None. Classic: the last player standing."""
        active = [p for p in state.players if p not in state.eliminated]
        return active[0] if len(active) == 1 else None

    def on_victory(self, state: GameState, winner: str, events: list[Event]) -> None:
        """Hook run once the game is won (Secret Mission reveals the winning card)."""

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

    def turn_started(self, state: GameState, player: str, reinforcements: int,
                     events: list[Event]) -> None:
        """Hook run after a turn's `reinforcements` are given (Allied Army: half of them)."""

    def fortify_in_attack_phase(self, state: GameState) -> bool:
        """Whether Fortify may be given straight from the attack phase (Allied: not while
        the Allied Army still has its phase to play)."""
        return True

    def legal_commands(self, state: GameState, player: str) -> list[Command] | None:
        """The variant's own answer to `legal.legal_commands`, or None to use Classic's
        (`queries.classic_legal_commands`)."""
        return None
