"""Does the board profile in use match the board that answers? (`riskboard doctor`, issue 25)

Compares a `hardware.profiles.BoardProfile` with what the board says of itself: the Pico's
handshake (its sensor channel count and sensor-map CRC, from the link's status), the lasting
faults it reports (an NFC reader or a mux that did not answer at boot, by channel, with the
mux port the firmware looked on for the board it was flashed for), and the
LED chain's length where something can tell it (the virtual board knows its chain; a real
WS281x chain cannot report its length, and the bring-up counts it with the maker). Pure: no
I/O. Every difference is one plain clause; `MISMATCH_ADVICE` is the sentence that follows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

MISMATCH_ADVICE = ("the profile does not describe this board: run the bring-up (the host "
                   "page's Bring-up, or `riskboard bringup`) so riskboard learns how it is "
                   "wired")
_READER_FAULT = re.compile(r"event=nfc\.setup channel=(\d+)")
_MUX_FAULT = re.compile(r"event=nfc\.mux_missing")


def missing_readers(faults: Sequence[str]) -> list[int]:
    """The channels whose NFC reader did not answer at boot, from the Pico's fault lines."""
    channels = {int(m.group(1)) for f in faults if (m := _READER_FAULT.search(str(f)))}
    return sorted(channels)


def reader_wiring(board_id: object, channel: int) -> dict[str, Any]:
    """Where the Pico's firmware looks for `channel`'s reader on the board it was flashed
    for (`firmware_bridge/firmware/board_config.py`), as data: `{"mux": "0x70", "port": 6}`,
    `{"bus": "i2c"}` (a reader straight on the I2C bus) or `{"cs": 17}` (an SPI chip select
    on GP17); `{}` when that board or channel is not one the firmware knows."""
    from firmware_bridge.firmware import board_config

    make = board_config.BOARDS.get(str(board_id))
    if make is None:
        return {}
    for reader in make().readers():
        if reader[0] == channel:
            if reader[1] == board_config.READER_PN532:
                if reader[2] is None:
                    return {"bus": "i2c"}
                return {"mux": f"0x{reader[2]:02x}", "port": reader[3]}
            return {"cs": reader[2]}
    return {}


def reader_place(board_id: object, channel: int) -> str:
    """`reader_wiring` as doctor's words: "mux 0x70 port 6", "on the I2C bus", "chip select
    GP17", or ""."""
    wiring = reader_wiring(board_id, channel)
    if "mux" in wiring:
        return f"mux {wiring['mux']} port {wiring['port']}"
    if "bus" in wiring:
        return "on the I2C bus"
    if "cs" in wiring:
        return f"chip select GP{wiring['cs']}"
    return ""


def board_problems(profile: Any, link: Mapping[str, Any], led_count: int | None = None
                   ) -> list[str]:
    """What differs between `profile` and the board: `link` is the link's status (after a
    handshake: `sensor_count`, `profile_crc` as 8 hex digits, `pico_faults`); `led_count`
    the chain's true length when known. Empty when everything that can be compared matches."""
    problems: list[str] = []
    count = link.get("sensor_count")
    if count is not None and count != profile.sensor_count:
        problems.append(f"the Pico scans {count} sensor channels, the profile "
                        f"{profile.name} has {profile.sensor_count}")
    crc = link.get("profile_crc")
    expected = f"{profile.sensor_crc():08x}"
    if crc is not None and str(crc).lower() != expected:
        problems.append(f"the Pico's sensor map (which channel is a button, a reader or "
                        f"unused) has CRC {crc}, the profile's {expected}")
    faults = [str(f) for f in link.get("pico_faults") or []]
    readers = sorted(spec.channel for spec in profile.sensors.values() if spec.kind == "nfc")
    silent = [c for c in missing_readers(faults) if c in readers]
    if silent:
        board_id = link.get("board_id")

        def named(channel: int) -> str:
            place = reader_place(board_id, channel)
            return f"{channel} ({profile.territory_at(channel)}{', ' + place if place else ''})"

        names = ", ".join(named(c) for c in silent)
        problems.append(f"{len(readers) - len(silent)} of the profile's {len(readers)} NFC "
                        f"readers answer; none on channel {names}")
    if any(_MUX_FAULT.search(f) for f in faults):
        problems.append("a TCA9548A mux of the NFC readers did not answer")
    if led_count is not None and led_count != profile.led_count:
        problems.append(f"the LED chain has {led_count} LEDs, the profile "
                        f"{profile.led_count}")
    return problems


def board_finding(profile: Any, link: Mapping[str, Any], led_count: int | None = None
                  ) -> tuple[bool, str]:
    """(matches, the sentence for the doctor's "board" line)."""
    problems = board_problems(profile, link, led_count)
    if problems:
        return False, "; ".join(problems) + f". {MISMATCH_ADVICE[0].upper()}{MISMATCH_ADVICE[1:]}."
    readers = sum(1 for spec in profile.sensors.values() if spec.kind == "nfc")
    parts = [f"the Pico's {link.get('sensor_count')} sensor channels and their map (CRC "
             f"{link.get('profile_crc')}) match {profile.name}"]
    if readers:
        parts.append(f"all {readers} NFC readers answer")
    parts.append(f"the LED chain has the profile's {profile.led_count} LEDs" if led_count
                 is not None else f"LEDs: the profile's {profile.led_count} (a chain cannot "
                 "report its length; the bring-up counts it)")
    return True, "; ".join(parts)
