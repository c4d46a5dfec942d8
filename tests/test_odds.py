"""Battle odds are exact: one-roll table by brute force, whole attacks against Osborne 2003."""

import random
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from pi_app.rules.odds import battle_odds, one_roll, one_roll_table

# docs/MAP_AND_CARDS.md §6, typed from the document: (attacker loses 0, each loses 1, attacker
# loses all compared) per (attack dice, defence dice).
DOCUMENT_TABLE = {
    (1, 1): (Fraction(15, 36), None, Fraction(21, 36)),
    (1, 2): (Fraction(55, 216), None, Fraction(161, 216)),
    (2, 1): (Fraction(125, 216), None, Fraction(91, 216)),
    (2, 2): (Fraction(295, 1296), Fraction(420, 1296), Fraction(581, 1296)),
    (3, 1): (Fraction(855, 1296), None, Fraction(441, 1296)),
    (3, 2): (Fraction(2890, 7776), Fraction(2611, 7776), Fraction(2275, 7776)),
}

# Osborne (2003), Table 3: P(attacker conquers) with A attacking armies against D defenders,
# three decimals as published. Rows A = 1..5, 10; columns D = 1..5, 10.
OSBORNE_TABLE_3 = {
    (1, 1): 0.417, (1, 2): 0.106, (1, 3): 0.027, (1, 4): 0.007, (1, 5): 0.002,
    (2, 1): 0.754, (2, 2): 0.363, (2, 3): 0.206, (2, 4): 0.091, (2, 5): 0.049,
    (3, 1): 0.916, (3, 2): 0.656, (3, 3): 0.470, (3, 4): 0.315, (3, 5): 0.206,
    (4, 1): 0.972, (4, 2): 0.785, (4, 3): 0.642, (4, 4): 0.477, (4, 5): 0.359,
    (5, 1): 0.990, (5, 2): 0.890, (5, 3): 0.769, (5, 4): 0.638, (5, 5): 0.506,
    (10, 10): 0.568, (5, 10): 0.118, (10, 5): 0.916,
}


def brute_force_roll(attack_dice: int, defence_dice: int) -> dict[tuple[int, int], Fraction]:
    """Independent enumeration: compare the highest, then second-highest, ties to defender."""
    tally: dict[tuple[int, int], int] = {}
    for attack in product(range(1, 7), repeat=attack_dice):
        for defence in product(range(1, 7), repeat=defence_dice):
            a_sorted, d_sorted = sorted(attack)[::-1], sorted(defence)[::-1]
            lost_a = lost_d = 0
            for i in range(min(attack_dice, defence_dice)):
                if a_sorted[i] > d_sorted[i]:
                    lost_d += 1
                else:
                    lost_a += 1
            tally[(lost_a, lost_d)] = tally.get((lost_a, lost_d), 0) + 1
    total = 6 ** (attack_dice + defence_dice)
    return {k: Fraction(v, total) for k, v in tally.items()}


@cache
def conquest_probability(attackers: int, defenders: int) -> Fraction:
    """Independent backward recursion over the battle, with Fractions."""
    if defenders == 0:
        return Fraction(1)
    if attackers == 0:
        return Fraction(0)
    dist = brute_force_roll(min(3, attackers), min(2, defenders))
    return sum(
        (p * conquest_probability(attackers - la, defenders - ld) for (la, ld), p in dist.items()),
        Fraction(0),
    )


@cache
def expected_remaining(attackers: int, defenders: int) -> tuple[Fraction, Fraction]:
    """Independent recursion: expected (attackers, defenders) left when the battle ends."""
    if defenders == 0 or attackers == 0:
        return Fraction(attackers), Fraction(defenders)
    dist = brute_force_roll(min(3, attackers), min(2, defenders))
    ea = ed = Fraction(0)
    for (la, ld), p in dist.items():
        ra, rd = expected_remaining(attackers - la, defenders - ld)
        ea += p * ra
        ed += p * rd
    return ea, ed


@pytest.mark.parametrize("dice", sorted(DOCUMENT_TABLE))
def test_one_roll_matches_the_documented_table(dice):
    win, split, loss = DOCUMENT_TABLE[dice]
    pairs = min(dice)
    table = one_roll(*dice)
    assert table[(0, pairs)] == win
    assert table[(pairs, 0)] == loss
    if split is not None:
        assert table[(1, 1)] == split
    assert sum(table.values()) == 1


def test_one_roll_table_matches_brute_force_enumeration():
    for dice, table in one_roll_table().items():
        assert table == brute_force_roll(*dice)


