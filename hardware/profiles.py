"""Board profiles: how a physical board is wired, read from `hardware/boards/<name>.toml`.

A profile says which LEDs light each territory, which sensor channel of the Pico each
territory has and whether it is a push button or an NFC reader, which GPIO pins the control
buttons use, how many LEDs the chain has (plus named status LEDs, e.g. dice), and which NFC
tag UIDs belong to each colour's tokens and marker pieces, and the colour order its LED chips
take (`colour_order`, "GRB" when left out; `hardware.colour_order`). It is validated at
load; an error names the file, the line and the problem (territory missing, LED index used
twice, unknown territory id, ...). Territory ids and colours come from the game's data files
(`pi_app/data/map.json` and `players.json`, which the rules validate when they load them): the
hardware reads the data, never the rules (tests/test_import_layers.py).

The sensor map's canonical byte form (`BoardProfile.sensor_map_bytes()`), whose CRC-32 the
bridge compares with the Pico's at handshake, is the one the firmware's
`firmware_bridge/firmware/board_config.py` hashes: the ASCII text `riskboard-sensors/1\n`,
then one line `<channel>:<kind>\n` per channel 0..sensor_count-1 in ascending order, kind
`button`, `nfc`, or `none` for a channel no territory uses. Two buttons give
b"riskboard-sensors/1\n0:button\n1:button\n". Only what both ends know is hashed (the Pico
knows no territory ids), so moving a territory to another channel of the same kind keeps the
CRC; changing a channel's kind or the channel count changes it. `sensor_crc()` is zlib.crc32
of those bytes (CRC-32/ISO-HDLC), an unsigned 32-bit integer.

Run `python -m hardware.profiles [name-or-path]` to check a profile and print its CRC.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
import sys
import tomllib
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hardware.colour_order import DEFAULT_ORDER, check_colour_order
from hardware.control_names import CONTROL_NAMES
from hardware.errors import ProfileError
from hardware.gpio_pins import caution, check_pin_conflicts, pin_warnings, spi_refusal
from hardware.toml_lines import KeyLines

__all__ = [
    "DEFAULT_PROFILE", "BoardProfile", "SensorSpec", "available_profiles", "check_pin_conflicts",
    "game_names", "load_profile", "normalise_uid", "parse_profile", "pin_warnings",
]

log = logging.getLogger(__name__)

DEFAULT_PROFILE = "classic-42"
SENSOR_KINDS = ("button", "nfc")
SENSOR_MAP_HEADER = b"riskboard-sensors/1\n"
UID_BYTES = (4, 7, 10)  # ISO 14443-A single, double and triple size UIDs
GPIO_PINS = range(2, 28)  # BCM GPIO on the 40-pin header (0 and 1 are the HAT EEPROM bus)
_TOP_KEYS = (
    "name", "description", "map", "led_count", "sensor_count", "sensor_kind",
    "status_leds", "controls", "territories", "tokens", "markers", "colour_order",
)
_TERRITORY_KEYS = ("leds", "sensor", "kind")
_STATUS_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class SensorSpec:
    """A territory's sensor: its channel on the Pico and its kind ("button" or "nfc")."""

    channel: int
    kind: str


