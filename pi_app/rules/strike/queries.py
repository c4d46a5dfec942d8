"""Questions about a Strike game that read like the rule book (pure, never mutate).

`continent_colours(state)` is what the board lights: each continent lit in the colour of
its coin holder (None = unlit). A territory touch selects its continent when declaring an
attack: map it with `pi_app.rules.board.load_map().continent_of[territory_id]` (see
`continent_of_territory`).
"""

from __future__ import annotations

from pi_app.rules.board import load_map
from pi_app.rules.strike.deck import load_strike_deck
from pi_app.rules.strike.state import (
    ATTACKER,
    ATTACKER_DEPLOY,
    CHOOSE,
    DEFENDER,
    DEFENDER_DEPLOY,
    DRAW,
    READY,
    StrikeState,
)

ATTACK_DICE_MAX = 3
DEFENCE_DICE_MAX = 2


def decider(state: StrikeState) -> str | None:
    """The one player whose decision the game waits for, or None (window open, game over)."""
    if state.winner is not None or state.window is not None:
        return None
    if state.phase in (DRAW, CHOOSE):
        return state.current_player
    battle = state.battle
    if battle is None:
        return None
    step = battle["step"]
    if step in (ATTACKER_DEPLOY, READY):
        return str(battle["attacker"])
    if step == DEFENDER_DEPLOY:
        return str(battle["defender"])
    return None


def waiting_for(state: StrikeState) -> list[str]:
    """Every player the game waits for now: the window's players who have not passed, or
    the one decider (empty once the game is over)."""
    window = state.window
    if state.winner is not None:
        return []
    if window is not None:
        passed = window["passed"]
        return [p for p in window["eligible"] if p not in passed]
    who = decider(state)
    return [] if who is None else [who]


def attack_choices(state: StrikeState, player: str) -> dict[str, dict[str, list[str]]]:
    """Every attack `player` may declare, as {defender: {attacking continent: [defending
    continents]}}: defenders in seat order after the player, each holding a card of a
    defending continent that is the same as, or connected to, one the player holds a card
    of (RULES §7, attack step 1). Empty: no attack is possible (only passing the turn)."""
    deck = load_strike_deck()
    seats = state.players
    start = seats.index(player)
    mine = [c for c in deck.continents if state.cards_of(player, c) > 0]
    choices: dict[str, dict[str, list[str]]] = {}
    for defender in seats[start + 1:] + seats[:start]:
        by_source = {}
        for source in mine:
            targets = [c for c in deck.continents if deck.may_attack(source, c)
                       and state.cards_of(defender, c) > 0]
            if targets:
                by_source[source] = targets
        if by_source:
            choices[defender] = by_source
    return choices


def side_troops(state: StrikeState, side: str) -> int:
    """Active troop cards on `side` ("attacker" or "defender") of the current battle."""
    battle = state.battle
    if battle is None:
        return 0
    return sum(1 for t in battle["troops"] if t["side"] == side)


def dice_counts(state: StrikeState) -> tuple[int, int]:
    """(attack dice, defence dice) for the next roll: continent cards of the continent in
    play plus active troop cards, capped at 3 and 2."""
    battle = state.battle
    if battle is None:
        return (0, 0)
    attack = state.cards_of(battle["attacker"], battle["attack_continent"])
    defence = state.cards_of(battle["defender"], battle["defence_continent"])
    return (min(ATTACK_DICE_MAX, attack + side_troops(state, ATTACKER)),
            min(DEFENCE_DICE_MAX, defence + side_troops(state, DEFENDER)))


def continent_colours(state: StrikeState) -> dict[str, str | None]:
    """Continent id -> the colour of its domination coin's holder (None: still in the pile)."""
    return dict(state.coins)


def territory_colours(state: StrikeState) -> dict[str, str | None]:
    """Territory id -> the colour its continent is lit in (the coin holder's, or None)."""
    board = load_map()
    return {t: state.coins[board.continent_of[t]] for t in board.territories}


def continent_of_territory(territory: str) -> str:
    """The continent a touched territory selects (KeyError for an unknown territory id)."""
    return load_map().continent_of[territory]
