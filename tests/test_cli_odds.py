"""`riskboard odds` prints exact odds as JSON or text and rejects bad input with exit 2."""

import json
from fractions import Fraction

import pytest

from pi_app.cli import main


def test_odds_json_prints_the_documented_keys_and_values(capsys):
    assert main(["odds", "2", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == [
        "source", "target", "p_conquer", "expected_attacker_losses", "expected_defender_losses"]
    # One die against one: the attacker wins outright with 15/36; otherwise loses its only
    # attacking army. So losses are 21/36 for the attacker and 15/36 for the defender.
    assert data["source"] == 2 and data["target"] == 1
    assert data["p_conquer"] == pytest.approx(float(Fraction(15, 36)), abs=1e-12)
    assert data["expected_attacker_losses"] == pytest.approx(21 / 36, abs=1e-12)
    assert data["expected_defender_losses"] == pytest.approx(15 / 36, abs=1e-12)


def test_odds_without_json_prints_a_readable_summary(capsys):
    assert main(["odds", "4", "3"]) == 0
    out = capsys.readouterr().out
    # Osborne 2003 Table 3, A=3 vs D=3: 0.470
    assert "47.0" in out
    assert "chance of conquest" in out


@pytest.mark.parametrize("argv", [["odds", "x", "3"], ["odds", "0", "3"], ["odds", "5", "-1"],
                                  ["odds", "5", "2.5"], ["odds", "99999", "2"],
                                  ["odds", "1001", "5"], ["odds", "5", "10000"]])
def test_odds_bad_input_exits_2_with_a_sentence(argv, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "must" in err and err.strip().endswith(".")


def test_odds_200_by_200_is_answered(capsys):
    assert main(["odds", "200", "200", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert 0.5 < data["p_conquer"] < 1


def test_odds_at_the_documented_cap_is_answered_within_bounds(capsys):
    assert main(["odds", "1000", "1000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # Three dice against two: per roll the attacker loses (2611 + 2 * 2275) / 7776 armies
    # on average and the defender (2 * 2890 + 2611) / 7776, so over a thousand armies the
    # attacker all but surely wins, paying about 1000 * 7161 / 8391 = 853 armies.
    assert 0.99 < data["p_conquer"] < 1
    assert data["expected_attacker_losses"] == pytest.approx(1000 * 7161 / 8391, rel=0.01)
    assert 999 < data["expected_defender_losses"] < 1000
