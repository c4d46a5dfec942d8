"""Fixtures of the web tests: the real table service (or a FakeTable where a module says
why), the app around it, seat tokens."""

from __future__ import annotations

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.rules import legal_attacks_from
from pi_app.table_api import Viewer
from pi_app.web import create_app

from .fake_table import FakeTable

PIN = "13572468"


# Issue 22.2: the web tests run against the real table service (`real_table.ServedTable`:
# the table loop on a journal file, the simulated board's sensors). These modules still
# run on the hand-kept FakeTable, each for the reason given.
# Keys: a module, or module::test.
_SEQ = ("asserts the FakeTable's seq (its journal seq) as the stream's; the real table's "
        "seq is its revision, which also moves for a selection, a refusal or a new game")
FAKE_KEPT: dict[str, str] = {
    "test_api_commands::test_a_legal_command_goes_to_the_table_as_the_tokens_player": _SEQ,
    "test_host::test_undo_pause_resume_end_game": _SEQ,
    "test_serve::test_a_stream_gets_each_update_without_waiting_for_more_and_ends_on_stop":
        _SEQ,
    "test_stream": _SEQ,
    "test_host::test_host_action_rejections":
        "expects the FakeTable's own undo code nothing_to_undo (the table's is undo_nothing)",
    "test_host::test_journal_download":
        "reads the FakeTable's JSON-lines journal (the table's is SQLite)",
    "test_api_state::test_status_reports_the_link":
        "asserts the FakeTable's made-up link status (connected, /dev/pts/sim)",
    "test_api_state::test_virtual_board_and_touch_in_simulation":
        "reads the FakeTable's one-LED-per-territory board (the table's is the strip's frame)",
    "test_api_state::test_virtual_touch_rejections":
        "expects a touch that the FakeTable refuses and the table's gestures accept",
    "test_api_state::test_odds_and_dice_are_rate_limited":
        "asks odds on unclaimed territories, which only the FakeTable answers",
    "test_new_game_variants::test_a_physical_dice_game_starts_from_the_typed_first_player_roll":
        "expects the FakeTable's 409 for bad typed faces (the table answers 400)",
    "test_browser_matrix": "not yet checked against the real table: its accessibility pass "
                           "needs axe-core, which tools/ensure-browser.sh could not install here",
}


@pytest.fixture
def table(request, tmp_path):
    """A fresh table: classic, red, blue and green, red claims first; the real table
    service unless the test's module is in `FAKE_KEPT`."""
    module = request.module.__name__.rsplit(".", 1)[-1]
    if module in FAKE_KEPT or f"{module}::{request.node.originalname}" in FAKE_KEPT:
        yield FakeTable(tmp_path / "journal")
        return
    from .real_table import ServedTable

    served = ServedTable(tmp_path / "table")
    yield served
    served.close()


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
