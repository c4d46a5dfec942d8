"""Moving RISK Strike cards between piles: drawing (with reshuffle), domination coins, victory.

**Decision (docs/RULES.md and the seed are silent on empty decks):** a deck is refilled only at
the moment a card must be drawn from it and it is empty:
- the tactics deck is refilled by shuffling the tactics discard pile;
- the continent deck is refilled by shuffling the central surrendered pile (the only place
  continent cards leave play for).
If both a deck and its refill pile are empty, fewer cards are drawn (a turn's Draw must then
take what is left, see `engine`). Every shuffle is Fisher–Yates with `rng.below(i + 1)`.

Domination (docs/RULES.md §7): whenever a player's count of a continent's cards grows to at least
that continent's domination number and they do not hold its coin, they take it, from the
pile or from whoever holds it. Coins are never lost otherwise. Holding `coins_to_win` (2)
coins wins at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.cards import shuffle
from pi_app.rules.events import Event
from pi_app.rules.strike.deck import kind_of, load_strike_deck
from pi_app.rules.strike.state import GAME_OVER, StrikeState

if TYPE_CHECKING:
    from pi_app.dice import RandomSource

DECK = load_strike_deck()


def continents_available(state: StrikeState) -> int:
    """Continent cards that can still be drawn (deck plus the surrendered pile)."""
    return len(state.continent_deck) + len(state.surrendered)


def tactics_available(state: StrikeState) -> int:
    """Tactics cards that can still be drawn (deck plus the discard pile)."""
    return len(state.tactics_deck) + len(state.discard)


# which deck -> (its attribute, the attribute of the pile that refills it)
_PILES = {"continent": ("continent_deck", "surrendered"), "tactics": ("tactics_deck", "discard")}


def _take(state: StrikeState, which: str, count: int, rng: RandomSource,
          events: list[Event]) -> list[str]:
    """Take up to `count` cards off the top of a deck, refilling it once it is empty."""
    deck_name, refill_name = _PILES[which]
    drawn: list[str] = []
    for _ in range(count):
        if not getattr(state, deck_name):
            refill = getattr(state, refill_name)
            if not refill:
                break
            setattr(state, refill_name, [])
            setattr(state, deck_name, refill)
            shuffle(refill, rng)
            events.append(Event("deck_reshuffled", deck=which, cards=len(refill)))
        drawn.append(getattr(state, deck_name).pop())
    return drawn


def draw_tactics(state: StrikeState, player: str, count: int, rng: RandomSource,
                 events: list[Event]) -> list[str]:
    """Draw up to `count` tactics cards into `player`'s hand (event private to them)."""
    drawn = _take(state, "tactics", count, rng, events)
    if drawn:
        state.hands[player].extend(drawn)
        events.append(Event("tactics_drawn", player=player, cards=drawn))
    return drawn


def draw_continents(state: StrikeState, player: str, count: int, rng: RandomSource,
                    events: list[Event]) -> list[str]:
    """Draw up to `count` continent cards face up in front of `player`, then check coins."""
    drawn = _take(state, "continent", count, rng, events)
    if drawn:
        state.tables[player].extend(drawn)
        events.append(Event("continents_drawn", player=player, cards=drawn))
        for continent in dict.fromkeys(kind_of(card) for card in drawn):
            check_domination(state, player, continent, events)
    return drawn


def check_domination(state: StrikeState, player: str, continent: str,
                     events: list[Event]) -> None:
    """After `player` gained cards of `continent`: take its coin if they reach the number."""
    if state.winner is not None:
        return
    holder = state.coins[continent]
    if holder == player or state.cards_of(player, continent) < DECK.domination[continent]:
        return
    state.coins[continent] = player
    events.append(Event("coin_taken", player=player, continent=continent, source=holder))
    if len(state.coins_of(player)) >= DECK.coins_to_win:
        state.winner = player
        state.phase = GAME_OVER
        events.append(Event("game_won", winner=player, coins=state.coins_of(player)))


def combatant_side(state: StrikeState, player: str) -> str | None:
    """"attacker" or "defender" if `player` fights the current battle in person, else None."""
    battle = state.battle
    if battle is None:
        return None
    if player == battle["attacker"]:
        return "attacker"
    if player == battle["defender"]:
        return "defender"
    return None


def active_troops(state: StrikeState, player: str) -> int:
    """How many troop cards `player` has in the current battle (on whichever side)."""
    battle = state.battle
    if battle is None:
        return 0
    return sum(1 for troop in battle["troops"] if troop["player"] == player)


def take_troops(state: StrikeState, player: str, side: str, count: int) -> list[str]:
    """Move `count` troop cards from `player`'s hand into the battle on `side`."""
    assert state.battle is not None
    hand = state.hands[player]
    cards = [card for card in hand if card.startswith("troops.")][:count]
    for card in cards:
        hand.remove(card)
        state.battle["troops"].append({"player": player, "side": side, "card": card})
    return cards


def discard_troops(state: StrikeState, player: str | None = None, side: str | None = None,
                   limit: int | None = None) -> list[dict[str, str]]:
    """Discard active troop cards (of `player` and/or `side`), the last deployed first."""
    assert state.battle is not None
    troops = state.battle["troops"]
    chosen = [t for t in reversed(troops)
              if (player is None or t["player"] == player) and (side is None or t["side"] == side)]
    if limit is not None:
        chosen = chosen[:limit]
    for troop in chosen:
        troops.remove(troop)
        state.discard.append(troop["card"])
    return chosen
