"""Fixtures of the web tests: the real table service, the app around it, seat tokens."""

from __future__ import annotations

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.rules import legal_attacks_from
from pi_app.table_api import Viewer
from pi_app.web import create_app

PIN = "13572468"


@pytest.fixture
def table(tmp_path):
    """A fresh table: the real table service (`real_table.ServedTable`: the table loop on
    a journal file, the simulated board's sensors), classic, red, blue and green, red
    claims first."""
    from .real_table import ServedTable

    served = ServedTable(tmp_path / "table")
    yield served
    served.close()


@pytest.fixture
def served_table(tmp_path):
    """Makes real table services (`real_table.ServedTable`) of any players and variant; each
    is closed after the test."""
    from .real_table import ServedTable

    made: list[ServedTable] = []

    def make(players: tuple[str, ...] = ("red", "blue", "green"),
             variant: str = "classic") -> ServedTable:
        made.append(ServedTable(tmp_path / f"served{len(made)}", players, variant))
        return made[-1]

    yield make
    for table in made:
        table.close()


@pytest.fixture
def app(table, tmp_path):
    """The web app around the table service, with generous rate limits."""
    return create_app(table, host_pin=PIN, data_dir=tmp_path / "data",
                      command_rate=(1000.0, 1000), join_rate=(1000.0, 1000),
                      seat_state_rate=(1000.0, 1000))


@pytest.fixture
def client(app):
    """A Flask test client."""
    return app.test_client()


@pytest.fixture
def tables(tmp_path):
    """Makes real tables (`real_table.Table`: the table loop behind the web app) from a
    NewGameSpec; each is stopped after the test."""
    from .real_table import Table

    made: list[Table] = []

    def make(spec, seed: bytes = b"\x07") -> Table:
        made.append(Table(tmp_path / f"table{len(made)}", spec, seed))
        return made[-1]

    yield make
    for table in made:
        table.loop.stop()


@pytest.fixture
def tokens(app, table):
    """Seat tokens for every player of the table."""
    return app.extensions["riskboard"].seats.issue_all(list(table.state.players))


def seat(token: str) -> dict[str, str]:
    """The header that carries a seat token."""
    return {"X-Seat-Token": token}


def host(pin: str = PIN) -> dict[str, str]:
    """The header that carries the host PIN."""
    return {"X-Host-Pin": pin}


BOT = SimpleBot()


def bot_step(table) -> None:
    """Let the bot play one command for whoever the game waits for."""
    state = table.state
    player = state.pending["player"] if state.pending else state.current_player
    table.submit(BOT.choose(state, player).to_dict(), Viewer("player", player))


def play_until(table, done, limit: int = 2000) -> None:
    """Bot-play until `done(state)` holds."""
    for _ in range(limit):
        if done(table.state):
            return
        bot_step(table)
    raise AssertionError("the game never reached the wanted point")


def give_secrets(table) -> None:
    """Plant recognisable private data: a hand, a mission and an HQ pick per player."""
    for n, player in enumerate(table.state.players):
        table.state.hands[player] = [f"wild-{n + 1}"] if n < 2 else ["alaska"]
        table.state.missions[player] = f"SECRET-MISSION-{player}"
        table.state.hq[player] = f"SECRET-HQ-{player}"


def attack_needing_defence(state):
    """(source, target) of an attack the current player may make whose defender can choose
    between one and two dice (the target holds 2+ armies); None when there is none now."""
    if state.phase != "attack" or state.pending is not None:
        return None
    for source in state.territories_of(state.current_player):
        for target in legal_attacks_from(state, source):
            if state.armies[target] >= 2:
                return source, target
    return None
