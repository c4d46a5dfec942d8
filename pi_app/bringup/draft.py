"""What a bring-up has learned so far: a plain, mutable record the core copies for undo and
the profile writer turns into a board profile."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Draft:
    """The board as learned: chain length and colour order, each territory's sensor channel
    and kind and its LEDs, status LED groups, LEDs found dead or unused, control GPIO lines,
    and the NFC tag UIDs of each colour's token and markers."""

    led_count: int
    step: str = "led_count"
    colour_order: str | None = None
    colours_seen: dict[str, str] = field(default_factory=dict)
    sensor_order: str = "map"
    picked: str | None = None
    sensors: dict[str, tuple[int, str]] = field(default_factory=dict)
    territory_leds: dict[str, list[int]] = field(default_factory=dict)
    status_leds: dict[str, list[int]] = field(default_factory=dict)
    skipped: set[int] = field(default_factory=set)
    phone_run: tuple[str, str, int] | None = None  # ("territory" | "status", owner, length)
    controls: dict[str, int] = field(default_factory=dict)
    control_index: int = 0
    tokens: dict[str, list[str]] = field(default_factory=dict)
    markers: dict[str, list[str]] = field(default_factory=dict)
    colour_index: int = 0

    def assigned_leds(self) -> set[int]:
        """Every LED index given to a territory or a status group."""
        used = {i for leds in self.territory_leds.values() for i in leds}
        return used | {i for leds in self.status_leds.values() for i in leds}

    def channel_owner(self, channel: int) -> str | None:
        """The territory mapped to sensor `channel`, or None."""
        for territory, (mapped, _kind) in self.sensors.items():
            if mapped == channel:
                return territory
        return None

    def uid_owner(self, uid: str) -> str | None:
        """"tokens.<colour>" or "markers.<colour>" if `uid` is already enrolled, else None."""
        for section, table in (("tokens", self.tokens), ("markers", self.markers)):
            for colour, uids in table.items():
                if uid in uids:
                    return f"{section}.{colour}"
        return None
