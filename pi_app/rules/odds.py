"""Exact battle odds: one roll for each dice pair, and a whole territory attack.

Pure functions (no I/O). A roll compares the sorted dice pairwise, ties to the defender
(docs/RULES.md §2.6). A territory attack with `source` armies (one stays behind, so
`source - 1` can attack) against `target` defenders has both sides always rolling the
most dice allowed, until the territory falls or the source is down to 1 army.

The whole-attack numbers come from a forward pass over the (attackers, defenders) states:
every roll strictly lowers one side, so visiting attackers and then defenders in descending
order settles each state before it spreads its probability. A roll costs the attacker at
most 2 armies, so only three attacker rows are alive at once: memory is O(target), time
O(source * target). Floats are sums of positive terms and carry rounding error that grows
with the number of states (within 1e-12 of the exact values in the tests, up to 30x30);
float results are clamped to their bounds (a probability to [0, 1], losses to the armies
in play). `exact=True` does the same pass with `Fraction`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from typing import NamedTuple

MAX_ATTACK_DICE = 3
MAX_DEFENCE_DICE = 2
# The most armies on either side that odds are worked out for, by `riskboard odds` and the
# web's /api/odds: no real board holds more in one territory, and the cost grows with
# source * target (1000 x 1000 takes about a second on a Pi-class core).
MAX_ARMIES = 1_000


def _sorted_tops(dice: int, keep: int) -> dict[tuple[int, ...], int]:
    """How many of the 6**dice rolls of `dice` dice have each highest-`keep` faces
    (sorted high to low): only the highest dice are compared, so rolls that agree there
    are counted together."""
    tops: dict[tuple[int, ...], int] = {}
    for faces in product(range(1, 7), repeat=dice):
        top = tuple(sorted(faces, reverse=True)[:keep])
        tops[top] = tops.get(top, 0) + 1
    return tops


@cache
def one_roll(attack_dice: int, defence_dice: int) -> dict[tuple[int, int], Fraction]:
    """Probability of each `(attacker_losses, defender_losses)` in one roll, exactly.

    Counts all 6**(attack_dice + defence_dice) equally likely outcomes, grouped by the
    dice that are compared (the highest `min(attack_dice, defence_dice)` of each side):
    441 pairs of groups instead of 7,776 rolls for 3 against 2, the same counts.
    """
    if not 1 <= attack_dice <= MAX_ATTACK_DICE or not 1 <= defence_dice <= MAX_DEFENCE_DICE:
        raise ValueError(f"no roll of {attack_dice} against {defence_dice} dice")
    pairs = min(attack_dice, defence_dice)
    counts: dict[tuple[int, int], int] = {}
    defence_tops = _sorted_tops(defence_dice, pairs)
    for attack, ways_a in _sorted_tops(attack_dice, pairs).items():
        for defence, ways_d in defence_tops.items():
            attacker_losses = sum(1 for a, d in zip(attack, defence) if a <= d)
            key = (attacker_losses, pairs - attacker_losses)
            counts[key] = counts.get(key, 0) + ways_a * ways_d
    total = 6 ** (attack_dice + defence_dice)
    return {key: Fraction(n, total) for key, n in sorted(counts.items())}


def one_roll_table() -> dict[tuple[int, int], dict[tuple[int, int], Fraction]]:
    """The one-roll table for every dice pair, keyed by `(attack_dice, defence_dice)`."""
    return {
        (a, d): one_roll(a, d)
        for a in range(1, MAX_ATTACK_DICE + 1)
        for d in range(1, MAX_DEFENCE_DICE + 1)
    }


class BattleOdds(NamedTuple):
    """Outcome of attacking until conquest or exhaustion, both sides rolling the maximum.

    A NamedTuple rather than a dataclass: `riskboard odds` starts in a fresh process, and
    the dataclasses module (with inspect) costs three times what this whole module does."""

    source: int
    target: int
    p_conquer: float | Fraction
    expected_attacker_losses: float | Fraction
    expected_defender_losses: float | Fraction

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (floats), keys as `riskboard odds --json` prints them."""
        return {
            "source": self.source,
            "target": self.target,
            "p_conquer": float(self.p_conquer),
            "expected_attacker_losses": float(self.expected_attacker_losses),
            "expected_defender_losses": float(self.expected_defender_losses),
        }


def _transitions(exact: bool) -> dict[tuple[int, int], list[tuple[int, int, float | Fraction]]]:
    return {
        key: [(la, ld, p if exact else float(p)) for (la, ld), p in table.items()]
        for key, table in one_roll_table().items()
    }


def battle_odds(source: int, target: int, exact: bool = False) -> BattleOdds:
    """Odds of taking a territory of `target` armies from one of `source` armies.

    `source` counts the army that must stay behind (Osborne's A is `source - 1`).
    """
    if isinstance(source, bool) or isinstance(target, bool):
        raise ValueError("armies are counted with whole numbers")
    if source < 1:
        raise ValueError(f"a territory holds at least 1 army, the source has {source}")
    if target < 1:
        raise ValueError(f"a territory holds at least 1 army, the target has {target}")
    attackers = source - 1
    zero: float | Fraction = Fraction(0) if exact else 0.0
    one: float | Fraction = Fraction(1) if exact else 1.0
    moves = _transitions(exact)
    # rows[a][d]: probability the battle passes through a attackers vs d defenders. Row a
    # only receives from rows a, a+1 and a+2, so it is final once visited and then dropped.
    rows = {attackers: [zero] * (target + 1)}
    rows[attackers][target] = one
    p_conquer = zero
    defender_losses = zero
    attacker_losses = zero
    for a in range(attackers, 0, -1):
        row = rows.pop(a)
        for below in (a - 1, a - 2):
            if below >= 0 and below not in rows:
                rows[below] = [zero] * (target + 1)
        dice_a = min(MAX_ATTACK_DICE, a)
        for d in range(target, 0, -1):
            p = row[d]
            if not p:
                continue
            for la, ld, q in moves[(dice_a, min(MAX_DEFENCE_DICE, d))]:
                if la == 0:
                    row[d - ld] += p * q
                else:
                    rows[a - la][d - ld] += p * q
        p = row[0]  # ended by conquest with a attackers left
        p_conquer += p
        attacker_losses += p * (attackers - a)
        defender_losses += p * target
    last = rows.get(0, [zero] * (target + 1))
    for d in range(1, target + 1):  # ended with the source down to 1 army
        p = last[d]
        attacker_losses += p * attackers
        defender_losses += p * (target - d)
    if not exact:
        p_conquer = _clamp(p_conquer, 1)
        attacker_losses = _clamp(attacker_losses, attackers)
        defender_losses = _clamp(defender_losses, target)
    return BattleOdds(source, target, p_conquer, attacker_losses, defender_losses)


def _clamp(value: float | Fraction, high: float) -> float | Fraction:
    """Rounding can push a float sum just past its bound: keep it within [0, high]."""
    return min(max(value, 0.0), float(high))
