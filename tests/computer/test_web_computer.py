"""Computer seats through the web: the host sets them, phones read its announcements, and
the computer's hidden cards never reach a page that is not its seat's (it has none)."""

from __future__ import annotations

import json
import time

from hardware.profiles import load_profile
from pi_app.computer.simple_bot import SimpleBot
from pi_app.dice import FairDice
from pi_app.table.lights import LedMap
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring, awaited
from pi_app.table.service import LocalTableService
from pi_app.table_api import Viewer
from pi_app.web import create_app

PIN = "246813"
PROFILE = load_profile("classic-42")
SPEC = NewGameSpec("classic", ("red", "blue", "green", "yellow"), {"setup": "deal"})
HUMANS = ("red", "blue")


class Recorder:
    """Stands in for the emulated Pico."""

    def touch(self, channel: int) -> None:
        """Nothing to touch here."""


def start(tmp_path):
    loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(PROFILE), demo=SPEC,
                     dice=lambda: FairDice(b"\x03" * 32))
    loop.start()
    service = LocalTableService(loop, leds=LedMap.from_profile(PROFILE), emulator=Recorder())
    app = create_app(service, host_pin=PIN, data_dir=tmp_path / "data",
                     command_rate=(1000.0, 1000))
    tokens = app.extensions["riskboard"].seats.issue_all(list(SPEC.players))
    return loop, service, app.test_client(), tokens


def test_computer_seats_through_the_host_api_and_their_cards_stay_secret(tmp_path):
    loop, service, client, tokens = start(tmp_path)
    try:
        bad = client.post("/api/host/computer", json={"seats": {"green": "genius"}},
                          headers={"X-Host-Pin": PIN})
        assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad_computer"
        no_pin = client.post("/api/host/computer", json={"seats": {"green": "hard"}})
        assert no_pin.status_code in (401, 403)
        done = client.post("/api/host/computer", headers={"X-Host-Pin": PIN},
                           json={"seats": {"green": "hard", "yellow": "easy"},
                                 "confirm_after_s": 0.05})
        assert done.status_code == 200
        assert done.get_json()["result"]["seats"] == {"green": "hard", "yellow": "easy"}
        # issue 32.2: the host trusts the lights (one Confirm per computer turn), or not
        trust = client.post("/api/host/computer", headers={"X-Host-Pin": PIN},
                            json={"trust_lights": True})
        assert trust.status_code == 200 and trust.get_json()["result"]["trust_lights"] is True
        bad = client.post("/api/host/computer", headers={"X-Host-Pin": PIN},
                          json={"trust_lights": "yes"})
        assert bad.status_code == 400 and bad.get_json()["error"]["code"] == "bad_computer"
        assert loop.call(lambda core: core.computers.trust_lights) is True
        # the computer's seat no longer takes a phone's commands
        refused = client.post("/api/command", headers={"X-Seat-Token": tokens["green"]},
                              json={"command": {"type": "end_turn", "player": "green"}})
        assert refused.status_code == 403
        assert refused.get_json()["error"]["code"] == "computer_seat"
        bot = SimpleBot()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            state = loop.call(lambda core: core.state.copy())
            if state.winner or (state.hands["green"] and state.hands["yellow"]):
                break
            waiting = [p for p in awaited(state) if p in HUMANS]
            if not waiting:
                time.sleep(0.02)
                continue
            command = bot.choose(state, waiting[0]).to_dict()
            loop.call(lambda core, c=command, p=waiting[0]: core.submit(c, Viewer("player", p)))
        state = loop.call(lambda core: core.state.copy())
        secret = state.hands["green"] + state.hands["yellow"]
        assert secret, "the computers never drew a card"
        views = {
            "red": client.get("/api/state", headers={"X-Seat-Token": tokens["red"]}),
            "public": client.get("/api/state"),
        }
        for who, response in views.items():
            view = response.get_json()["state"]
            assert "hands" not in view and "deck" not in view
            assert view.get("my_hand", []) == ([] if who == "public" else state.hands["red"])
            assert view["hand_counts"]["green"] == len(state.hands["green"])
            assert view["table"]["computers"]["seats"] == {"green": "hard", "yellow": "easy"}
        # its drawn cards reach other viewers as counts only; its moves are announced
        updates = service.updates_since(-1, Viewer("player", "red"))
        events = [e for u in updates for e in u.events]
        announced = [e for e in events if e["type"] == "computer_move"]
        assert announced and all("(computer)" in e["text"] for e in announced)
        for event in events:
            if event["type"] == "card_drawn" and event["player"] in ("green", "yellow"):
                assert "card" not in event
        text = json.dumps(events)
        for card in state.hands["green"]:  # a held card's id only as a territory, never a card
            assert f'"card": "{card}"' not in text and f'"cards": ["{card}"' not in text
    finally:
        loop.stop()
