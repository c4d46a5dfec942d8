"""Private information reaches only its owner, over a whole bot-played game through the
web: every state snapshot, every command answer and every stream message is checked for
each seat token and for a spectator."""

from __future__ import annotations

import json
import threading

import pytest

from pi_app.table_api import Viewer
from pi_app.web.stream import event_stream

from .conftest import BOT, seat

FORBIDDEN_KEYS = {"hands", "missions", "deck", "hq"}


def _check_state(state: dict, viewer: str | None, table) -> None:
    assert not FORBIDDEN_KEYS & set(state), f"{viewer} got {FORBIDDEN_KEYS & set(state)}"
    assert all(isinstance(n, int) for n in state["hand_counts"].values())
    if viewer is None:
        assert "my_hand" not in state and "my_mission" not in state
    else:
        assert state["my_hand"] == table.state.hands[viewer]
        assert state["my_mission"] == f"SECRET-MISSION-{viewer}"
    text = json.dumps(state)
    for other in table.state.players:
        if other != viewer:
            assert f"SECRET-MISSION-{other}" not in text and f"SECRET-HQ-{other}" not in text


def _check_events(events: list[dict], viewer: str | None) -> int:
    seen_cards = 0
    for event in events:
        if event["type"] in ("card_drawn", "cards_taken"):
            if event["player"] == viewer:
                seen_cards += 1
                assert "card" in event or "cards" in event
            else:
                assert "card" not in event and "cards" not in event, (viewer, event)
    return seen_cards


@pytest.mark.slow
def test_no_token_but_the_owners_receives_private_information(client, table, tokens):
    for player in table.state.players:
        table.state.missions[player] = f"SECRET-MISSION-{player}"
        table.state.hq[player] = f"SECRET-HQ-{player}"
    viewers = [*table.state.players, None]
    for step in range(400):
        state = table.state
        if state.winner:
            break
        player = state.pending["player"] if state.pending else state.current_player
        command = BOT.choose(state, player).to_dict()
        res = client.post("/api/command", json={"command": command}, headers=seat(tokens[player]))
        assert res.status_code == 200, res.get_json()
        _check_events(res.get_json()["events"], player)
        if step % 25 == 0:
            for viewer in viewers:
                headers = seat(tokens[viewer]) if viewer else {}
                _check_state(client.get("/api/state", headers=headers).get_json()["state"],
                             viewer, table)
    drawn = {p: 0 for p in viewers}
    for viewer in viewers:
        v = Viewer("player", viewer) if viewer else Viewer("spectator")
        stream = event_stream(table, v, 0, threading.Event(), 15.0)
        message = next(m for m in stream if m.startswith("id: "))
        msg = json.loads(message.split("data: ", 1)[1])
        _check_state(msg["state"], viewer, table)
        drawn[viewer] = _check_events([e for u in msg["updates"] for e in u["events"]], viewer)
    assert sum(drawn.values()) > 0, "the game should have drawn cards to check"
