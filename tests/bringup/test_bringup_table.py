"""Bring-up on the real table (issue 25): the mode takes the board's sensors, buttons and
LEDs from a paused game, a scripted maker brings the virtual board up through the API,
the profile is saved (with a backup and a diff first) and loaded without a restart, and
the game comes back exactly as it was."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from hardware.profiles import load_profile
from pi_app.config import config_from_dict
from pi_app.dice import FairDice
from pi_app.table.loop import NewGameSpec
from pi_app.table.rig import build_rig
from pi_app.web import create_app
from tests.bringup.table_maker import TableMaker, wait_for

pytestmark = pytest.mark.slow
PIN = "24681357"
HEADERS = {"X-Host-Pin": PIN}


@dataclass
class Truth:
    """A board wired exactly as its profile says (the maker's truth)."""

    owners: list[str | None]
    channel_of: dict[str, int]
    nfc: bool
    controls: dict[str, int]
    tokens: dict[str, tuple[str, ...]] = field(default_factory=dict)
    markers: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, profile: Any) -> Truth:
        owners: list[str | None] = [None] * profile.led_count
        for territory, leds in profile.territory_leds.items():
            for i in leds:
                owners[i] = territory
        for name, leds in profile.status_leds.items():
            for i in leds:
                owners[i] = f"status:{name}"
        return cls(owners, {t: s.channel for t, s in profile.sensors.items()},
                   any(s.kind == "nfc" for s in profile.sensors.values()),
                   dict(profile.controls), dict(profile.tokens), dict(profile.markers))

    def shown(self, frame: Any, sent: str) -> list[tuple[int, int, int]]:
        frame = frame or ()
        return [tuple(frame[i]) if i < len(frame) else (0, 0, 0)  # type: ignore[misc]
                for i in range(len(self.owners))]


class ApiPhone:
    """The maker's phone as the bring-up API (the page makes the same calls)."""

    def __init__(self, client: Any) -> None:
        self.client = client

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.client.post(f"/api/host/bringup{path}", headers=HEADERS,
                                data=json.dumps(body or {}), content_type="application/json")

    def answer(self, what: str, value: Any = None) -> None:
        response = self.post("/answer", {"what": what, "value": value})
        assert response.status_code == 200, response.get_json()

    def state(self) -> dict[str, Any]:
        return self.client.get("/api/host/bringup", headers=HEADERS).get_json()


@pytest.fixture
def table(tmp_path):
    config = config_from_dict({"buttons": {"hold_time": 0.1}})
    rig = build_rig(config, sim=True, data_dir=tmp_path / "data",
                    demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}),
                    dice=lambda: FairDice(b"\x03" * 32))
    rig.start()
    try:
        wait_for(lambda: rig.link.connected, 60, "the emulated Pico")
        app = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "web",
                         command_rate=(1000.0, 1000))
        yield rig, app.test_client()
    finally:
        rig.stop()


def test_a_whole_bring_up_through_the_api_saves_and_loads_the_profile_live(table):
    rig, client = table
    phone = ApiPhone(client)
    before = rig.loop.publisher.snapshot
    assert not before.paused and before.status == "running"
    assert phone.post("/start", {"pace": 0.3}).status_code == 200
    assert rig.loop.publisher.snapshot.paused, "a running game is paused for the bring-up"
    again = phone.post("/start")
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "bringup_running"
    refused = phone.post("/save", {})
    assert refused.get_json()["error"]["code"] == "not_finished"

    last_seq = rig.loop.call(lambda core: core.session.last_seq)
    profile = load_profile("classic-42")
    maker = TableMaker(Truth.of(profile), rig, phone)
    maker.whole()
    # the game heard none of it: no journal entry, same game
    game = rig.loop.publisher.snapshot
    assert game.game_id == before.game_id
    assert rig.loop.call(lambda core: core.session.last_seq) == last_seq

    preview = client.get("/api/host/bringup/preview", headers=HEADERS).get_json()
    assert preview["sensor_crc"] == f"{profile.sensor_crc():08x}"
    assert preview["crc_matches"] is True
    assert preview["diff"].startswith("---") and "learned at bring-up" in preview["diff"]
    # a Pico flashed with another sensor map: saving is refused until the maker says so
    identity = rig.link.core.identity
    real_crc, identity["profile_crc"] = identity["profile_crc"], "0badc0de"
    refused = phone.post("/save", {})
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "sensor_crc_mismatch"
    assert refused.get_json()["error"]["params"] == {"pico_crc": "0badc0de",
                                                     "sensor_crc": preview["sensor_crc"]}
    identity["profile_crc"] = real_crc
    # a profile saved before is kept as the backup
    target = rig.data_dir / "board-profile.toml"
    target.write_text(preview["text"].replace("learned at bring-up", "an earlier one"))
    saved = phone.post("/save", {})
    assert saved.status_code == 200, saved.get_json()
    body = saved.get_json()
    assert body["active"] is False
    path = body["last_saved"]["path"]
    assert path == str(target)
    assert "an earlier one" in Path(body["last_saved"]["backup"]).read_text("utf-8")
    learned = load_profile(path)
    for part in ("territory_leds", "status_leds", "sensors", "controls"):
        assert getattr(learned, part) == getattr(profile, part), part
    assert not rig.loop.publisher.snapshot.paused, "the game is resumed as it was"
    # the table hears the game again: a touch of the current player's territory selects it
    state = rig.loop.publisher.snapshot.state
    mine = next(t for t, o in state.owner.items() if o == state.current_player)
    revision = rig.loop.publisher.snapshot.revision
    rig.emulator.touch(learned.sensors[mine].channel)
    wait_for(lambda: rig.loop.publisher.snapshot.revision > revision, what="the game to hear")
    counts = maker.counts
    assert counts.touches == 42 + 42 + counts.retries and counts.presses == 8
    print(f"\nactions: touches={counts.touches} taps={counts.taps} presses={counts.presses}"
          f" retries={counts.retries}")


def test_a_paused_game_stays_paused_and_a_stopped_bring_up_changes_nothing(table):
    rig, client = table
    phone = ApiPhone(client)
    assert client.post("/api/host/pause", headers=HEADERS).status_code == 200
    leds, wiring = rig.painter.leds, rig.loop.wiring
    assert phone.post("/start").status_code == 200
    phone.answer("confirm")
    before = rig.loop.publisher.snapshot.revision
    rig.emulator.touch(0)  # heard by the bring-up, not the game
    wait_for(lambda: phone.state()["heard"] == 2, what="the touch in the live view")
    live = phone.state()["channels"]
    assert live[0]["channel"] == 0 and live[0]["events"] == 2 and live[0]["last"] == "release"
    assert rig.loop.publisher.snapshot.revision == before
    stopped = phone.post("/stop")
    assert stopped.status_code == 200 and stopped.get_json()["active"] is False
    assert rig.loop.publisher.snapshot.paused, "a game paused before stays paused"
    assert rig.painter.leds is leds and rig.loop.wiring is wiring
    assert not (rig.data_dir / "board-profile.toml").exists()
    assert phone.post("/stop").get_json()["error"]["code"] == "no_bringup"
    assert client.get("/api/host/bringup").status_code == 401
