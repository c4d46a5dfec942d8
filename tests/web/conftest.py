"""Fixtures of the web tests: a FakeTable, the app around it, seat tokens."""

from __future__ import annotations

import pytest

from pi_app.web import create_app

from .fake_table import FakeTable

PIN = "13572468"


@pytest.fixture
def table(tmp_path):
    """A fresh toy table (red and blue, red to play)."""
    return FakeTable(tmp_path / "journal")


@pytest.fixture
def app(table, tmp_path):
    """The web app around the toy table, with generous rate limits."""
    return create_app(table, host_pin=PIN, data_dir=tmp_path / "data",
                      command_rate=(1000.0, 1000), join_rate=(1000.0, 1000))


@pytest.fixture
def client(app):
    """A Flask test client."""
    return app.test_client()


@pytest.fixture
def tokens(app, table):
    """Seat tokens for every player of the toy table."""
    return app.extensions["riskboard"].seats.issue_all(list(table.players))


def seat(token: str) -> dict[str, str]:
    """The header that carries a seat token."""
    return {"X-Seat-Token": token}


def host(pin: str = PIN) -> dict[str, str]:
    """The header that carries the host PIN."""
    return {"X-Host-Pin": pin}
