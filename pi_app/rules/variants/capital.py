"""Capital RISK (docs/RULES.md §4, docs/MAP_AND_CARDS.md §4): Classic plus secret headquarters.

After Classic setup the phase is `hq_pick`: every seat sends `PickHQ(player, territory)`
for one of its own territories, in any order (a pick may be changed until the last seat
has picked). Picks are private (`state.hq`, event `hq_chosen`) until all are in; then
`state.hq_revealed` becomes true, the public event `hq_revealed` lists them and the first
turn begins.

HQ cards (docs/RULES.md §4): an HQ card is the HQ territory's own RISK card, turned face up at
the reveal. When the HQs are revealed those territory cards leave the draw deck, the
discard and any hand for good (public event `hq_cards_set_apart`; the deck then holds 44
minus the number of players), so nobody can draw or trade them; a TradeCards naming one is
refused (`hq_card_in_set`). The holder of each HQ card is whoever owns that HQ territory:
`state.variant_data["hq_holders"]` ({hq owner: holder}) and the public event `hq_captured`
on every change.

Victory: control every HQ on the board, your own included; with
`house_rules.capital_short_game`, your own plus any 2 enemy HQs with 4 players, plus any 3
with 5 or 6 (3 players: the full game). The last player standing also wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_app.rules.board import load_map
from pi_app.rules.commands import PickHQ, TradeCards
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event
from pi_app.rules.state import HQ_PICK
from pi_app.rules.steps import own_territory, require_phase, start_turn, trade_classic
from pi_app.rules.variants.base import Variant

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.commands import Command
    from pi_app.rules.state import GameState

SHORT_GAME_ENEMY_HQS = {4: 2, 5: 3, 6: 3}
BOARD = load_map()


def enemy_hqs_needed(state: GameState) -> int:
    """How many enemy HQs a player must hold (besides their own) to win this game.

    >>> from pi_app.dice import SeededSource
    >>> from pi_app.rules import HouseRules, new_game
    >>> short = HouseRules(capital_short_game=True)
    >>> [enemy_hqs_needed(new_game("capital", ["red", "blue", "green", "yellow", "black",
    ...                                        "pink"][:n], short, SeededSource(0)).state)
    ...  for n in (3, 4, 5, 6)]
    [2, 2, 3, 3]
    """
    players = len(state.players)
    if state.house_rules.capital_short_game and players in SHORT_GAME_ENEMY_HQS:
        return SHORT_GAME_ENEMY_HQS[players]
    return players - 1


def hq_holders(state: GameState) -> dict[str, str | None]:
    """{HQ owner colour: colour now holding that HQ card (the HQ territory's owner)}."""
    owner = state.owner
    return {p: owner[t] for p, t in state.hq.items()}


def _pick_hq(variant: Variant, state: GameState, cmd: PickHQ, rng: RandomSource,
             events: list[Event]) -> None:
    require_phase(state, HQ_PICK, doing="pick a headquarters")
    player = cmd.player
    own_territory(state, player, cmd.territory)
    changed = player in state.hq
    state.hq[player] = cmd.territory
    events.append(Event("hq_chosen", player=player, territory=cmd.territory, changed=changed))
    if len(state.hq) < len(state.players):
        state.current_player = next(p for p in state.players if p not in state.hq)
        return
    state.hq = {p: state.hq[p] for p in state.players}
    state.hq_revealed = True
    state.variant_data["hq_holders"] = hq_holders(state)
    events.append(Event("hq_revealed", hq=dict(state.hq)))
    set_hq_cards_apart(state, events)
    start_turn(variant, state, state.first_player, events, first=True)


def hq_cards(state: GameState) -> list[str]:
    """The HQ cards (the HQ territories' own RISK cards), in seat order; empty before the
    reveal."""
    return [state.hq[p] for p in state.players if p in state.hq] if state.hq_revealed else []


def set_hq_cards_apart(state: GameState, events: list[Event]) -> None:
    """At the reveal: the HQ territories' cards leave the deck, the discard and every hand
    for good; they are the HQ cards from now on."""
    apart = hq_cards(state)
    gone = set(apart)
    state.deck = [c for c in state.deck if c not in gone]
    state.discard = [c for c in state.discard if c not in gone]
    for player, hand in state.hands.items():
        state.hands[player] = [c for c in hand if c not in gone]
    events.append(Event("hq_cards_set_apart", cards=apart, deck=len(state.deck)))


def _trade(variant: Variant, state: GameState, cmd: TradeCards, rng: RandomSource,
           events: list[Event]) -> None:
    if state.hq_revealed and isinstance(cmd.cards, tuple | list):
        apart = state.hq.values()
        for card in cmd.cards:
            if card in apart:
                raise RuleError("hq_card_in_set", f"{BOARD.names[card]}'s card is an HQ card; "
                                "HQ cards are never part of a set.")
    trade_classic(variant, state, cmd, rng, events)


class Capital(Variant):
    """Capital RISK: Classic with secret HQs and the HQ victory."""

    name = "capital"
    handlers = {PickHQ: _pick_hq, TradeCards: _trade}
    any_seat_commands = frozenset({PickHQ})

    def setup_done(self, state: GameState, events: list[Event]) -> None:
        """Starting armies placed: every seat now picks a headquarters in secret."""
        state.phase = HQ_PICK
        state.current_player = state.players[0]
        state.variant_data["hq_needed"] = enemy_hqs_needed(state)
        events.append(Event("phase", player=None, phase=HQ_PICK))

    def after_conquest(self, state: GameState, target: str, previous_owner: str,
                       events: list[Event]) -> None:
        """A conquered HQ changes hands: its card goes to the conqueror."""
        for hq_of, territory in state.hq.items():
            if territory == target:
                state.variant_data["hq_holders"][hq_of] = state.owner[target]
                events.append(Event("hq_captured", player=state.owner[target], hq_of=hq_of,
                                    territory=target, previous=previous_owner))

    def check_victory(self, state: GameState) -> str | None:
        """Own HQ held plus enough enemy HQs (current player first); or last standing."""
        last = super().check_victory(state)
        if last is not None or not state.hq_revealed:
            return last
        holders = state.variant_data["hq_holders"]
        needed = enemy_hqs_needed(state)
        players = state.players
        start = players.index(state.current_player)
        for i in range(len(players)):
            p = players[(start + i) % len(players)]
            if p in state.eliminated or holders.get(p) != p:
                continue
            enemy = sum(1 for hq_of, holder in holders.items() if holder == p and hq_of != p)
            if enemy >= needed:
                return p
        return None

    def legal_commands(self, state: GameState, player: str) -> list[Command] | None:
        """During the HQ pick: every own territory is a legal pick (for every seat)."""
        if state.phase != HQ_PICK or state.winner is not None:
            return None
        return [PickHQ(player, t) for t in state.territories_of(player)]


CAPITAL = Capital()

