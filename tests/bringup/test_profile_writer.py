"""The profile writer turns a draft into a profile that loads as the same wiring, with the
shipped profiles' comments, and refuses a draft that leaves a territory without a sensor."""

from __future__ import annotations

import pytest

from hardware.errors import ProfileError
from hardware.profiles import load_profile
from pi_app.bringup.core import facts_from_rules
from pi_app.bringup.draft import Draft
from pi_app.bringup.profile_writer import profile_text, write_profile
from pi_app.rules.board import load_map

FACTS = facts_from_rules()
BOARD = load_map()


def draft_of(name: str) -> Draft:
    shipped = load_profile(name)
    draft = Draft(led_count=shipped.led_count, colour_order="GRB")
    draft.sensors = {t: (s.channel, s.kind) for t, s in shipped.sensors.items()}
    draft.territory_leds = {t: list(leds) for t, leds in shipped.territory_leds.items()}
    draft.status_leds = {g: list(leds) for g, leds in shipped.status_leds.items()}
    draft.controls = dict(shipped.controls)
    draft.tokens = {c: list(u) for c, u in shipped.tokens.items()}
    draft.markers = {c: list(u) for c, u in shipped.markers.items()}
    return draft


@pytest.mark.parametrize("name", ["classic-42", "classic-42-nfc"])
def test_a_shipped_wiring_written_again_loads_as_the_same_profile(name):
    shipped = load_profile(name)
    text = profile_text(draft_of(name), FACTS, name=name, map_name=BOARD.name,
                        continent_names=BOARD.continent_names,
                        sensor_count=shipped.sensor_count)
    written = write_profile(text, FACTS, map_name=BOARD.name).profile
    for field in ("led_count", "sensor_count", "territory_leds", "sensors", "status_leds",
                  "colour_order", "controls", "tokens", "markers"):
        assert getattr(written, field) == getattr(shipped, field), field
    assert written.sensor_crc() == shipped.sensor_crc()
    for continent in ("North America", "Australia"):
        assert f"\n# {continent}\n" in text
    assert '\ncolour_order = "GRB"\n' in text


def test_a_territory_without_a_sensor_is_refused_by_the_validator():
    draft = draft_of("classic-42")
    del draft.sensors["peru"]
    text = profile_text(draft, FACTS, name="x", map_name=BOARD.name,
                        continent_names=BOARD.continent_names)
    with pytest.raises(ProfileError, match="sensor channel -1"):
        write_profile(text, FACTS, map_name=BOARD.name)
