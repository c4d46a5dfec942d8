"""Dice comparison: highest against highest, then second against second; ties to the defender."""

from __future__ import annotations

from itertools import product


def attack_dice_limit(source_armies: int) -> int:
    """Most attack dice allowed from a territory with `source_armies`: min(3, armies - 1)."""
    return min(3, source_armies - 1)


def defence_dice_limit(target_armies: int) -> int:
    """Most defence dice allowed on a territory with `target_armies`: min(2, armies)."""
    return min(2, target_armies)


def losses(attack: tuple[int, ...], defence: tuple[int, ...]) -> tuple[int, int]:
    """(attacker_losses, defender_losses) for one roll; at most min(len) armies removed.

    >>> losses((4, 3, 6), (5, 4))   # 6 beats 5, 4 ties 4 -> each side loses one
    (1, 1)
    """
    a = sorted(attack, reverse=True)
    d = sorted(defence, reverse=True)
    lost_a = lost_d = 0
    if a[0] > d[0]:
        lost_d = 1
    else:
        lost_a = 1
    if len(a) > 1 and len(d) > 1:
        if a[1] > d[1]:
            lost_d += 1
        else:
            lost_a += 1
    return lost_a, lost_d


def _losses_table() -> dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]]:
    table = {}
    for a in (1, 2, 3):
        for d in (1, 2):
            for af in product(range(1, 7), repeat=a):
                for df in product(range(1, 7), repeat=d):
                    table[af, df] = losses(af, df)
    return table


# (attack_faces, defence_faces) -> (attacker_losses, defender_losses), for every roll; a dict
# lookup is several times faster than sorting and comparing in the blitz loop.
LOSSES: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, int]] = _losses_table()
