"""Classic setup (docs/RULES.md §2.2): first-player dice, claim or deal, then the deck shuffle.

Every chance draw comes from the rng passed to `new_game`, in this order:
claim: first-player dice (re-rolling ties), deck shuffle.
deal: first-player dice, territory shuffle, deck shuffle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.cards import shuffle
from pi_app.rules.events import Event
from pi_app.rules.state import CLAIM, SETUP_PLACE

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.state import GameState
    from pi_app.rules.variants.base import Variant


def roll_for_first(players: list[str], rng: RandomSource, events: list[Event]) -> str:
    """Everyone rolls one die; the highest starts; tied highest re-roll among themselves."""
    contenders = list(players)
    while True:
        faces = rng.roll(len(contenders))
        rolls = dict(zip(contenders, faces))
        events.append(Event("first_player_roll", rolls=rolls))
        best = max(faces)
        contenders = [p for p in contenders if rolls[p] == best]
        if len(contenders) == 1:
            return contenders[0]


def seat_order_from(players: list[str], first: str) -> list[str]:
    """The players in turn order (to the left) starting with `first`."""
    i = players.index(first)
    return players[i:] + players[:i]


def classic_setup(variant: Variant, state: GameState, board: Board, deck: Deck,
                  roster: Roster, rng: RandomSource, events: list[Event]) -> None:
    """Set up a Classic game with `state.house_rules.setup` (or the variant's default)."""
    method = state.house_rules.setup
    if method == "default":
        method = variant.default_setup
    start = variant.starting_armies(roster, len(state.players))
    for p in state.players:
        state.reserves[p] = start
    first = roll_for_first(state.players, rng, events)
    state.first_player = first
    state.current_player = first
    if method == "claim":
        state.phase = CLAIM
    else:
        cards = list(board.territories)
        shuffle(cards, rng)
        order = seat_order_from(state.players, first)
        for i, territory in enumerate(cards):
            player = order[i % len(order)]
            state.owner[territory] = player
            state.armies[territory] = 1
            state.reserves[player] -= 1
        state.phase = SETUP_PLACE
        events.append(Event("territories_dealt",
                            territories={p: state.territories_of(p) for p in order}))
    state.deck = list(deck.all_cards)
    shuffle(state.deck, rng)
    events.append(Event("deck_shuffled", cards=len(state.deck)))
    events.append(Event("setup_started", method=method, first_player=first,
                        starting_armies=start))
