"""The running service's own `board` finding (pi_app.checks.board_check): what the maker's
`riskboard doctor` shows as the board line when it may not read the profile itself."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hardware.profiles import load_profile
from pi_app.checks import board_check

PROFILE = load_profile("classic-42")


def rig_linked(link: dict[str, Any], profile: Any = PROFILE) -> SimpleNamespace:
    return SimpleNamespace(profile=profile, emulator=None,
                           link=SimpleNamespace(get_status=lambda: link))


def test_no_board_line_until_the_pico_has_introduced_itself() -> None:
    assert board_check(SimpleNamespace(profile=PROFILE, emulator=None, link=None)) is None
    assert board_check(rig_linked({"connected": False, "sensor_count": None})) is None


def test_a_linked_pico_with_the_profiles_map_matches() -> None:
    found = board_check(rig_linked({"connected": True, "sensor_count": 42,
                                    "profile_crc": f"{PROFILE.sensor_crc():08x}"}))
    assert found is not None and found.ok, found
    assert "the Pico's 42 sensor channels and their map" in found.detail


def test_a_pico_whose_readers_are_silent_does_not_match_an_nfc_profile() -> None:
    nfc = load_profile("classic-42-nfc")
    channel = min(spec.channel for spec in nfc.sensors.values() if spec.kind == "nfc")
    fault = f"event=nfc.setup channel={channel} model=pn532 error=no answer"
    found = board_check(rig_linked({"connected": True, "sensor_count": nfc.sensor_count,
                                    "profile_crc": f"{nfc.sensor_crc():08x}",
                                    "board_id": "classic-42-nfc", "pico_faults": [fault]},
                                   nfc))
    assert found is not None and not found.ok, found
    assert nfc.territory_at(channel) in found.detail, found.detail


def test_a_check_that_breaks_is_a_failed_finding_not_a_broken_status_page() -> None:
    found = board_check(rig_linked({"connected": True, "sensor_count": 42},
                                   profile=SimpleNamespace()))
    assert found is not None and not found.ok and found.detail
