"""The physical wiring of the virtual board, and a board wired badly on purpose (issue 25).

A profile says how the table *believes* the board is wired; `PhysicalBoard` is how the
simulated board *is* wired: which territory (or status LED group) each LED of the chain sits
in, which sensor channel each territory's button or reader answers on, which GPIO line each
control button pulls down, and the colour order the LED chips take. The virtual board
(`/virtual`) shows the frame the table sends through this truth, and sends a touch or a
button press on the truth's channel or line, so a wrong profile lights the wrong territory
and hears a touch on Brazil as another territory, as a real miswired board would.

`PhysicalBoard.from_profile(profile)` is a board wired exactly as its profile says (the
default). `build_board(territories, colours, nfc=..., seed=...)` wires one as a hurried maker
might: territories in a shuffled order along the chain, one stretch of the chain glued in
reverse, one territory with 2 LEDs and one with 4, one territory whose LEDs come in two runs,
a dead LED between territories, status LEDs at the end, two sensor channels crossed (which
two is drawn from `seed`, as is the order), the control buttons on other GPIO lines
(`CONTROL_GPIO`, no "menu" button), LED chips that take their colours in "RGB" order
(`CHIP_ORDER`), and on an NFC board one reader plugged into a spare mux port (channel
`sensor_count + 3`; the board then has 4 more channels). On the virtual board a reader on a
port the Pico does not scan (a channel past the profile's `sensor_count`) is not heard.
`miswired(profile, seed)` is that board over a profile's territories, tokens and markers.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hardware.colour_order import DEFAULT_ORDER as DRIVER_ORDER

if TYPE_CHECKING:
    from hardware.profiles import BoardProfile

Rgb = tuple[int, int, int]

STATUS = {"turn": 1, "phase": 3, "attack_dice": 3, "defence_dice": 2}
CONTROL_GPIO = {"confirm": 24, "undo": 25, "end_phase": 12, "roll": 13, "cancel": 19,
                "blitz": 20, "cycle_dice": 21, "cards": 4}  # no "menu" button on this board
CHIP_ORDER = "RGB"


def shown_colour(rgb: Sequence[int], sent: str, chip: str) -> Rgb:
    """The colour an LED chip taking `chip` order shows for logical `rgb` sent in `sent`
    order: byte k carries logical colour sent[k], and the chip lights it as colour chip[k]."""
    if sent == chip:
        return (int(rgb[0]), int(rgb[1]), int(rgb[2]))
    logical = dict(zip("RGB", rgb, strict=True))
    seen = {chip[k]: logical[sent[k]] for k in range(3)}
    return (int(seen["R"]), int(seen["G"]), int(seen["B"]))


@dataclass(frozen=True)
class PhysicalBoard:
    """The truth of one board: the owner of each LED index in chain order (a territory id,
    "status:<name>" or None for a dead or unused LED), each territory's sensor channel, each
    control button's BCM GPIO line, the chips' colour order, and the tags that exist."""

    owners: tuple[str | None, ...]
    channel_of: Mapping[str, int]
    nfc: bool
    sensor_count: int
    controls: Mapping[str, int] = field(default_factory=dict)
    chip_order: str = DRIVER_ORDER
    tokens: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    markers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    split: str = ""
    dead: int = -1

    @classmethod
    def from_profile(cls, profile: BoardProfile, *, chip_order: str | None = None
                     ) -> PhysicalBoard:
        """A board wired exactly as `profile` says."""
        owners: list[str | None] = [None] * profile.led_count
        for territory, leds in profile.territory_leds.items():
            for i in leds:
                owners[i] = territory
        for name, leds in profile.status_leds.items():
            for i in leds:
                owners[i] = f"status:{name}"
        nfc = any(spec.kind == "nfc" for spec in profile.sensors.values())
        order = chip_order or profile.colour_order
        return cls(tuple(owners), {t: s.channel for t, s in profile.sensors.items()}, nfc,
                   profile.sensor_count, dict(profile.controls), order,
                   {c: tuple(u) for c, u in profile.tokens.items()},
                   {c: tuple(u) for c, u in profile.markers.items()})

    @property
    def led_count(self) -> int:
        """How many LEDs the chain really has."""
        return len(self.owners)

    def leds_of(self, owner: str) -> set[int]:
        """Every LED index `owner` (a territory id or "status:<name>") physically has."""
        return {i for i, o in enumerate(self.owners) if o == owner}

    def territory_leds(self) -> dict[str, list[int]]:
        """Each territory's LEDs in chain order, territories in sensor-map order."""
        return {t: sorted(self.leds_of(t)) for t in self.channel_of}

    def status_leds(self) -> dict[str, list[int]]:
        """Each status LED group's LEDs in chain order."""
        names = dict.fromkeys(o.split(":", 1)[1] for o in self.owners
                              if o is not None and o.startswith("status:"))
        return {n: sorted(self.leds_of(f"status:{n}")) for n in names}

    def shown(self, frame: Sequence[Sequence[int]] | None, sent_order: str = DRIVER_ORDER
              ) -> list[Rgb]:
        """What each physical LED shows when the table sends `frame` (logical RGB per LED
        index, in `sent_order`): LEDs past the frame's end stay dark, and every colour goes
        through the chips' own order."""
        frame = frame or ()
        dark: Rgb = (0, 0, 0)
        return [shown_colour(frame[i], sent_order, self.chip_order) if i < len(frame) else dark
                for i in range(self.led_count)]

    def channel(self, territory: str) -> int | None:
        """The channel `territory`'s button or reader really answers on, or None."""
        return self.channel_of.get(territory)

    def pin(self, control: str) -> int | None:
        """The GPIO line control button `control` really pulls down, or None if the board
        has no such button."""
        return self.controls.get(control)


