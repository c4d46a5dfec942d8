"""Classic's answers to the questions a user interface (or a bot) asks: what may be
selected, attacked, moved or traded now. Pure reads of the state.

Functions that depend on a variant's hooks take the variant as their first argument;
`pi_app.rules.legal` is the face that resolves the variant from the state and asks these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.battle import attack_dice_limit, defence_dice_limit
from pi_app.rules.board import Board, load_cards, load_map
from pi_app.rules.cards import find_sets
from pi_app.rules.commands import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    Command,
    EndAttack,
    EndTurn,
    Fortify,
    MoveIn,
    Place,
    TradeCards,
)
from pi_app.rules.state import (
    ALLIED,
    ATTACK,
    CLAIM,
    FORTIFY,
    HQ_PICK,
    REINFORCE,
    SETUP_PLACE,
    GameState,
)

if TYPE_CHECKING:
    from pi_app.rules.variants.base import Variant

BOARD = load_map()
DECK = load_cards()
ADJACENCY = dict(BOARD.adjacency)  # a plain dict: read in every fortify question


def classic_reinforcements(state: GameState, board: Board, player: str) -> int:
    """max(3, territories // 3) plus the bonus of every continent `player` fully owns."""
    owner = state.owner
    count = sum(1 for o in owner.values() if o == player)
    total = max(3, count // 3)
    for continent, members in board.members.items():
        if all(owner[t] == player for t in members):
            total += board.bonuses[continent]
    return total


def continents_owned(state: GameState, player: str) -> list[str]:
    """The continents `player` fully owns, in map order."""
    owner = state.owner
    return [c for c in BOARD.continents if all(owner[t] == player for t in BOARD.members[c])]


def trade_value_next(state: GameState) -> int:
    """Armies the next set traded at the table is worth."""
    return DECK.trade_value(state.trade_count)


def card_sets(state: GameState, player: str) -> list[tuple[str, str, str]]:
    """Every set `player` could trade from their hand."""
    return find_sets(state.hands[player], DECK)


def legal_attacks_from(state: GameState, territory: str) -> list[str]:
    """Enemy territories that `territory` may attack now (empty if it cannot attack)."""
    owner = state.owner.get(territory)
    if owner is None or state.pending is not None or state.armies[territory] < 2:
        return []
    owners = state.owner
    phase = state.phase
    if phase == ATTACK and owner == state.current_player:
        return [t for t in BOARD.neighbours[territory] if owners[t] != owner]
    data = state.variant_data
    if phase == ALLIED and owner == data["army"] and not data["reserve"]:
        # once its reserve is placed, the Allied Army attacks only the turn player
        turn_of = data["allied_turn"]["turn_of"]
        return [t for t in BOARD.neighbours[territory] if owners[t] == turn_of]
    return []


def attack_dice_range(state: GameState, source: str) -> tuple[int, int]:
    """(min, max) attack dice from `source`; max 0 means it cannot attack."""
    top = attack_dice_limit(state.armies[source])
    return (1, top) if top >= 1 else (0, 0)


def defence_dice_range(state: GameState, target: str) -> tuple[int, int]:
    """(min, max) defence dice for `target`."""
    return 1, defence_dice_limit(state.armies[target])


def connected_through_own(state: GameState, player: str, source: str) -> set[str]:
    """Territories reachable from `source` through a chain of `player`'s territories."""
    mine = {t for t, o in state.owner.items() if o == player}
    adjacency = ADJACENCY
    seen = {source}
    frontier = [source]
    while frontier:
        new = (adjacency[frontier.pop()] & mine) - seen
        if new:
            seen |= new
            frontier.extend(new)
    seen.discard(source)
    return seen


def fortify_destinations(variant: Variant, state: GameState, territory: str) -> list[str]:
    """Own territories `territory` may fortify to under the table's fortify rule (and the
    variant's word on fortifying straight from the attack phase)."""
    player = state.owner.get(territory)
    if (player is None or player != state.current_player or state.pending is not None
            or state.phase not in (ATTACK, FORTIFY) or state.armies[territory] < 2):
        return []
    if state.phase == ATTACK and not variant.fortify_in_attack_phase(state):
        return []
    if state.house_rules.fortify == "adjacent":
        return [t for t in BOARD.neighbours[territory] if state.owner[t] == player]
    reach = connected_through_own(state, player, territory)
    return [t for t in BOARD.territories if t in reach]


def selectable_territories(variant: Variant, state: GameState, player: str) -> list[str]:
    """Territories `player` may touch now to start an action (claim, place, attack, fortify)."""
    if state.pending is not None:
        pending = state.pending
        if pending["player"] != player:
            return []
        if pending["kind"] == "trade_down" and len(state.hands[player]) <= 4:
            return state.territories_of(player)
        return []
    phase = state.phase
    if phase == HQ_PICK:
        return state.territories_of(player) if player in state.reserves else []
    if player != state.current_player:
        return []
    if phase == CLAIM:
        return [t for t, o in state.owner.items() if o is None]
    if phase == ALLIED:
        army = state.territories_of(state.variant_data["army"])
        if state.variant_data["reserve"]:
            return army
        return [t for t in army if legal_attacks_from(state, t)]
    if phase == SETUP_PLACE and state.variant_data.get("placing"):
        placing = state.variant_data["placing"]
        return ((state.territories_of(player) if placing["own"] else [])
                + (state.territories_of(state.variant_data["army"]) if placing["third"]
                   else []))
    if phase in (SETUP_PLACE, REINFORCE):
        if phase == REINFORCE and len(state.hands[player]) >= 5:
            return []
        return state.territories_of(player)
    if phase == ATTACK:
        return [t for t in state.territories_of(player)
                if legal_attacks_from(state, t) or fortify_destinations(variant, state, t)]
    if phase == FORTIFY:
        return [t for t in state.territories_of(player) if fortify_destinations(variant, state, t)]
    return []


def classic_legal_commands(variant: Variant, state: GameState, player: str) -> list[Command]:
    """`legal_commands` as Classic RISK answers it (variants filter or extend this)."""
    pending = state.pending
    if state.winner is not None:
        return []
    if pending is not None:
        if pending["player"] != player:
            return []
        kind = pending["kind"]
        if kind == "defend":
            return [ChooseDefence(player, n) for n in range(1, pending["max_dice"] + 1)]
        if kind == "move_in":
            return [MoveIn(player, n) for n in _sample(pending["min"], pending["max"])]
        hand = state.hands[player]
        if len(hand) > 4:
            return [TradeCards(player, s) for s in find_sets(hand, DECK)]
        return _places(state, player)
    if player != state.current_player:
        return []
    phase = state.phase
    if phase == CLAIM:
        return [Claim(player, t) for t, o in state.owner.items() if o is None]
    if phase == SETUP_PLACE:
        return [Place(player, t, 1) for t in state.territories_of(player)]
    if phase == REINFORCE:
        hand = state.hands[player]
        trades: list[Command] = [TradeCards(player, s) for s in find_sets(hand, DECK)]
        if len(hand) >= 5:
            return trades
        return trades + _places(state, player)
    out: list[Command] = []
    if phase == ATTACK:
        for source in state.territories_of(player):
            for target in legal_attacks_from(state, source):
                low, high = attack_dice_range(state, source)
                out.extend(Attack(player, source, target, n) for n in range(low, high + 1))
                if not state.house_rules.physical_dice:
                    out.append(Blitz(player, source, target, 1))
        out.append(EndAttack(player))
    for source in state.territories_of(player):
        for target in fortify_destinations(variant, state, source):
            out.extend(Fortify(player, source, target, n)
                       for n in _sample(1, state.armies[source] - 1))
    out.append(EndTurn(player))
    return out


def _places(state: GameState, player: str) -> list[Command]:
    counts = _sample(1, state.reserves[player])
    return [Place(player, t, n) for t in state.territories_of(player) for n in counts]


def _sample(low: int, high: int) -> list[int]:
    if high < low:
        return []
    return sorted({low, (low + high) // 2, high})


def waiting_for(state: GameState) -> str | None:
    """The colour whose decision the game waits for now (None once the game is over)."""
    if state.winner is not None:
        return None
    if state.pending is not None:
        player: str = state.pending["player"]
        return player
    return state.current_player


def awaiting_players(state: GameState) -> list[str]:
    """Every colour the game waits for now: during Capital's HQ pick all seats that have
    not picked yet (any seat may still change its pick), else just `waiting_for`."""
    if state.phase == HQ_PICK:
        return [p for p in state.players if p not in state.hq]
    who = waiting_for(state)
    return [] if who is None else [who]