@dataclass(frozen=True)
class BoardProfile:
    """A validated board description (immutable). Build it with `load_profile`."""

    name: str
    description: str
    map_name: str
    led_count: int
    sensor_count: int
    territory_leds: Mapping[str, tuple[int, ...]]
    sensors: Mapping[str, SensorSpec]
    status_leds: Mapping[str, tuple[int, ...]]
    controls: Mapping[str, int]
    tokens: Mapping[str, tuple[str, ...]]
    markers: Mapping[str, tuple[str, ...]]
    source: Path | None = None
    colour_order: str = DEFAULT_ORDER
    _by_channel: Mapping[int, str] = field(init=False, repr=False, compare=False)

    @property
    def territories(self) -> tuple[str, ...]:
        """The territory ids, in the order of the profile file."""
        return tuple(self.territory_leds)

    def __post_init__(self) -> None:
        by_channel = {sensor.channel: t for t, sensor in self.sensors.items()}
        object.__setattr__(self, "_by_channel", MappingProxyType(by_channel))

    def territory_at(self, channel: int) -> str | None:
        """The territory whose sensor is on `channel`, or None if no territory uses it."""
        return self._by_channel.get(channel)

    def token_colour(self, uid: bytes | str) -> str | None:
        """The colour whose player token has this tag UID, or None."""
        return _colour_of(self.tokens, uid)

    def marker_colour(self, uid: bytes | str) -> str | None:
        """The colour whose marker piece has this tag UID, or None."""
        return _colour_of(self.markers, uid)

    def sensor_map_bytes(self) -> bytes:
        """The canonical byte form of the sensor map (see the module docstring)."""
        kinds = ["none"] * self.sensor_count
        for sensor in self.sensors.values():
            kinds[sensor.channel] = sensor.kind
        body = "".join(f"{channel}:{kind}\n" for channel, kind in enumerate(kinds))
        return SENSOR_MAP_HEADER + body.encode("ascii")

    def sensor_crc(self) -> int:
        """CRC-32 of `sensor_map_bytes()`; the bridge compares it with the Pico's."""
        return zlib.crc32(self.sensor_map_bytes())


def normalise_uid(uid: bytes | str) -> str:
    """A tag UID as lower-case hex without separators ("04:A1:B2:C3" -> "04a1b2c3")."""
    if isinstance(uid, bytes | bytearray):
        return bytes(uid).hex()
    return re.sub(r"[\s:-]", "", uid).lower()


def _colour_of(table: Mapping[str, tuple[str, ...]], uid: bytes | str) -> str | None:
    wanted = normalise_uid(uid)
    for colour, uids in table.items():
        if wanted in uids:
            return colour
    return None


def available_profiles() -> list[str]:
    """The names of the profiles shipped in hardware/boards."""
    folder = resources.files("hardware.boards")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


def _resolve(path_or_name: str | Path) -> Path:
    text = str(path_or_name)
    if isinstance(path_or_name, Path) or "/" in text or text.endswith(".toml"):
        path = Path(path_or_name)
        if not path.is_file():
            raise ProfileError(f"board profile file {text} does not exist")
        return path
    path = Path(str(resources.files("hardware.boards").joinpath(f"{text}.toml")))
    if not path.is_file():
        raise ProfileError(
            f"there is no board profile named {text!r}; "
            f"shipped profiles: {', '.join(available_profiles())}"
        )
    return path


def load_profile(
    path_or_name: str | Path = DEFAULT_PROFILE,
    *,
    territory_ids: Iterable[str] | None = None,
    colours: Iterable[str] | None = None,
    map_name: str | None = None,
) -> BoardProfile:
    """Read and validate a profile: a shipped name ("classic-42") or a path to a .toml file.

    `territory_ids`, `colours` and `map_name` default to the game's map and roster data
    (`game_names`)."""
    path = _resolve(path_or_name)
    text = path.read_text(encoding="utf-8")
    if territory_ids is None or colours is None or map_name is None:
        name, ids, roster = game_names()
        territory_ids = ids if territory_ids is None else territory_ids
        map_name = name if map_name is None else map_name
        colours = roster if colours is None else colours
    return parse_profile(
        text, territory_ids=territory_ids, colours=colours, map_name=map_name, path=path
    )


