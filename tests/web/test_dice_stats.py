"""Dice statistics: chi-square against a fair die and the luck index."""

from __future__ import annotations

import math

from pi_app.web.dice_stats import chi_square_uniform, dice_statistics, expected_losses


def test_perfectly_even_counts_have_chi_square_zero_and_p_one():
    assert chi_square_uniform([10] * 6) == (0.0, 1.0)


def test_p_value_matches_the_5_degree_table():
    # expected 10 per face: (20-10)^2/10 + (0-10)^2/10 = 20
    stat, p = chi_square_uniform([20, 0, 10, 10, 10, 10])  # e=10: 10 + 10 = 20
    assert math.isclose(stat, 20.0)
    assert math.isclose(p, 0.00124973, rel_tol=1e-4)  # scipy.stats.chi2.sf(20, 5)


def test_no_rolls_has_no_p_value():
    assert chi_square_uniform([0] * 6) == (0.0, None)


def test_expected_losses_of_three_against_two_dice():
    attacker, defender = expected_losses(3, 2)
    # 2890/7776 attacker loses none, 2611/7776 one each, 2275/7776 attacker loses two
    assert math.isclose(attacker, (2611 + 2 * 2275) / 7776)
    assert math.isclose(defender, (2 * 2890 + 2611) / 7776)


def test_luck_is_expected_minus_actual_losses_per_player():
    battle = {"type": "battle", "attacker": "red", "defender": "blue", "from": "a", "to": "b",
              "attack_dice": [6, 5, 4], "defence_dice": [1, 1],
              "attacker_losses": 0, "defender_losses": 2}
    stats = dice_statistics([battle, {"type": "placed", "player": "red"}])
    assert stats["rolls"] == 1
    assert stats["faces"] == [2, 0, 0, 1, 1, 1]
    exp_a, exp_d = expected_losses(3, 2)
    assert math.isclose(stats["luck"]["red"]["luck"], round(exp_a, 3))
    assert math.isclose(stats["luck"]["blue"]["luck"], round(exp_d - 2, 3))
    assert stats["luck"]["blue"]["lost"] == 2
