"""The virtual board started miswired (`serve --sim --miswired SEED`, issue 25): with the stock
profile a touch on Brazil reaches another territory and Brazil's LEDs are not where the
profile says; with the profile a bring-up writes for that wiring, every territory's touch and
LEDs line up again.

The bring-up profile is made the way the maker makes it: the scripted maker of
tests/bringup/miswired.py answers the pure bring-up core over the same physical board, and
the core's draft is written with the bring-up's own profile writer."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest

from hardware.profiles import load_profile
from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.bringup.profile_writer import profile_text, save_profile, write_profile
from pi_app.config import Config
from pi_app.rules.board import load_map
from pi_app.table.loop import NewGameSpec
from pi_app.table.miswired import CONTROL_GPIO, miswired, shown_colour
from pi_app.table.rig import build_rig
from pi_app.web import create_app
from tests.bringup.miswired import Maker

PIN = "24681357"
CLAIM = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "claim"})
STOCK = load_profile("classic-42")


def seed_crossing(territory: str) -> int:
    """A seed whose miswiring puts `territory`'s button on another territory's channel."""
    return next(s for s in range(1, 1000)
                if miswired(STOCK, s).channel(territory) != STOCK.sensors[territory].channel)


SEED = seed_crossing("brazil")


def bring_up_profile(tmp_path: Path, seed: int) -> Path:
    """The profile a maker's bring-up writes for the board miswired by `seed`."""
    facts = facts_from_rules()
    board = miswired(STOCK, seed)
    core = BringUp(facts, led_count=150, brightness=0.5, supply_amps=4.0, nfc=False)
    maker = Maker(board, core)
    maker.count_and_colours()
    maker.sensors()
    maker.leds()
    maker.controls()
    maker.tags()
    maker.check()
    assert core.draft.step == "done"
    game_map = load_map()
    text = profile_text(core.draft, facts, name="my-board", map_name=game_map.name,
                        continent_names=game_map.continent_names,
                        sensor_count=board.sensor_count)
    path = tmp_path / "my-board.toml"
    save_profile(path, write_profile(text, facts, map_name=game_map.name))
    return path


def start(tmp_path: Path, profile: str | Path, seed: int):
    config = Config()
    config = dataclasses.replace(config, board=dataclasses.replace(
        config.board, profile=str(profile), miswired=seed))
    rig = build_rig(config, sim=True, data_dir=tmp_path / "data", demo=CLAIM)
    rig.start()
    wait_for(lambda: rig.link.connected and rig.loop.publisher.snapshot.state is not None
             and rig.strip.last is not None)
    return rig


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "the table did not get there"
        time.sleep(0.01)


def owners(rig) -> dict[str, str | None]:
    return dict(rig.loop.publisher.snapshot.state.owner)


def touch_on_virtual(client, territory: str) -> None:
    reply = client.post("/api/virtual/touch", json={"territory": territory},
                        headers={"X-Host-Pin": PIN})
    assert reply.status_code == 200, reply.get_json()


def claimed_by_touching(rig, client, territory: str) -> str:
    """Touch `territory` on /virtual during claiming; the territory the table heard."""
    before = owners(rig)
    touch_on_virtual(client, territory)
    wait_for(lambda: owners(rig) != before)
    (heard,) = [t for t, o in owners(rig).items() if o != before[t]]
    return heard


def shown_at(board: dict, leds: list[int]) -> set[tuple[int, ...]]:
    return {tuple(board["leds"][i]) for i in leds}


@pytest.fixture
def rigs():
    started = []
    yield started
    for rig in started:
        rig.stop()


def test_with_the_stock_profile_brazil_is_touched_and_lit_somewhere_else(tmp_path, rigs):
    rig = start(tmp_path, "classic-42", SEED)
    rigs.append(rig)
    client = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "web").test_client()
    heard = claimed_by_touching(rig, client, "brazil")
    assert heard != "brazil"
    assert owners(rig)["brazil"] is None
    board = client.get("/api/virtual/board").get_json()
    physical = board["territory_leds"]["brazil"]
    assert set(physical) != set(STOCK.territory_leds["brazil"])
    assert len(board["leds"]) == rig.service.physical.led_count  # the chain's true length
    # the table lights the claimed territory on the LEDs the profile gives it, which on
    # this board sit under other territories
    assert not rig.service.physical.leds_of(heard) >= set(STOCK.territory_leds[heard])
    # the chips take RGB where the driver sends GRB: every colour shows with red and green
    # swapped (pure red as green)
    assert shown_colour((255, 0, 0), "GRB", "RGB") == (0, 255, 0)
    frame = rig.strip.last
    shown = rig.service.physical.shown(frame, rig.service.colour_order())
    assert shown[:len(frame)] == [(g, r, b) for r, g, b in frame]
    assert board["buttons"] == list(CONTROL_GPIO)


def test_with_the_bring_up_profile_every_territory_answers_and_lights_as_the_map_says(
        tmp_path, rigs):
    profile_path = bring_up_profile(tmp_path, SEED)
    profile = load_profile(profile_path)
    rig = start(tmp_path, profile_path, SEED)
    rigs.append(rig)
    physical = rig.service.physical
    for territory in profile.territories:
        assert set(profile.territory_leds[territory]) == physical.leds_of(territory)
        assert profile.sensors[territory].channel == physical.channel(territory)
    assert dict(profile.controls) == CONTROL_GPIO
    client = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "web").test_client()
    assert claimed_by_touching(rig, client, "brazil") == "brazil"
    for territory in ("peru", "alberta", "western-europe", "kamchatka"):
        assert claimed_by_touching(rig, client, territory) == territory
    # every territory's physical LEDs show the colours the table means for the territory
    assert profile.colour_order == physical.chip_order == "RGB"
    frame = rig.strip.last
    shown = physical.shown(frame, rig.service.colour_order())
    for territory, leds in profile.territory_leds.items():
        meant = {tuple(frame[i]) for i in leds}
        assert {shown[i] for i in physical.leds_of(territory)} == meant, territory
    assert len({tuple(frame[i]) for i in profile.territory_leds["brazil"]}) == 1
    board = client.get("/api/virtual/board").get_json()
    assert board["territory_leds"]["brazil"] == sorted(profile.territory_leds["brazil"])


def test_miswired_is_for_the_virtual_board_only_and_takes_a_positive_number(tmp_path, capsys):
    from pi_app.cli import main

    assert main(["serve", "--miswired", "7", "--port", "0", "--data", str(tmp_path)]) == 2
    assert "--miswired is for the virtual board only" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["serve", "--sim", "--miswired", "zero"])
    assert "a whole number" in capsys.readouterr().err


def test_the_config_key_names_a_bad_seed():
    from pi_app.config import ConfigError, config_from_dict

    with pytest.raises(ConfigError, match=r"board\.miswired"):
        config_from_dict({"board": {"miswired": -1}})
