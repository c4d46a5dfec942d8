"""Secret Mission RISK (docs/RULES.md §3, docs/MAP_AND_CARDS.md §3): Classic, a secret goal each.

Setup is Classic (deal by default), then the mission deck chosen by
`house_rules.mission_deck` ("us12" or "euro14") loses the destroy cards of colours nobody
plays, is shuffled (after the territory and RISK-deck shuffles) and one card is dealt to
each seat in seat order. `state.missions[colour]` = {"card", "text", "objective",
"fallback"}; the objective is what is checked:
  {"kind": "conquer", "continents": [...], "plus_any": n}   own those + n other continents
  {"kind": "occupy", "territories": n, "min_armies": m}    own n territories with m+ each
  {"kind": "destroy", "colour": c}                         c is eliminated
A destroy card naming the holder's own colour is dealt as "occupy 24" (fallback
"own_colour"). When another player eliminates the target: us12 -> the holder's mission is
complete (they win); euro14 -> the objective becomes "occupy 24" (fallback
"destroyed_by_other", private event `mission_changed`).

Decision (when missions start to count): missions are checked from the moment setup ends,
i.e. at the start of the first turn, before the first player acts; a mission already
complete then wins at once. No mission can win during setup (claiming or placing the
starting armies), however the board looks. From then on every mission is checked after
every accepted command, whoever caused the change (the seed's decision), and inside a
conquest before the move-in. If several missions are
complete at once, the player whose turn it is wins, else the first in seat order after
them. The last player standing also wins. The win reveals the winner's mission to all
(public event `mission_revealed`); the other missions stay secret.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.board import load_map, load_missions
from pi_app.rules.cards import shuffle
from pi_app.rules.events import Event
from pi_app.rules.steps import declare_winner
from pi_app.rules.variants.base import Variant

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.board import Board, Deck, Roster
    from pi_app.rules.commands import Command
    from pi_app.rules.state import GameState

BOARD = load_map()
OCCUPY_24 = {"kind": "occupy", "territories": 24, "min_armies": 1}


def objective_of(card: dict[str, Any]) -> dict[str, Any]:
    """The checkable goal printed on a mission card.

    >>> objective_of({"id": "occupy-24", "kind": "occupy", "territories": 24, "text": "..."})
    {'kind': 'occupy', 'territories': 24, 'min_armies': 1}
    """
    kind = card["kind"]
    if kind == "conquer":
        return {"kind": kind, "continents": list(card["continents"]),
                "plus_any": int(card.get("plus_any", 0))}
    if kind == "occupy":
        return {"kind": kind, "territories": int(card["territories"]),
                "min_armies": int(card.get("min_armies", 1))}
    return {"kind": kind, "colour": card["colour"]}


def mission_deck(name: str, players: list[str]) -> list[dict[str, Any]]:
    """The cards of deck `name` left after removing destroy cards of colours not in play."""
    cards = load_missions()["decks"][name]["cards"]
    return [c for c in cards if c["kind"] != "destroy" or c["colour"] in players]


def deal_missions(state: GameState, rng: RandomSource, events: list[Event]) -> None:
    """Shuffle the playable mission cards and deal one to each seat (seat order)."""
    cards = {c["id"]: c for c in mission_deck(state.house_rules.mission_deck, state.players)}
    order = list(cards)
    shuffle(order, rng)
    for player, card_id in zip(state.players, order):
        card = cards[card_id]
        mission = {"card": card_id, "text": card["text"], "objective": objective_of(card),
                   "fallback": None}
        if card["kind"] == "destroy" and card["colour"] == player:
            mission["objective"] = dict(OCCUPY_24)
            mission["fallback"] = "own_colour"
        state.missions[player] = mission
        events.append(Event("mission_dealt", player=player, mission=dict(mission)))
    events.append(Event("missions_dealt", players=list(state.players),
                        deck=state.house_rules.mission_deck, cards_in_deck=len(order)))


def mission_complete(state: GameState, player: str, objective: dict[str, Any]) -> bool:
    """Whether `objective` holds for `player` in `state` right now."""
    kind = objective["kind"]
    owner = state.owner
    if kind == "occupy":
        need: int = objective["territories"]
        armies, low = state.armies, objective["min_armies"]
        return sum(1 for t, o in owner.items() if o == player and armies[t] >= low) >= need
    if kind == "destroy":
        return objective["colour"] in state.eliminated
    members = BOARD.members
    named = objective["continents"]
    for c in named:
        if not all(owner[t] == player for t in members[c]):
            return False
    plus: int = objective["plus_any"]
    return plus == 0 or sum(1 for c, ts in members.items() if c not in named
                            and all(owner[t] == player for t in ts)) >= plus


class SecretMission(Variant):
    """Secret Mission RISK: the first player whose mission holds wins."""

    name = "mission"
    default_setup = "deal"

    def setup(self, state: GameState, board: Board, deck: Deck, roster: Roster,
              rng: RandomSource, events: list[Event]) -> None:
        """Classic setup, then the missions are dealt."""
        super().setup(state, board, deck, roster, rng, events)
        deal_missions(state, rng, events)
        self._check_missions(state, events)  # a setup that ends at once starts turn 1 here

    def after_conquest(self, state: GameState, target: str, previous_owner: str,
                       events: list[Event]) -> None:
        """euro14: a destroy target eliminated by someone else turns into occupy 24."""
        if previous_owner not in state.eliminated or state.owner[target] is None:
            return
        if load_missions()["decks"][state.house_rules.mission_deck][
                "destroyed_by_other"] != "occupy-24":
            return
        by = state.owner[target]
        for holder, mission in state.missions.items():
            objective = mission["objective"]
            if (objective["kind"] == "destroy" and objective["colour"] == previous_owner
                    and holder != by):
                mission["objective"] = dict(OCCUPY_24)
                mission["fallback"] = "destroyed_by_other"
                events.append(Event("mission_changed", player=holder, mission=dict(mission)))

    def check_victory(self, state: GameState) -> str | None:
        """The first complete mission (current player first, then seat order)."""
        players = state.players
        start = players.index(state.current_player)
        missions = state.missions
        for i in range(len(players)):
            p = players[(start + i) % len(players)]
            if p in state.eliminated or p not in missions:
                continue
            if mission_complete(state, p, missions[p]["objective"]):
                return p
        return super().check_victory(state)

    def after_command(self, state: GameState, command: Command, events: list[Event]) -> None:
        """Check every mission after every accepted command once setup has ended."""
        self._check_missions(state, events)

    def _check_missions(self, state: GameState, events: list[Event]) -> None:
        """Declare the winner of a complete mission; nothing while setup runs (turn 0)."""
        if state.winner is not None or state.turn < 1:
            return
        winner = self.check_victory(state)
        if winner is not None:
            declare_winner(self, state, winner, events)

    def on_victory(self, state: GameState, winner: str, events: list[Event]) -> None:
        """The winner shows their mission card to everyone."""
        mission = state.missions.get(winner)
        if mission is not None:
            state.variant_data["revealed_mission"] = {"player": winner, **mission}
            events.append(Event("mission_revealed", player=winner, mission=dict(mission)))


SECRET_MISSION = SecretMission()