def game_names() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The map's name, its territory ids and the player colours, in the data files' order, as
    the rules' `load_map()` and `load_roster()` give them (the data files are shipped and
    checked by tests/test_data_files.py)."""
    data = resources.files("pi_app.data")
    board = json.loads(data.joinpath("map.json").read_text(encoding="utf-8"))
    roster = json.loads(data.joinpath("players.json").read_text(encoding="utf-8"))
    return (board["name"], tuple(t["id"] for t in board["territories"]),
            tuple(roster["colours"]))


def parse_profile(
    text: str,
    *,
    territory_ids: Iterable[str],
    colours: Iterable[str],
    map_name: str,
    path: Path | str | None = None,
) -> BoardProfile:
    """Validate profile TOML `text` against the map's territory ids and the known colours."""
    return _ProfileReader(text, tuple(territory_ids), tuple(colours), map_name, path).read()


class _ProfileReader:
    """One validation pass over a profile text; `fail` raises with the key's line."""

    def __init__(
        self,
        text: str,
        territory_ids: tuple[str, ...],
        colours: tuple[str, ...],
        map_name: str,
        path: Path | str | None,
    ) -> None:
        self.path = Path(path) if path is not None else None
        self.territory_ids = territory_ids
        self.colours = colours
        self.map_name = map_name
        self.lines = KeyLines(text)
        try:
            self.data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            match = re.search(r"at line (\d+)", str(exc))
            line = int(match.group(1)) if match else None
            if line is None and "at end of document" in str(exc):
                filled = [n for n, row in enumerate(text.splitlines(), 1) if row.strip()]
                line = filled[-1] if filled else 1
            raise ProfileError(f"not valid TOML ({exc})", self.path, line) from None
        self.led_users: dict[int, tuple[str, int | None]] = {}

    def fail(self, problem: str, *key: str) -> ProfileError:
        return ProfileError(problem, self.path, self.lines.line_of(*key) if key else None)

    def need(self, table: Mapping[str, Any], key: str, kind: type, *where: str) -> Any:
        if key not in table:
            raise self.fail(f"'{'.'.join((*where, key))}' is missing", *where)
        value = table[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise self.fail(
                f"'{'.'.join((*where, key))}' must be a {_KIND_NAMES[kind]}, got {value!r}",
                *where, key,
            )
        return value

    def read(self) -> BoardProfile:
        data = self.data
        for key in data:
            if key not in _TOP_KEYS:
                raise self.fail(f"unknown key {key!r}; profile keys: {', '.join(_TOP_KEYS)}", key)
        name = self.need(data, "name", str)
        profile_map = self.need(data, "map", str)
        if profile_map != self.map_name:
            raise self.fail(
                f"the profile is for map {profile_map!r}, but the rules use {self.map_name!r}",
                "map",
            )
        led_count = self.need(data, "led_count", int)
        if led_count < 1:
            raise self.fail(f"led_count must be at least 1, got {led_count}", "led_count")
        sensor_count = data.get("sensor_count", len(self.territory_ids))
        if not isinstance(sensor_count, int) or isinstance(sensor_count, bool) or sensor_count < 1:
            raise self.fail(
                f"sensor_count must be a whole number of at least 1, got {sensor_count!r}",
                "sensor_count",
            )
        default_kind = data.get("sensor_kind", "button")
        if default_kind not in SENSOR_KINDS:
            raise self.fail(
                f"sensor_kind must be one of {', '.join(SENSOR_KINDS)}, got {default_kind!r}",
                "sensor_kind",
            )
        leds, sensors = self.read_territories(led_count, sensor_count, default_kind)
        status = self.read_status_leds(led_count)
        controls = self.read_controls()
        seen_uids: dict[str, str] = {}
        tokens = self.read_tags("tokens", seen_uids)
        markers = self.read_tags("markers", seen_uids)
        description = data.get("description", "")
        if not isinstance(description, str):
            raise self.fail("description must be a string", "description")
        try:
            colour_order = check_colour_order(data.get("colour_order", DEFAULT_ORDER))
        except ValueError as exc:
            raise self.fail(str(exc), "colour_order") from None
        return BoardProfile(
            name=name,
            description=description,
            map_name=profile_map,
            led_count=led_count,
            sensor_count=sensor_count,
            territory_leds=MappingProxyType(leds),
            sensors=MappingProxyType(sensors),
            status_leds=MappingProxyType(status),
            controls=MappingProxyType(controls),
            tokens=MappingProxyType(tokens),
            markers=MappingProxyType(markers),
            source=self.path,
            colour_order=colour_order,
        )

    def read_territories(
        self, led_count: int, sensor_count: int, default_kind: str
    ) -> tuple[dict[str, tuple[int, ...]], dict[str, SensorSpec]]:
        table = self.need(self.data, "territories", dict)
        known = set(self.territory_ids)
        leds: dict[str, tuple[int, ...]] = {}
        sensors: dict[str, SensorSpec] = {}
        channel_users: dict[int, str] = {}
        for territory, entry in table.items():
            where = ("territories", territory)
            if territory not in known:
                close = difflib.get_close_matches(territory, self.territory_ids, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise self.fail(
                    f"unknown territory id {territory!r}{hint}; ids come from the "
                    f"{self.map_name} map",
                    *where,
                )
            if not isinstance(entry, dict):
                raise self.fail(
                    f"territory {territory!r} must be a table like "
                    "{ leds = [0, 1, 2], sensor = 0 }",
                    *where,
                )
            for key in entry:
                if key not in _TERRITORY_KEYS:
                    raise self.fail(
                        f"territory {territory!r} has unknown key {key!r}; "
                        f"use {', '.join(_TERRITORY_KEYS)}",
                        *where, key,
                    )
            leds[territory] = self.claim_leds(
                self.need(entry, "leds", list, *where), f"territory {territory!r}",
                led_count, *where, "leds",
            )
            channel = self.need(entry, "sensor", int, *where)
            if not 0 <= channel < sensor_count:
                raise self.fail(
                    f"territory {territory!r} has sensor channel {channel}, but channels "
                    f"run 0..{sensor_count - 1} (sensor_count = {sensor_count})",
                    *where, "sensor",
                )
            if channel in channel_users:
                raise self.fail(
                    f"sensor channel {channel} is used by both {channel_users[channel]!r} "
                    f"and {territory!r}",
                    *where, "sensor",
                )
            channel_users[channel] = territory
            kind = entry.get("kind", default_kind)
            if kind not in SENSOR_KINDS:
                raise self.fail(
                    f"territory {territory!r} has sensor kind {kind!r}; "
                    f"use one of {', '.join(SENSOR_KINDS)}",
                    *where, "kind",
                )
            sensors[territory] = SensorSpec(channel, kind)
        missing = [t for t in self.territory_ids if t not in table]
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise self.fail(
                f"territory {missing[0]!r}{more} is missing from [territories]", "territories"
            )
        return leds, sensors

    def claim_leds(
        self, indices: list[Any], user: str, led_count: int, *where: str
    ) -> tuple[int, ...]:
        if not indices:
            raise self.fail(f"{user} needs at least one LED", *where)
        line = self.lines.line_of(*where)
        for index in indices:
            if not isinstance(index, int) or isinstance(index, bool):
                raise self.fail(f"{user} has LED {index!r}; LEDs are whole numbers", *where)
            if not 0 <= index < led_count:
                raise self.fail(
                    f"{user} has LED {index}, but LEDs run 0..{led_count - 1} "
                    f"(led_count = {led_count})",
                    *where,
                )
            if index in self.led_users:
                other, other_line = self.led_users[index]
                at = f" (line {other_line})" if other_line else ""
                raise self.fail(f"LED {index} is used twice: by {other}{at} and {user}", *where)
            self.led_users[index] = (user, line)
        return tuple(indices)

    def read_status_leds(self, led_count: int) -> dict[str, tuple[int, ...]]:
        table = self.data.get("status_leds", {})
        if not isinstance(table, dict):
            raise self.fail("status_leds must be a table of name = [LED, ...]", "status_leds")
        status: dict[str, tuple[int, ...]] = {}
        for name, indices in table.items():
            where = ("status_leds", name)
            if not _STATUS_NAME.match(name):
                raise self.fail(f"status LED group name {name!r} must be lower_snake_case", *where)
            if not isinstance(indices, list):
                raise self.fail(f"status LEDs {name!r} must be a list of LED indices", *where)
            status[name] = self.claim_leds(indices, f"status LEDs {name!r}", led_count, *where)
        return status

    def read_controls(self) -> dict[str, int]:
        table = self.data.get("controls", {})
        if not isinstance(table, dict):
            raise self.fail("controls must be a table of name = GPIO pin", "controls")
        pins: dict[str, int] = {}
        users: dict[int, str] = {}
        for name, pin in table.items():
            where = ("controls", name)
            if name not in CONTROL_NAMES:
                raise self.fail(
                    f"unknown control button {name!r}; known: {', '.join(CONTROL_NAMES)}", *where
                )
            if not isinstance(pin, int) or isinstance(pin, bool) or pin not in GPIO_PINS:
                raise self.fail(
                    f"control button {name!r} has pin {pin!r}; use a BCM GPIO number 2..27",
                    *where,
                )
            if pin in users:
                raise self.fail(f"GPIO {pin} is given to both {users[pin]!r} and {name!r}", *where)
            refusal = spi_refusal(name, pin)
            if refusal:
                raise self.fail(refusal, *where)
            warning = caution(name, pin)
            if warning:
                log.warning(
                    "event=profile.pin_warning file=%s line=%s control=%s gpio=%d: %s",
                    self.path.name if self.path else "-", self.lines.line_of(*where), name, pin,
                    warning,
                )
            users[pin] = name
            pins[name] = pin
        return pins

    def read_tags(self, section: str, seen: dict[str, str]) -> dict[str, tuple[str, ...]]:
        table = self.data.get(section, {})
        if not isinstance(table, dict):
            raise self.fail(f"{section} must be a table of colour = [tag UIDs]", section)
        result: dict[str, tuple[str, ...]] = {}
        for colour, uids in table.items():
            where = (section, colour)
            if colour not in self.colours:
                raise self.fail(
                    f"unknown colour {colour!r} in [{section}]; colours: {', '.join(self.colours)}",
                    *where,
                )
            if not isinstance(uids, list):
                raise self.fail(f"{section}.{colour} must be a list of tag UIDs (hex)", *where)
            normalised = []
            for uid in uids:
                tag = normalise_uid(uid) if isinstance(uid, str) else ""
                if not re.fullmatch(r"[0-9a-f]+", tag) or len(tag) // 2 not in UID_BYTES \
                        or len(tag) % 2:
                    raise self.fail(
                        f"{section}.{colour} has tag UID {uid!r}; a UID is 4, 7 or 10 bytes "
                        "of hex, e.g. \"04:a1:b2:c3:d4:e5:f6\"",
                        *where,
                    )
                if tag in seen:
                    raise self.fail(f"tag UID {tag} is listed twice: {seen[tag]} and "
                                    f"{section}.{colour}", *where)
                seen[tag] = f"{section}.{colour}"
                normalised.append(tag)
            result[colour] = tuple(normalised)
        return result


_KIND_NAMES = {str: "string", int: "whole number", list: "list", dict: "table"}


def main(argv: list[str] | None = None) -> int:
    """Validate a profile and print its summary and sensor CRC (`python -m hardware.profiles`)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        profile = load_profile(args[0] if args else DEFAULT_PROFILE)
    except ProfileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    kinds = sorted({s.kind for s in profile.sensors.values()})
    print(f"profile {profile.name}: {len(profile.territories)} territories, "
          f"{profile.led_count} LEDs, {profile.sensor_count} sensor channels ({'/'.join(kinds)}), "
          f"{len(profile.controls)} control buttons")
    print(f"sensor_crc 0x{profile.sensor_crc():08x}")
    print(f"colour_order {profile.colour_order}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
