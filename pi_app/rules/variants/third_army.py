"""The third army of the two-player games (neutral, or the Allied Army), shared by both.

The third army is not a seat: it owns territories (`state.owner[t] == army id`), but has no
hand, no turn and no entry in `state.reserves`. Its data lives in `state.variant_data`:
  army      its id ("neutral" or "allied"; the LEDs show ids that are no seat in the
            neutral colour)
  reserve   its armies not yet on the board
  quota     [own, third]: armies a player places per setup placing turn: own on their
            territories, third with `PlaceNeutral` on the third army's territories
  placing   {"own": n, "third": m} left in the current placing turn (None after setup)
  destroyed true once it has lost its last territory (event `army_destroyed`)

When a seat attacks the third army, the other seat chooses its defence dice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pi_app.rules.board import load_map
from pi_app.rules.commands import Place, PlaceNeutral
from pi_app.rules.errors import RuleError
from pi_app.rules.events import Event
from pi_app.rules.state import SETUP_PLACE
from pi_app.rules.steps import check_count, check_territory, own_territory, require_phase

if TYPE_CHECKING:
    from pi_app.dice import RandomSource
    from pi_app.rules.commands import Command
    from pi_app.rules.state import GameState
    from pi_app.rules.variants.base import Variant

BOARD = load_map()
STARTING_ARMIES = 40
TERRITORIES_EACH = 14


def new_army_data(army: str, quota: tuple[int, int], reserve: int) -> dict[str, Any]:
    """The variant_data of a fresh two-player game with third army `army`."""
    return {"army": army, "reserve": reserve, "quota": list(quota), "placing": None,
            "destroyed": False}


def opponent(state: GameState, player: str) -> str:
    """The other seat of a two-player game."""
    a, b = state.players
    return b if player == a else a


def defence_chooser(state: GameState, target: str) -> str:
    """The owner defends; for the third army, the seat whose turn it is not."""
    owner = state.owner[target]
    assert owner is not None
    if owner == state.variant_data["army"]:
        return opponent(state, state.current_player)
    return owner


def start_placing_turn(state: GameState, player: str) -> None:
    """`player` places up to quota[0] own and quota[1] third-army armies now."""
    data = state.variant_data
    own, third = data["quota"]
    data["placing"] = {"own": min(own, state.reserves[player]),
                       "third": min(third, data["reserve"])}
    state.current_player = player


def _next_placing_turn(variant: Variant, state: GameState, player: str,
                       events: list[Event]) -> None:
    placing = state.variant_data["placing"]
    if placing["own"] or placing["third"]:
        return
    for candidate in (opponent(state, player), player):
        if state.reserves[candidate] > 0:
            start_placing_turn(state, candidate)
            return
    state.variant_data["placing"] = None
    variant.setup_done(state, events)


def place_setup(variant: Variant, state: GameState, cmd: Place, rng: RandomSource,
                events: list[Event]) -> None:
    """Setup placement of own armies, within the placing turn's own quota."""
    placing = state.variant_data["placing"]
    own_territory(state, cmd.player, cmd.territory)
    if placing["own"] == 0:
        raise RuleError("place_neutral_now", "Your own armies for this placing turn are down; "
                        f"now place {placing['third']} {state.variant_data['army']} "
                        "armies on its territories.")
    check_count(cmd.count, 1, placing["own"], "place")
    state.armies[cmd.territory] += cmd.count
    state.reserves[cmd.player] -= cmd.count
    placing["own"] -= cmd.count
    events.append(Event("placed", player=cmd.player, territory=cmd.territory, count=cmd.count))
    _next_placing_turn(variant, state, cmd.player, events)


def place_third(variant: Variant, state: GameState, cmd: PlaceNeutral, rng: RandomSource,
                events: list[Event]) -> None:
    """Setup placement of the third army's armies, within the placing turn's quota."""
    require_phase(state, SETUP_PLACE, doing="place neutral armies")
    data = state.variant_data
    army = data["army"]
    tid = cmd.territory
    check_territory(tid)
    if state.owner[tid] != army:
        raise RuleError("not_neutral_territory",
                        f"{BOARD.names[tid]} is not a {army} territory; {army} armies go "
                        "on its own territories.")
    placing = data["placing"]
    check_count(cmd.count, 1, placing["third"], "place", army)
    state.armies[tid] += cmd.count
    data["reserve"] -= cmd.count
    placing["third"] -= cmd.count
    events.append(Event("placed", player=army, territory=tid, count=cmd.count,
                        by=cmd.player))
    _next_placing_turn(variant, state, cmd.player, events)


def note_conquest(state: GameState, previous_owner: str, events: list[Event]) -> None:
    """Mark the third army destroyed when it loses its last territory."""
    data = state.variant_data
    army = data["army"]
    if previous_owner != army or army in state.owner.values():
        return
    lost = data["reserve"]
    data["reserve"] = 0
    data["destroyed"] = True
    events.append(Event("army_destroyed", army=army, reserve_lost=lost))


def setup_place_commands(state: GameState, player: str) -> list[Command]:
    """Legal setup placements of `player`'s placing turn (own and third army)."""
    placing = state.variant_data["placing"]
    army = state.variant_data["army"]
    out: list[Command] = []
    if placing["own"]:
        out += [Place(player, t, 1) for t in state.territories_of(player)]
    if placing["third"]:
        out += [PlaceNeutral(player, t, 1) for t in state.territories_of(army)]
    return out
