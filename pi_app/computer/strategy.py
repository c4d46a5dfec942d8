"""The computer player's board-game strategy (Classic, Secret Mission, Capital, two-player,
Allied Army), at three levels.

It reasons on a state rebuilt from its seat's redacted view (`pi_app.computer.view`), so
it knows its own cards, mission and HQ and the public board, nothing else.

- hard: picks a continent to take and hold; places reinforcements where they defend its
  continents' borders and then where the best attack starts; attacks when the exact odds
  (`pi_app.rules.odds`) and the prize (a card this turn, a continent completed or broken,
  a player eliminated with their cards, an enemy HQ, its mission's continents or colour)
  outweigh the expected losses; moves armies in toward the greater threat; fortifies
  interior armies to the most threatened border.
- normal: the same judgement of a single attack, a little more timid, but no plan: no
  continent to work on, no defence top-ups, no eye for eliminations (issue 23.11: with the
  plan, normal was within noise of hard; without it, about 20 points below hard against
  three SimpleBots, still well above parity: `bench/computer_levels.py`).
- easy: a beginner: spreads its armies thinly, attacks whatever it outnumbers even on poor
  odds, keeps its cards until it must trade and forgets to fortify. Its "whims" come from
  a hash of the public board, so the same view always gives the same choice. From turn
  `LONG_GAME` on it plays like normal, so a table of beginners still finishes.
Every level grows bolder from turn `LONG_GAME` on (a long game is a stalled one).

Phases it has no opinion about (defence dice, Allied Army command, neutral placement,
Capital HQ pick) it leaves to `SimpleBot`, which is sound there.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from pi_app.computer.simple_bot import (
    SimpleBot,
    attack_then_fortify,
    blitz_or_roll,
    fortify_fronts,
    interior_stack,
)
from pi_app.rules import (
    Claim,
    Command,
    Fortify,
    GameState,
    MoveIn,
    Place,
    TradeCards,
    card_sets,
    trade_value_next,
)
from pi_app.rules.board import load_map
from pi_app.rules.odds import one_roll
from pi_app.rules.state import ATTACK, CLAIM, FORTIFY, REINFORCE, SETUP_PLACE

BOARD = load_map()
NEIGHBOURS = BOARD.neighbours
CONTINENT_OF = BOARD.continent_of
MEMBERS = BOARD.members
BONUS = BOARD.bonuses
# Territories of a continent that border another continent: the ones to hold it by, in
# map order (a tuple, not a set: ties between them must not follow the hash seed, or a
# seeded game would differ from one process to the next).
BORDERS = {c: tuple(t for t in BOARD.territories
                    if t in ts and any(CONTINENT_OF[n] != c for n in NEIGHBOURS[t]))
           for c, ts in MEMBERS.items()}
LONG_GAME = 60  # turns; from here on it attacks more boldly
ODDS_CAP = 40  # beyond this many armies the odds no longer change a decision


def _battle_table(cap: int) -> tuple[list[list[float]], list[list[float]]]:
    """Chance of conquest and expected attacker losses of a blitz with `a` attacking armies
    (the source minus the one that stays) against `d` defenders, for every a, d <= cap.

    One backward pass over the one-roll odds (`pi_app.rules.odds.one_roll`): each state's
    answer is the odds-weighted answers of the states one roll leads to, all smaller."""
    rolls = {(a, d): [(la, ld, float(q)) for (la, ld), q in one_roll(a, d).items()]
             for a in range(1, 4) for d in range(1, 3)}
    win = [[0.0] * (cap + 1) for _ in range(cap + 1)]
    loss = [[0.0] * (cap + 1) for _ in range(cap + 1)]
    for a in range(cap + 1):
        win[a][0] = 1.0
        loss[a][0] = 0.0
    for d in range(1, cap + 1):
        loss[0][d] = 0.0
    for a in range(1, cap + 1):
        for d in range(1, cap + 1):
            w = lost = 0.0
            for la, ld, q in rolls[(min(3, a), min(2, d))]:
                w += q * win[a - la][d - ld]
                lost += q * (la + loss[a - la][d - ld])
            win[a][d] = w
            loss[a][d] = lost
    return win, loss


_WIN, _LOSS = _battle_table(ODDS_CAP)


def _scaled(source: int, target: int) -> tuple[int, int, float]:
    """Attackers and defenders scaled down to the table's size (huge stacks keep their
    ratio), and the factor that scales losses back up."""
    attackers = source - 1
    big = max(attackers, target)
    if big <= ODDS_CAP:
        return attackers, target, 1.0
    factor = big / ODDS_CAP
    return (max(1, round(attackers / factor)) if attackers else 0,
            max(1, round(target / factor)), factor)


def p_conquer(source: int, target: int) -> float:
    """Chance a blitz from a territory of `source` armies takes one of `target` armies."""
    a, d, _ = _scaled(source, target)
    return _WIN[a][d]


def expected_losses(source: int, target: int) -> float:
    """Armies such a blitz is expected to cost the attacker."""
    a, d, factor = _scaled(source, target)
    return _LOSS[a][d] * factor


@dataclass(frozen=True)
class Level:
    """How a level plays: the knobs that make hard, normal and easy differ."""

    name: str
    min_odds: float          # lowest chance of conquest it attacks with
    min_score: float         # lowest prize-minus-cost it attacks for
    plan: bool               # pick a continent to take and weigh its territories up
    defend: bool             # top up threatened borders of its continents first
    hunt: bool               # value eliminations (and the cards they bring)
    beginner: bool = False   # easy's mistakes


LEVELS = {
    "hard": Level("hard", min_odds=0.5, min_score=0.6, plan=True, defend=True, hunt=True),
    "normal": Level("normal", min_odds=0.55, min_score=0.8, plan=False, defend=False,
                    hunt=False),
    "easy": Level("easy", min_odds=0.0, min_score=-99.0, plan=False, defend=False,
                  hunt=False, beginner=True),
}


class Strategist:
    """Chooses one legal board-game command for its seat from what that seat knows."""

    def __init__(self, level: str = "normal") -> None:
        if level not in LEVELS:
            raise ValueError(f"no computer level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = LEVELS[level]
        self._simple = SimpleBot()
        self._grown: Strategist | None = None

    def choose(self, state: GameState, player: str) -> Command:
        """The command to play now as `player` (the seat the game waits for)."""
        if self.level.beginner and state.turn >= LONG_GAME:
            # a long game is a stalled one: even a beginner learns, or tables of
            # beginners would never finish
            return self._learned().choose(state, player)
        pending = state.pending
        if pending is not None:
            if pending["kind"] == "move_in" and pending.get("army") is None:
                return MoveIn(player, self._move_in(state, player, pending))
            return self._simple.choose(state, player)
        phase = state.phase
        if phase == CLAIM:
            return Claim(player, self._claim(state, player))
        if phase == SETUP_PLACE:
            placing = state.variant_data.get("placing")
            if placing is not None and not placing["own"]:
                return self._simple.choose(state, player)
            return Place(player, self._placement(state, player, 1)[0], 1)
        if phase == REINFORCE:
            trade = self._trade(state, player)
            if trade is not None:
                return trade
            territory, count = self._placement(state, player, state.reserves[player])
            return Place(player, territory, count)
        if phase in (ATTACK, FORTIFY):
            return attack_then_fortify(state, player, self._attack, self._fortify)
        return self._simple.choose(state, player)

    def _learned(self) -> Strategist:
        if self._grown is None:
            self._grown = Strategist("normal")
        return self._grown

    # --- what things are worth ------------------------------------------------------------
    def _whim(self, state: GameState, salt: str) -> int:
        """A number from the public board only: easy's repeatable 'random' choices."""
        text = f"{salt}|{state.turn}|{state.phase}|{sorted(state.armies.items())}"
        return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=4).digest(), "big")

    def _goal_continents(self, state: GameState, player: str) -> set[str]:
        """Continents its mission names (Secret Mission), else none."""
        mission = state.missions.get(player)
        if not mission:
            return set()
        objective = mission.get("objective", {})
        return set(objective.get("continents", ())) if objective.get("kind") == "conquer" else set()

    def _target_continent(self, state: GameState, player: str) -> str | None:
        """The continent it works on: cheapest to finish for its bonus, favouring its own
        mission's continents."""
        if not self.level.plan:
            return None
        owner, armies = state.owner, state.armies
        goals = self._goal_continents(state, player)
        best, best_score = None, -1e9
        for c, ts in MEMBERS.items():
            mine = sum(1 for t in ts if owner[t] == player)
            if mine == len(ts):
                continue
            if mine == 0 and not any(owner[n] == player for t in ts for n in NEIGHBOURS[t]):
                continue
            enemy = sum(armies[t] for t in ts if owner[t] != player)
            score = (BONUS[c] + (6 if c in goals else 0)) * (1 + mine) / (
                (enemy + len(ts) - mine) * (1 + len(BORDERS[c]) / 2))
            if score > best_score:
                best, best_score = c, score
        return best

    def _prize(self, state: GameState, player: str, target: str,
               focus: str | None) -> float:
        """What taking `target` is worth to `player` now, in armies."""
        owner = state.owner
        victim = owner[target]
        c = CONTINENT_OF[target]
        value = 1.0
        if not state.conquered_this_turn:
            value += 2.0 + trade_value_next(state) / 4
        missing = sum(1 for t in MEMBERS[c] if owner[t] != player)
        if missing == 1:
            value += BONUS[c] * 2.5
        else:
            value += BONUS[c] * 0.5 / missing
        if c == focus:
            value += 2.0
        if victim is not None and all(owner[t] == victim for t in MEMBERS[c]):
            value += BONUS[c] * 1.5
        if victim in state.players:
            if self.level.hunt and state.territory_count(victim) == 1:
                value += 6.0 + 3.0 * len(state.hands.get(victim, ()))
            if state.hq_revealed and state.hq.get(victim) == target:
                value += 12.0
        mission = state.missions.get(player)
        if mission:
            objective = mission.get("objective", {})
            if c in self._goal_continents(state, player):
                value += 3.0
            if objective.get("kind") == "destroy" and objective.get("colour") == victim:
                value += 5.0
            if objective.get("kind") == "occupy":
                value += 1.0
        return value

    def _threat(self, state: GameState, player: str, territory: str) -> int:
        """Enemy armies next to `territory` (that could attack it)."""
        owner, armies = state.owner, state.armies
        return sum(armies[n] - 1 for n in NEIGHBOURS[territory]
                   if owner[n] != player and owner[n] is not None)

    # --- setup -----------------------------------------------------------------------------
    def _claim(self, state: GameState, player: str) -> str:
        owner = state.owner
        free = [t for t, o in owner.items() if o is None]
        if self.level.beginner:
            return free[self._whim(state, "claim") % len(free)]
        best, best_score = free[0], -1e9
        for t in free:
            c = CONTINENT_OF[t]
            members = MEMBERS[c]
            mine = sum(1 for m in members if owner[m] == player)
            theirs = sum(1 for m in members if owner[m] not in (None, player))
            near = sum(1 for n in NEIGHBOURS[t] if owner[n] == player)
            score = (4 * mine - 3 * theirs + near + BONUS[c] / len(members) * 6
                     - len(BORDERS[c]))
            if score > best_score:
                best, best_score = t, score
        return best

    # --- reinforcements ----------------------------------------------------------------------
    def _trade(self, state: GameState, player: str) -> TradeCards | None:
        sets = card_sets(state, player)
        if not sets:
            return None
        if self.level.beginner and len(state.hands[player]) < 5:
            return None  # a beginner keeps its cards until it has to
        owner = state.owner
        best = max(sets, key=lambda s: sum(1 for c in s if owner.get(c) == player))
        return TradeCards(player, best)

    def _placement(self, state: GameState, player: str, reserve: int) -> tuple[str, int]:
        """Where to put armies now and how many (at most `reserve`)."""
        owner, armies = state.owner, state.armies
        mine = state.territories_of(player)
        front = [t for t in mine if any(owner[n] != player for n in NEIGHBOURS[t])] or mine
        if self.level.beginner:
            spot = front[self._whim(state, "place") % len(front)]
            return spot, min(reserve, 1 + self._whim(state, "count") % 3)
        if self.level.defend:
            held = [c for c, ts in MEMBERS.items() if all(owner[t] == player for t in ts)]
            hq = state.hq.get(player)
            guard = [t for c in held for t in BORDERS[c]]
            if hq and owner[hq] == player:  # an HQ taken by another stays its HQ
                guard.append(hq)
            worst, gap = None, 0
            for t in guard:
                need = self._threat(state, player, t) - armies[t] + 2
                if need > gap:
                    worst, gap = t, need
            if worst is not None and reserve > 1:
                return worst, min(gap, max(1, reserve // 2))
        focus = self._target_continent(state, player)
        best, best_score = front[0], -1e9
        for t in front:
            for n in NEIGHBOURS[t]:
                if owner[n] == player:
                    continue
                odds = p_conquer(armies[t] + reserve, armies[n])
                score = odds * self._prize(state, player, n, focus) + 0.01 * armies[t]
                if score > best_score:
                    best, best_score = t, score
        return best, reserve

    # --- attack --------------------------------------------------------------------------------
    def _attack(self, state: GameState, player: str) -> Command | None:
        owner, armies = state.owner, state.armies
        level = self.level
        focus = self._target_continent(state, player)
        # a long game is a stalled one: it grows bolder so the game ends
        min_odds = level.min_odds if state.turn < LONG_GAME else 0.4
        min_score = level.min_score if state.turn < LONG_GAME else 0.0
        boldness = 1.0 + max(0, state.turn - LONG_GAME) / 30
        best: tuple[float, str, str, int] | None = None
        for s in state.territories_of(player):
            a = armies[s]
            if a < 2:
                continue
            for t in NEIGHBOURS[s]:
                if owner[t] == player:
                    continue
                d = armies[t]
                if level.beginner:
                    if a > d and (best is None or a - d > best[0]):
                        best = (a - d, s, t, 1)
                    continue
                if a < 3 and state.conquered_this_turn:
                    continue
                odds = p_conquer(a, d)
                if odds < min_odds:
                    continue
                prize = self._prize(state, player, t, focus) * boldness
                # losses and threats weigh less where every stack is big (escalated games)
                scale = max(1.0, (a + d) / 20)
                score = (odds * prize - 0.35 * expected_losses(a, d) / scale
                         - 0.3 * (1 - odds) * min(a, 20))
                if state.conquered_this_turn:
                    score -= 0.15 * self._threat(state, player, s) / scale
                if score > min_score and (best is None or score > best[0]):
                    best = (score, s, t, 1 if prize > 8 else 2)
        if best is None:
            return None
        _, source, target, stop_at = best
        if armies[source] <= stop_at:
            stop_at = 1
        return blitz_or_roll(state, player, source, target, stop_at)

    def _move_in(self, state: GameState, player: str, pending: dict[str, Any]) -> int:
        low, high = pending["min"], pending["max"]
        if self.level.beginner:
            return low
        source, target = pending["from"], pending["to"]
        behind = self._threat(state, player, source)
        ahead = self._threat(state, player, target)
        if behind == 0:
            return high
        if ahead == 0:
            return low
        total = state.armies[source]
        share = round(total * (ahead + 2) / (ahead + behind + 2))
        return max(low, min(high, share))

    # --- fortify -------------------------------------------------------------------------------
    def _fortify(self, state: GameState, player: str) -> Command | None:
        if self.level.beginner:
            return None
        stack = interior_stack(state, player)
        if stack is None:
            return None
        source, most = stack
        fronts = fortify_fronts(state, player, source)
        if not fronts:
            return None
        armies = state.armies
        target = max(fronts, key=lambda t: (self._threat(state, player, t) - armies[t], t))
        return Fortify(player, source, target, most - 1)
