"""Two-player RISK with a neutral army (docs/RULES.md §5).

Setup: everyone (the two seats and "neutral") has 40 armies. The first-player dice are
rolled, the 42 territory cards (no wilds) are shuffled and dealt into three piles of 14 —
first player, second player, neutral, in turn — with 1 army on each. Then placing turns
alternate, starting with the first player: each puts `house_rules.two_player_placement`
[own, neutral] armies (default 2 own with `Place`, 1 neutral with `PlaceNeutral`, in any
order) until both seats' 40 are placed; neutral armies left over stay in its reserve. The
full deck with wilds is shuffled and the first player starts. `house_rules.setup` does not
apply (this game is always dealt).

Play is Classic. Neutral never attacks, reinforces or draws (it has no turn); attacking it,
the other seat chooses its defence dice (`pending.player` is that seat). Victory: the other
seat is eliminated; neutral need not be.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.cards import shuffle
from pi_app.rules.commands import Place, PlaceNeutral
from pi_app.rules.events import Event
from pi_app.rules.setup import roll_for_first, seat_order_from
from pi_app.rules.state import SETUP_PLACE
from pi_app.rules.steps import place_classic
from pi_app.rules.variants.base import Variant
from pi_app.rules.variants.third_army import (
    STARTING_ARMIES,
    TERRITORIES_EACH,
    defence_chooser,
    new_army_data,
    note_conquest,
    place_setup,
    place_third,
    setup_place_commands,
    start_placing_turn,
)

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.commands import Command
    from pi_app.rules.state import GameState

NEUTRAL = "neutral"


def _place(variant: Variant, state: GameState, cmd: Place, rng: RandomSource,
           events: list[Event]) -> None:
    if state.phase == SETUP_PLACE:
        place_setup(variant, state, cmd, rng, events)
    else:
        place_classic(variant, state, cmd, rng, events)


class TwoPlayerNeutral(Variant):
    """Two seats and a passive neutral army."""

    name = "two-player"
    player_limits = (2, 2)
    default_setup = "deal"
    handlers = {Place: _place, PlaceNeutral: place_third}

    def setup(self, state: GameState, board: Board, deck: Deck, roster: Roster,
              rng: RandomSource, events: list[Event]) -> None:
        """Three piles of 14, 40 armies each, then alternating placing turns."""
        first = roll_for_first(state.players, rng, events)
        state.first_player = first
        order = [*seat_order_from(state.players, first), NEUTRAL]
        state.variant_data = new_army_data(NEUTRAL, state.house_rules.two_player_placement,
                                           STARTING_ARMIES - TERRITORIES_EACH)
        cards = list(board.territories)
        shuffle(cards, rng)
        piles: dict[str, list[str]] = {p: [] for p in order}
        for i, territory in enumerate(cards):
            holder = order[i % len(order)]
            state.owner[territory] = holder
            state.armies[territory] = 1
            piles[holder].append(territory)
        for p in state.players:
            state.reserves[p] = STARTING_ARMIES - TERRITORIES_EACH
        events.append(Event("territories_dealt", territories=piles))
        state.deck = list(deck.all_cards)
        shuffle(state.deck, rng)
        events.append(Event("deck_shuffled", cards=len(state.deck)))
        state.phase = SETUP_PLACE
        start_placing_turn(state, first)
        events.append(Event("setup_started", method="deal", first_player=first,
                            starting_armies=STARTING_ARMIES, neutral=NEUTRAL,
                            placement=list(state.variant_data["quota"])))

    def defence_chooser(self, state: GameState, target: str) -> str:
        """Neutral territories are defended by the seat not attacking."""
        return defence_chooser(state, target)

    def after_conquest(self, state: GameState, target: str, previous_owner: str,
                       events: list[Event]) -> None:
        """Note when neutral loses its last territory (the game goes on)."""
        note_conquest(state, previous_owner, events)

    def legal_commands(self, state: GameState, player: str) -> list[Command] | None:
        """Setup placing turns: own and neutral placements."""
        if state.phase != SETUP_PLACE or player != state.current_player:
            return None
        return setup_place_commands(state, player)


TWO_PLAYER = TwoPlayerNeutral()
