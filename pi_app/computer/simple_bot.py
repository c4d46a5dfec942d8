"""A simple, sensible RISK bot for simulations and empty seats (not random flailing).

It claims territories next to its own, piles reinforcements on its strongest front,
blitzes when it has a clear edge (preferring to finish continents, weak players and enemy
HQs), moves conquering armies forward and fortifies interior armies to the front. It always
trades a set when it has one, which escalates card values so games end.
Variants: it picks its best-defended territory as HQ (Capital), puts neutral armies where
they block the opponent (two-player setup), and commands the Allied Army against the turn
player like its own (Allied phase).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from pi_app.rules import (
    Attack,
    Blitz,
    ChooseDefence,
    Claim,
    Command,
    EndAttack,
    EndTurn,
    Fortify,
    GameState,
    MoveIn,
    PickHQ,
    Place,
    PlaceNeutral,
    TradeCards,
    attack_dice_range,
    card_sets,
)
from pi_app.rules.board import load_map
from pi_app.rules.engine import connected_through_own
from pi_app.rules.state import ALLIED, ATTACK, CLAIM, FORTIFY, HQ_PICK, REINFORCE, SETUP_PLACE
from pi_app.rules.variants import get_variant

BOARD = load_map()
# plain dicts: read in every decision, and a dict lookup is quicker than a mapping proxy's
NEIGHBOURS = dict(BOARD.neighbours)
CONTINENT_OF = dict(BOARD.continent_of)
MEMBERS = dict(BOARD.members)


class SimpleBot:
    """Chooses one legal command for the player the game waits for."""

    def __init__(self, edge: int = 2) -> None:
        self.edge = edge  # attack only with at least this many more armies than the target

    def choose(self, state: GameState, player: str) -> Command:
        """The command this bot plays now as `player` (who must be the one awaited)."""
        pending = state.pending
        if pending is not None:
            kind = pending["kind"]
            if kind == "defend":
                return ChooseDefence(player, pending["max_dice"])
            if kind == "move_in":
                return MoveIn(player, self._move_in_count(state, pending))
            if len(state.hands[player]) > 4:
                return TradeCards(player, self._best_set(state, player))
            return Place(player, self._front(state, player), state.reserves[player])
        phase = state.phase
        if phase == CLAIM:
            return Claim(player, self._claim(state, player))
        if phase == SETUP_PLACE:
            placing = state.variant_data.get("placing")
            if placing is not None and not placing["own"]:
                return PlaceNeutral(player, self._block(state, player), placing["third"])
            return Place(player, self._front(state, player), 1)
        if phase == REINFORCE:
            if card_sets(state, player):
                return TradeCards(player, self._best_set(state, player))
            return Place(player, self._front(state, player), state.reserves[player])
        if phase == HQ_PICK:
            return PickHQ(player, self._hq(state, player))
        if phase == ALLIED:
            return self._command_allied(state, player)
        if phase in (ATTACK, FORTIFY):
            return attack_then_fortify(state, player, self._attack, self._fortify)
        return EndTurn(player)

    # --- decisions ----------------------------------------------------------------------
    def _claim(self, state: GameState, player: str) -> str:
        owner = state.owner
        # counted once per decision: own and free territories, and a continent's part of
        # the score (the same for all its territories)
        mine = {t for t, o in owner.items() if o == player}
        free = [t for t, o in owner.items() if o is None]
        unclaimed = set(free)
        continent_score: dict[str, float] = {}
        best, best_score = "", -1e9
        for t in free:
            continent = CONTINENT_OF[t]
            base = continent_score.get(continent)
            if base is None:
                members = MEMBERS[continent]
                own = len(mine.intersection(members))
                theirs = len(members) - own - len(unclaimed.intersection(members))
                base = continent_score[continent] = 3 * own - 2 * theirs - len(members) / 4
            score = base + len(mine.intersection(NEIGHBOURS[t]))
            if score > best_score:
                best, best_score = t, score
        return best

    def _hq(self, state: GameState, player: str) -> str:
        """The own territory hardest to reach: fewest enemy neighbours, then most armies."""
        owner, armies = state.owner, state.armies
        return min(state.territories_of(player),
                   key=lambda t: (sum(1 for n in NEIGHBOURS[t] if owner[n] != player),
                                  -armies[t], t))

    def _block(self, state: GameState, player: str) -> str:
        """The third army's territory that borders most of the opponent's territories."""
        owner = state.owner
        army = state.variant_data["army"]
        return max(state.territories_of(army),
                   key=lambda t: (sum(1 for n in NEIGHBOURS[t]
                                      if owner[n] not in (player, army)), t))

    def _command_allied(self, state: GameState, player: str) -> Command:
        """The Allied Army's phase: reserve onto its best front, then blitz the turn player."""
        data = state.variant_data
        army = data["army"]
        if data["reserve"]:
            turn_of = data["allied_turn"]["turn_of"]
            return Place(player, self._front(state, army, turn_of), data["reserve"])
        attack = self._attack(state, army, only=data["allied_turn"]["turn_of"])
        if attack is not None:  # the army's attack, made by the player who moves it
            return dataclasses.replace(attack, player=player)
        return EndAttack(player)

    def _front(self, state: GameState, player: str, enemy: str | None = None) -> str:
        """The own territory with the best attack prospect (ties: most armies), against
        anyone, or only `enemy`."""
        owner, armies = state.owner, state.armies
        best, best_score = "", -1e9
        fallback = ""
        for t, o in owner.items():
            if o != player:
                continue
            fallback = t
            weakest = 10**9
            for n in NEIGHBOURS[t]:
                there = owner[n]
                if there != player and (enemy is None or there == enemy):
                    d = armies[n]
                    if d < weakest:
                        weakest = d
            if weakest == 10**9:
                continue
            score = armies[t] - weakest
            if score > best_score:
                best, best_score = t, score
        return best or fallback

    def _attack(self, state: GameState, player: str, only: str | None = None
                ) -> Blitz | Attack | None:
        """The best blitz for army `player` (only against `only` if given), or None.

        What a score needs of the whole board (the territories a defender holds, a
        continent's territories not yet `player`'s) is counted once per decision, on first
        need, not again for every candidate."""
        owner, armies = state.owner, state.armies
        best: tuple[float, str, str] | None = None
        hqs = set(state.hq.values()) if state.hq_revealed else ()
        edge = self.edge
        owners: list[str | None] | None = None  # every territory's owner, for counting
        held: dict[str | None, int] = {}  # owner -> territories they hold
        missing_in: dict[str, int] = {}  # continent -> its territories not player's
        for s, o in owner.items():
            if o != player:
                continue
            a = armies[s]
            if a < 3:
                continue
            most = a - edge  # a target may hold at most this many armies
            for t in NEIGHBOURS[s]:
                d = armies[t]
                if d > most:
                    continue
                d_owner = owner[t]
                if d_owner == player or (only is not None and d_owner != only):
                    continue
                continent = CONTINENT_OF[t]
                missing = missing_in.get(continent)
                if missing is None:
                    members = MEMBERS[continent]
                    missing = missing_in[continent] = len(members) - [
                        owner[m] for m in members].count(player)
                count = held.get(d_owner)
                if count is None:
                    if owners is None:
                        owners = list(owner.values())
                    count = held[d_owner] = owners.count(d_owner)
                score = a - d + (6 if missing <= 2 else 0)
                if count <= 3:
                    score += 8
                if t in hqs:
                    score += 6
                if best is None or score > best[0]:
                    best = (score, s, t)
        if best is None:
            return None
        return blitz_or_roll(state, player, best[1], best[2], 2)

    def _move_in_count(self, state: GameState, pending: dict) -> int:
        source = pending["from"]
        owner = state.owner
        player = pending.get("army", pending["player"])
        source_front = any(owner[n] != player for n in NEIGHBOURS[source])
        if not source_front:
            return pending["max"]
        return max(pending["min"], (pending["min"] + pending["max"] + 1) // 2)

    def _best_set(self, state: GameState, player: str) -> tuple[str, ...]:
        sets = card_sets(state, player)
        owner = state.owner
        for s in sets:
            if any(owner.get(c) == player for c in s):
                return s
        return sets[0]

    def _fortify(self, state: GameState, player: str) -> Command | None:
        stack = interior_stack(state, player)
        if stack is None:
            return None
        source, most = stack
        fronts = fortify_fronts(state, player, source)
        if not fronts:
            return None
        armies = state.armies
        target = max(fronts, key=lambda t: (armies[t], t))
        return Fortify(player, source, target, most - 1)


# --- what the bots share (SimpleBot and the computer player's Strategist) ------------------
def attack_then_fortify(state: GameState, player: str,
                        attack: Callable[[GameState, str], Command | None],
                        fortify: Callable[[GameState, str], Command | None]) -> Command:
    """The turn's end in the attack and fortify phases: `attack`'s choice while attacking,
    else the end of the attack phase (unless the variant fortifies straight from it), then
    `fortify`'s choice, else the end of the turn."""
    if state.phase == ATTACK:
        chosen = attack(state, player)
        if chosen is not None:
            return chosen
        if not get_variant(state.variant).fortify_in_attack_phase(state):
            return EndAttack(player)
    move = fortify(state, player)
    return move if move is not None else EndTurn(player)


def interior_stack(state: GameState, player: str) -> tuple[str, int] | None:
    """`player`'s biggest stack (of at least 2 armies) with no enemy next to it, and its
    armies: the first in map order on a tie; None if every stack touches the front."""
    owner, armies = state.owner, state.armies
    interior = {t for t, o in owner.items() if o == player}.issuperset  # once per decision
    best, most = None, 1
    for t, o in owner.items():
        if o == player and armies[t] > most and interior(NEIGHBOURS[t]):
            best, most = t, armies[t]
    return None if best is None else (best, most)


def fortify_fronts(state: GameState, player: str, source: str) -> list[str]:
    """Where a fortify from `source` may go under the table's fortify rule, front line
    only: the reachable own territories with an enemy next to them, or, if none is, every
    reachable one (a step toward the front)."""
    owner = state.owner
    if state.house_rules.fortify == "adjacent":
        reach = list(NEIGHBOURS[source])
    else:
        reach = list(connected_through_own(state, player, source))
    fronts = [t for t in reach if any(owner[n] != player for n in NEIGHBOURS[t])]
    return fronts or reach


def blitz_or_roll(state: GameState, player: str, source: str, target: str,
                  stop_at: int) -> Blitz | Attack:
    """A blitz, or with typed physical dice (no blitz there) one roll with the most dice."""
    if not state.house_rules.physical_dice:
        return Blitz(player, source, target, stop_at)
    return Attack(player, source, target, attack_dice_range(state, source)[1])
