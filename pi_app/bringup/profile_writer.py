"""Turn what a bring-up learned into a board profile TOML, and save it safely.

The text has comments like the shipped hardware/boards/*.toml (territories grouped by
continent, in map order) and is validated by `hardware.profiles.parse_profile` before it is
offered: every territory has LEDs and a sensor, nothing is used twice; the chain's colour
order learned is its `colour_order`. Saving shows a
unified diff against the profile in use, keeps the previous file as `<name>.toml.bak` and
writes atomically (a new file, fsync, rename, fsync of the folder).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from hardware.profiles import BoardProfile, parse_profile
from pi_app.bringup.core import BoardFacts
from pi_app.bringup.draft import Draft


@dataclass(frozen=True)
class WrittenProfile:
    """A profile text ready to save, its validated form and the sensor CRC the Pico must
    report at handshake."""

    text: str
    profile: BoardProfile
    sensor_crc: int


def _list(values: list[int] | list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in values) + "]"


def profile_text(
    draft: Draft,
    facts: BoardFacts,
    *,
    name: str,
    map_name: str,
    continent_names: Mapping[str, str],
    description: str = "",
    sensor_count: int | None = None,
) -> str:
    """The profile TOML of `draft` (see the module docstring)."""
    kinds = [kind for _channel, kind in draft.sensors.values()]
    default_kind = max(("button", "nfc"), key=kinds.count)
    channels = [channel for channel, _kind in draft.sensors.values()]
    count = sensor_count if sensor_count is not None else max(channels, default=-1) + 1
    lines = [
        f"# Board profile {name}: learned at bring-up (pi_app/bringup) from the board itself",
        "# Validated at load by hardware/profiles.py (`python -m hardware.profiles <file>` checks",
        "# it and prints the sensor CRC the Pico must report).",
        f"name = {_quote(name)}",
        f"description = {_quote(description)}",
        f"map = {_quote(map_name)}",
        f"led_count = {draft.led_count}",
        f"sensor_count = {count}",
        f'sensor_kind = "{default_kind}"',
        "# the order the LED chips take their colours in, as seen at bring-up",
        f'colour_order = "{draft.colour_order or "GRB"}"',
        "",
        "[status_leds]",
    ]
    if draft.skipped:
        lines.append(f"# LEDs left out (dead or unused): {_list(sorted(draft.skipped))}")
    lines += [f"{group} = {_list(sorted(leds))}" for group, leds in draft.status_leds.items()]
    lines += ["", "[controls]", "# BCM GPIO numbers, as pressed at bring-up"]
    lines += [f"{control} = {gpio}" for control, gpio in draft.controls.items()]
    lines += ["", "[territories]",
              "# territory id = { leds = [LED indices in the chain], sensor = Pico channel }"]
    for continent in facts.continents:
        lines += ["", f"# {continent_names.get(continent, continent)}"]
        for territory in facts.territories:
            if facts.continent_of[territory] != continent:
                continue
            channel, kind = draft.sensors.get(territory, (-1, default_kind))
            extra = "" if kind == default_kind else f', kind = "{kind}"'
            leds = sorted(draft.territory_leds.get(territory, []))
            lines.append(f"{territory} = {{ leds = {_list(leds)}, sensor = {channel}{extra} }}")
    for section, table, what in (("tokens", draft.tokens, "each player's token"),
                                 ("markers", draft.markers, "each colour's marker pieces")):
        lines += ["", f"[{section}]", f"# colour = [tag UIDs]: the NFC tags of {what}"]
        lines += [f"{colour} = {_list(uids)}" for colour, uids in table.items() if uids]
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_profile(text: str, facts: BoardFacts, *, map_name: str) -> WrittenProfile:
    """Validate `text` as a profile of the map; raises hardware.errors.ProfileError."""
    profile = parse_profile(text, territory_ids=facts.territories, colours=facts.colours,
                            map_name=map_name)
    return WrittenProfile(text, profile, profile.sensor_crc())


def profile_diff(current: Path | None, text: str, *, new_name: str = "bring-up") -> str:
    """A unified diff from the profile in use (None or missing: empty) to `text`."""
    old = current.read_text("utf-8") if current is not None and current.is_file() else ""
    return "".join(difflib.unified_diff(
        old.splitlines(keepends=True), text.splitlines(keepends=True),
        fromfile=str(current) if current is not None else "/dev/null", tofile=new_name,
    ))


def save_profile(path: Path, written: WrittenProfile) -> Path | None:
    """Write the profile to `path` atomically, keeping a previous file as `<path>.bak`;
    returns the backup's path (None if there was no previous file)."""
    path = Path(path)
    backup = None
    if path.is_file():
        backup = path.with_name(path.name + ".bak")
        _atomic_write(backup, path.read_bytes())
    _atomic_write(path, written.text.encode("utf-8"))
    return backup


def _atomic_write(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.new")
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
