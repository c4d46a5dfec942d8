"""Issue #6 acceptance, web side: with the real table service behind the web, no other
player's token and no spectator ever receives a Secret Mission, a Capital HQ pick before
the reveal, or a RISK Strike hand - not in a state snapshot, not in a command's answer, not
in any message of the live stream, not in any page's HTML. Whole bot-played games, checked
after every command."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from pi_app.computer.simple_bot import SimpleBot
from pi_app.computer.strike_bot import StrikeBot
from pi_app.rules.legal import awaiting_players
from pi_app.rules.strike import waiting_for
from pi_app.table_api import Viewer
from pi_app.web.stream import event_stream

from .browsing import without_public_blocks
from .conftest import seat
from .real_table import ServedTable

GAMES = [
    ("mission", ("red", "blue", "green")),
    ("capital", ("red", "blue", "green", "yellow")),
    ("two-player", ("red", "blue")),
    ("allied", ("red", "blue")),
    ("strike", ("red", "blue", "green")),
]
PAGES = ("/", "/me", "/virtual", "/host", "/dice")
BOARD_BOT, STRIKE_BOT = SimpleBot(), StrikeBot()


def next_move(state) -> dict[str, Any]:
    """The bot's command for a player the game waits for."""
    if state.variant == "strike":
        return STRIKE_BOT.choose(state, waiting_for(state)[0]).to_dict()
    return BOARD_BOT.choose(state, awaiting_players(state)[0]).to_dict()


def hidden_from(state, viewer: str | None) -> set[str]:
    """Strings `viewer` must not receive now: other seats' mission cards (the winner's is
    public once won) and other seats' Strike hands (cards the viewer's own spy report
    showed excepted)."""
    if state.variant == "strike":
        allowed = set(state.hands.get(viewer, ()))
        report = state.spied.get(viewer) if viewer else None
        if report:
            allowed |= set(report["hand"])
        return {c for p, hand in state.hands.items() if p != viewer for c in hand} - allowed
    return {m["card"] for p, m in state.missions.items()
            if p != viewer and p != state.winner}


def check_view(view: dict[str, Any], state, viewer: str | None) -> None:
    """A snapshot holds only what `viewer` may see."""
    text = json.dumps(view)
    leaked = [s for s in hidden_from(state, viewer) if f'"{s}"' in text]
    assert not leaked, f"{viewer} received {leaked}"
    assert not {"hands", "missions", "deck", "spied"} & set(view)
    if state.variant == "strike":
        assert view.get("my_hand") == (state.hands[viewer] if viewer else None)
        return
    if not state.hq_revealed:
        assert "hq" not in view, f"{viewer} saw HQ picks before the reveal"
        assert view.get("my_hq") == (state.hq.get(viewer) if viewer else None)
    assert view.get("my_mission") == (state.missions.get(viewer) if viewer else None)


def check_events(events: list[dict[str, Any]], viewer: str | None) -> None:
    """Private events reach their owner only; others' drawn cards arrive as counts."""
    for event in events:
        kind, owner = event["type"], event.get("player")
        if kind in ("mission_dealt", "mission_changed", "hq_chosen"):
            assert viewer is not None and owner == viewer, (viewer, event)
        private = {"card_drawn": "card", "cards_taken": "cards", "tactics_drawn": "cards",
                   "spied": "hand"}.get(kind)
        if private and owner != viewer:
            assert private not in event, (viewer, event)


class Watcher:
    """One viewer's live stream, read message by message."""

    def __init__(self, table: ServedTable, viewer: str | None) -> None:
        self.viewer = viewer
        who = Viewer("player", viewer) if viewer else Viewer("spectator")
        self.stream = event_stream(table, who, None, threading.Event(), 15.0)

    def read(self) -> dict[str, Any]:
        """The next update message (skipping the retry line)."""
        for text in self.stream:
            if text.startswith("id: "):
                return json.loads(text.split("data: ", 1)[1])
        raise AssertionError("the stream ended")


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_no_other_token_and_no_spectator_receives_a_secret(app, client, tmp_path,
                                                           variant, players, served_table):
    table = served_table(players=players, variant=variant)
    app.extensions["riskboard"].table = table
    tokens = app.extensions["riskboard"].seats.issue_all(list(players))
    viewers: list[str | None] = [*players, None]
    watchers = [Watcher(table, v) for v in viewers]
    secrets_seen = revealed_seen = 0
    for step in range(3000):
        state = table.state
        if state.winner:
            break
        command = next_move(state)
        player = command["player"]
        res = client.post("/api/command", json={"command": command},
                          headers=seat(tokens[player]))
        assert res.status_code == 200, res.get_json()
        check_events(res.get_json()["events"], player)
        for watcher in watchers:
            msg = watcher.read()
            check_view(msg["state"], table.state, watcher.viewer)
            check_events([e for u in msg["updates"] for e in u["events"]], watcher.viewer)
        if step % 15 == 0:
            for viewer in viewers:
                headers = seat(tokens[viewer]) if viewer else {}
                check_view(client.get("/api/state", headers=headers).get_json()["state"],
                           table.state, viewer)
                for page in PAGES:
                    html = without_public_blocks(client.get(page, headers=headers)
                                             .get_data(as_text=True))
                    assert not [s for s in hidden_from(table.state, viewer) if s in html]
        secrets_seen += bool(hidden_from(table.state, players[0]))
        revealed_seen += table.state.variant == "capital" and table.state.hq_revealed
    state = table.state
    assert state.winner, "the bots should finish the game"
    if variant in ("mission", "strike"):
        assert secrets_seen > 0, "there were secrets to keep"
    if variant == "capital":
        assert revealed_seen > 0 and all(state.hq.values())
    if variant == "mission":
        public = Watcher(table, None).read()["state"]
        assert public["missions_revealed"] == {state.winner: state.missions[state.winner]}
        assert all(m["card"] not in json.dumps(public) for p, m in state.missions.items()
                   if p != state.winner)
