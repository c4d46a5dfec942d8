"""Shared fixtures for the rules tests."""

from __future__ import annotations

import pytest

from pi_app.rules.board import load_cards, load_map


@pytest.fixture(scope="session")
def board():
    """The validated classic map."""
    return load_map()


@pytest.fixture(scope="session")
def deck():
    """The validated RISK deck."""
    return load_cards()