def test_one_roll_refuses_impossible_dice_counts():
    with pytest.raises(ValueError):
        one_roll(4, 1)
    with pytest.raises(ValueError):
        one_roll(1, 3)


@pytest.mark.parametrize("cell", sorted(OSBORNE_TABLE_3))
def test_conquest_probability_matches_osborne_table_3(cell):
    attackers, defenders = cell
    odds = battle_odds(attackers + 1, defenders)
    assert odds.p_conquer == pytest.approx(OSBORNE_TABLE_3[cell], abs=0.0005)


@pytest.mark.slow
def test_exact_odds_equal_an_independent_fraction_recursion():
    for source in range(1, 9):
        for target in range(1, 9):
            odds = battle_odds(source, target, exact=True)
            assert odds.p_conquer == conquest_probability(source - 1, target)
            left_a, left_d = expected_remaining(source - 1, target)
            assert odds.expected_attacker_losses == source - 1 - left_a
            assert odds.expected_defender_losses == target - left_d


def test_float_odds_are_within_1e12_of_the_exact_ones():
    for source, target in [(2, 1), (7, 5), (13, 12), (25, 30)]:
        fast = battle_odds(source, target)
        exact = battle_odds(source, target, exact=True)
        assert abs(fast.p_conquer - float(exact.p_conquer)) < 1e-12
        assert abs(fast.expected_attacker_losses - float(exact.expected_attacker_losses)) < 1e-12
        assert abs(fast.expected_defender_losses - float(exact.expected_defender_losses)) < 1e-12


def test_monte_carlo_battles_agree_with_the_computed_odds():
    rng = random.Random(20031)
    source, target, trials = 6, 4, 20000
    wins = 0
    for _ in range(trials):
        a, d = source - 1, target
        while a and d:
            att = sorted((rng.randint(1, 6) for _ in range(min(3, a))), reverse=True)
            dfn = sorted((rng.randint(1, 6) for _ in range(min(2, d))), reverse=True)
            for x, y in zip(att, dfn):
                if x > y:
                    d -= 1
                else:
                    a -= 1
        wins += d == 0
    # 4 standard deviations of a binomial proportion at p ~ 0.64 over 20000 trials ~ 0.014
    assert abs(wins / trials - battle_odds(source, target).p_conquer) < 0.014


def test_a_source_of_one_army_cannot_conquer_and_loses_nothing():
    odds = battle_odds(1, 3)
    assert (odds.p_conquer, odds.expected_attacker_losses, odds.expected_defender_losses) == (
        0, 0, 0)


def test_losses_are_bounded_by_the_armies_in_play():
    odds = battle_odds(200, 200)
    assert 0 < odds.p_conquer < 1
    assert 0 < odds.expected_attacker_losses <= 199
    assert 0 < odds.expected_defender_losses <= 200


@pytest.mark.parametrize("source,target", [(0, 1), (3, 0), (-2, 4), (True, 3)])
def test_battle_odds_refuses_impossible_army_counts(source, target):
    with pytest.raises(ValueError):
        battle_odds(source, target)


@pytest.mark.slow
def test_float_results_never_leave_their_bounds_on_big_battles():
    # Unclamped, (300, 9) gave p 1.0000000000000002 and (300, 11) defender losses 11 + 2e-15.
    for source, target in [(300, 9), (300, 11), (300, 23), (600, 600), (3, 1000), (1000, 1000)]:
        odds = battle_odds(source, target)
        assert 0.0 <= odds.p_conquer <= 1.0  # honest: see above
        assert 0.0 <= odds.expected_attacker_losses <= source - 1  # honest: see above
        assert 0.0 <= odds.expected_defender_losses <= target  # honest: see above


def test_a_huge_source_against_a_few_defenders_is_near_certain_but_not_above_one():
    # Losing 999 attackers to 3 defenders has probability far below 1e-100.
    for target in (1, 2, 3):
        assert 1 - 1e-12 < battle_odds(1000, target).p_conquer <= 1.0


@pytest.mark.parametrize(("source", "target"), [(29, 157), (131, 29)])
def test_expected_losses_never_pass_the_armies_that_can_be_lost(source, target):
    """The expected losses average whole losses between none and every army that can fight
    (RULES §2.6: the attacker's `source - 1`, one army always staying behind; all of the
    target's): adding up many small float terms must not carry them past that (these two
    battles did by 7e-15 and 1e-14 before the sums were clamped)."""
    odds = battle_odds(source, target)
    assert odds.expected_attacker_losses <= source - 1
    assert odds.expected_defender_losses <= target
    assert odds.p_conquer <= 1
