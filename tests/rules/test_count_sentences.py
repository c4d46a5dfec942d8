"""A refused army count is explained in a correct English sentence for every verb."""

from __future__ import annotations

import pytest

from pi_app.rules import RuleError
from pi_app.rules.engine import check_count


def refusal(count, low, high, what, kind=""):
    with pytest.raises(RuleError) as err:
        check_count(count, low, high, what, kind)
    assert err.value.code == "bad_count"
    return err.value.message


@pytest.mark.parametrize("what,sentence", [
    ("place", "There are no armies to place now."),
    ("move", "There are no armies to move now."),
    ("move in", "There are no armies to move in now."),
])
def test_nothing_to_count_names_the_verb_in_the_infinitive(what, sentence):
    assert refusal(1, 1, 0, what) == sentence


def test_a_range_a_single_army_and_a_kind_of_army_read_correctly():
    assert refusal(9, 1, 3, "move") == "You can move 1 to 3 armies, not 9."
    assert refusal(2, 1, 1, "move") == "You can move exactly 1 army, not 2."
    assert refusal(4, 3, 3, "move in") == "You can move in exactly 3 armies, not 4."
    assert refusal(5, 1, 2, "place", "neutral") == "You can place 1 to 2 neutral armies, not 5."
    assert refusal(1, 1, 0, "place", "allied") == "There are no allied armies to place now."


def test_an_accepted_count_raises_nothing():
    check_count(2, 1, 3, "move")
