"""Dice you can trust: face counts, a chi-square test and each player's luck index.

Works on the public event list (battle events carry the dice), so it needs no private data.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from pi_app.rules.odds import one_roll


@cache
def expected_losses(attack_dice: int, defence_dice: int) -> tuple[float, float]:
    """Exact expected (attacker, defender) losses of one roll with these dice counts.

    Uses the rules' exact one-roll table (highest dice compared, defender wins ties).
    """
    table = one_roll(attack_dice, defence_dice)
    attacker = sum(p * la for (la, _), p in table.items())
    defender = sum(p * ld for (_, ld), p in table.items())
    return float(attacker), float(defender)


def chi_square_uniform(counts: list[int]) -> tuple[float, float | None]:
    """Pearson's chi-square of six face counts against a fair die, and its p-value (5 df).

    The p-value is None when there are no rolls. The 5-degree survival function is closed
    form: Q(x) = erfc(sqrt(x/2)) + sqrt(2x/pi) * exp(-x/2) * (1 + x/3).
    """
    total = sum(counts)
    if total == 0:
        return 0.0, None
    expected = total / 6
    stat = sum((c - expected) ** 2 / expected for c in counts)
    p = math.erfc(math.sqrt(stat / 2)) + math.sqrt(2 * stat / math.pi) * math.exp(
        -stat / 2
    ) * (1 + stat / 3)
    return stat, min(1.0, max(0.0, p))


def dice_statistics(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Face counts, chi-square and per-player luck from a game's public events."""
    counts = [0] * 6
    players: dict[str, dict[str, float]] = {}
    rolls = 0
    for event in events:
        if event.get("type") != "battle":
            continue
        attack = [int(f) for f in event.get("attack_dice", [])]
        defence = [int(f) for f in event.get("defence_dice", [])]
        if not attack or not defence:
            continue
        rolls += 1
        for face in attack + defence:
            if 1 <= face <= 6:
                counts[face - 1] += 1
        exp_a, exp_d = expected_losses(min(len(attack), 3), min(len(defence), 2))
        for role, expected, lost in (
            ("attacker", exp_a, event.get("attacker_losses", 0)),
            ("defender", exp_d, event.get("defender_losses", 0)),
        ):
            who = event.get(role)
            if not isinstance(who, str):
                continue
            entry = players.setdefault(who, {"battles": 0, "lost": 0, "expected": 0.0})
            entry["battles"] += 1
            entry["lost"] += int(lost)
            entry["expected"] += expected
    stat, p = chi_square_uniform(counts)
    luck = {
        who: {
            "battles": int(e["battles"]),
            "lost": int(e["lost"]),
            "expected_lost": round(e["expected"], 3),
            # positive = lost fewer armies than a fair die would on average
            "luck": round(e["expected"] - e["lost"], 3),
        }
        for who, e in players.items()
    }
    return {
        "rolls": rolls,
        "faces": counts,
        "chi_square": round(stat, 4),
        "p_value": None if p is None else round(p, 4),
        "luck": luck,
    }
