"""Dice comparison rules, the seeds' worked examples, and the exact one-roll odds."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import Blitz, apply
from pi_app.rules.battle import LOSSES, attack_dice_limit, defence_dice_limit, losses

from .builders import position

# 003_… (Japanese notes) example table: attacker dice, defender dice, (att. loss, def. loss)
SEED_003_TABLE = [
    ((6, 1, 1), (3,), (0, 1)),      # example 1: the defender loses 1
    ((3, 3), (4, 3), (2, 0)),       # example 2: the attacker loses 2 (3 vs 3 is a tie)
    ((6, 2, 1), (3, 2), (1, 1)),    # example 3: each loses 1
    ((6,), (5, 4), (0, 1)),         # example 4: the defender loses 1
]


@pytest.mark.parametrize(("attack", "defence", "expected"), SEED_003_TABLE)
def test_seed_003_worked_examples(attack, defence, expected):
    assert losses(attack, defence) == expected


def test_seed_004_example_highest_pairs_compare_and_ties_go_to_defender():
    # 004_…: attacker rolls 4, 3, 6; defender 5, 4. 6 beats 5 (a defender dies);
    # the second pair 4 vs 4 is a tie, which the defender wins (an attacker dies).
    assert losses((4, 3, 6), (5, 4)) == (1, 1)


def test_a_tie_on_the_only_pair_goes_to_the_defender():
    assert losses((5,), (5,)) == (1, 0)


def test_never_more_armies_lost_than_dice_compared():
    for a, d in product((1, 2, 3), (1, 2)):
        for af in product(range(1, 7), repeat=a):
            for df in product(range(1, 7), repeat=d):
                lost = losses(af, df)
                assert sum(lost) == min(a, d)


# docs/MAP_AND_CARDS.md §6: exact one-roll odds (defender wins ties), independently published.
ODDS = [
    (1, 1, {(0, 1): Fraction(15, 36), (1, 0): Fraction(21, 36)}),
    (1, 2, {(0, 1): Fraction(55, 216), (1, 0): Fraction(161, 216)}),
    (2, 1, {(0, 1): Fraction(125, 216), (1, 0): Fraction(91, 216)}),
    (2, 2, {(0, 2): Fraction(295, 1296), (1, 1): Fraction(420, 1296),
            (2, 0): Fraction(581, 1296)}),
    (3, 1, {(0, 1): Fraction(855, 1296), (1, 0): Fraction(441, 1296)}),
    (3, 2, {(0, 2): Fraction(2890, 7776), (1, 1): Fraction(2611, 7776),
            (2, 0): Fraction(2275, 7776)}),
]


@pytest.mark.parametrize(("a", "d", "expected"), ODDS)
def test_one_roll_odds_match_the_published_table(a, d, expected):
    counts: dict[tuple[int, int], int] = {}
    total = 0
    for af in product(range(1, 7), repeat=a):
        for df in product(range(1, 7), repeat=d):
            key = losses(af, df)
            counts[key] = counts.get(key, 0) + 1
            total += 1
    assert {k: Fraction(v, total) for k, v in counts.items()} == expected


def test_loss_table_agrees_with_the_comparison_for_every_roll():
    assert len(LOSSES) == sum(6 ** a * 6 ** d for a in (1, 2, 3) for d in (1, 2))
    assert all(losses(af, df) == v for (af, df), v in LOSSES.items())


@pytest.mark.parametrize(("armies", "limit"), [(2, 1), (3, 2), (4, 3), (10, 3)])
def test_attack_dice_limit_is_armies_minus_one_up_to_three(armies, limit):
    assert attack_dice_limit(armies) == limit


@pytest.mark.parametrize(("armies", "limit"), [(1, 1), (2, 2), (7, 2)])
def test_defence_dice_limit_is_armies_up_to_two(armies, limit):
    assert defence_dice_limit(armies) == limit


def exact_win_probability(source: int, defenders: int) -> Fraction:
    """Chance a blitz from `source` armies (stop at 1) takes `defenders`, from the table."""
    table = {(a, d): odds for a, d, odds in ODDS}
    memo: dict[tuple[int, int], Fraction] = {}

    def win(a: int, d: int) -> Fraction:
        if d == 0:
            return Fraction(1)
        if a <= 1:
            return Fraction(0)
        if (a, d) not in memo:
            outcomes = table[min(3, a - 1), min(2, d)]
            memo[a, d] = sum((p * win(a - la, d - ld) for (la, ld), p in outcomes.items()),
                             Fraction(0))
        return memo[a, d]

    return win(source, defenders)


def test_blitz_through_the_engine_wins_as_often_as_the_markov_chain_predicts():
    expected = float(exact_win_probability(6, 4))
    state = position(territories={"ukraine": ["red", 6], "ural": ["blue", 4]})
    rng = SeededSource("markov")
    trials, wins = 3000, 0
    for _ in range(trials):
        state.armies["ukraine"], state.armies["ural"] = 6, 4
        state.owner["ural"], state.pending = "blue", None
        apply(state, Blitz("red", "ukraine", "ural", 1), rng)
        wins += state.owner["ural"] == "red"
    sigma = (expected * (1 - expected) / trials) ** 0.5
    assert abs(wins / trials - expected) < 4 * sigma