def build_board(territories: Sequence[str], colours: Sequence[str], *, nfc: bool,
                seed: int = 25, tokens: Mapping[str, Sequence[str]] | None = None,
                markers: Mapping[str, Sequence[str]] | None = None) -> PhysicalBoard:
    """A miswired board over `territories` (see the module docstring); `tokens` and
    `markers` (colour -> tag UIDs) default to made-up UIDs for every colour."""
    rng = random.Random(seed)
    territories = tuple(territories)
    order = list(territories)
    rng.shuffle(order)
    sizes = {t: 3 for t in order}
    sizes[order[5]], sizes[order[9]] = 2, 4
    split = order[14]
    blocks: list[tuple[str | None, int]] = []
    for position, territory in enumerate(order):
        if territory == split:
            blocks.append((territory, 2))  # its third LED comes after the next territory
            continue
        blocks.append((territory, sizes[territory]))
        if position > 0 and order[position - 1] == split:
            blocks.append((split, 1))
        if position == 20:
            blocks.append((None, 1))  # a dead LED between two territories
    blocks[24:32] = blocks[24:32][::-1]  # a strip run glued the other way round
    owners: list[str | None] = [owner for owner, n in blocks for _ in range(n)]
    dead = owners.index(None)
    for name, count in STATUS.items():
        owners += [f"status:{name}"] * count
    channel_of = {t: i for i, t in enumerate(territories)}
    a, b = rng.sample(territories, 2)
    channel_of[a], channel_of[b] = channel_of[b], channel_of[a]  # a crossed pair
    sensor_count = len(territories)
    if nfc:
        moved = rng.choice([t for t in territories if t not in (a, b)])
        channel_of[moved] = sensor_count + 3  # a reader on a spare mux port
        sensor_count += 4
    if tokens is None:
        tokens = {c: (f"04{i:02x}0000000001",) for i, c in enumerate(colours, 1)}
    if markers is None:
        markers = {c: (f"04{i:02x}1000000001", f"04{i:02x}1000000002")
                   for i, c in enumerate(colours, 1)}
    return PhysicalBoard(tuple(owners), channel_of, nfc, sensor_count, dict(CONTROL_GPIO),
                         CHIP_ORDER, {c: tuple(u) for c, u in tokens.items()},
                         {c: tuple(u) for c, u in markers.items()}, split, dead)


def miswired(profile: BoardProfile, seed: int) -> PhysicalBoard:
    """A board with `profile`'s territories, tokens and markers, miswired by `seed`."""
    from pi_app.rules.board import load_roster

    nfc = any(spec.kind == "nfc" for spec in profile.sensors.values())
    return build_board(profile.territories, load_roster().colours, nfc=nfc, seed=seed,
                       tokens=profile.tokens or None, markers=profile.markers or None)
