"""Card sets: which three cards make a set, finding sets in a hand, drawing with reshuffle."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from pi_app.rules.board import Deck

if TYPE_CHECKING:
    from pi_app.dice import RandomSource


def is_set(cards: tuple[str, ...] | list[str], deck: Deck) -> bool:
    """Three of one symbol, one of each symbol, or any two plus a wild."""
    if len(cards) != 3:
        return False
    symbols = [deck.symbols[c] for c in cards]
    if "wild" in symbols:
        return True
    distinct = len(set(symbols))
    return distinct in (1, 3)


def find_sets(hand: list[str], deck: Deck) -> list[tuple[str, str, str]]:
    """Every distinct 3-card set in `hand`, in hand order."""
    return [combo for combo in combinations(hand, 3) if is_set(combo, deck)]


def shuffle(items: list[str], rng: RandomSource) -> None:
    """Fisher–Yates in place with `rng.below`, exactly as contract A prescribes."""
    below = rng.below
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
