"""Fixtures for the table tests."""

from __future__ import annotations

import pytest

from pi_app.dice import SeededSource
from pi_app.rules import GameState, HouseRules, new_game


@pytest.fixture
def claim_state() -> GameState:
    """A fresh Classic game in the claim phase."""
    return new_game("classic", ["red", "blue", "green"], HouseRules(), SeededSource(1)).state
