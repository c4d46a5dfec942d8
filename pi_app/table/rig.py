"""The assembled table: profile, LED strip, frame thread, serial link, buttons and the loop.

`build_rig(config, sim=...)` builds every part from a `pi_app.config.Config`; `rig.start()`
starts them in dependency order (LED strip, loop, painter, link, buttons) and `rig.stop()`
stops them in reverse, leaving the LEDs dark. `rig.service` is the web's `TableService`.
With `sim=True` the parts come from `pi_app.table.sim` (emulated Pico on a pty, in-memory
strip, gpiozero MockFactory buttons, a demo game if none is running); `board.miswired`
(a seed) wires that virtual board otherwise than the profile (`pi_app.table.miswired`).

The LED strip and the control buttons may be missing (no SPI yet, a wrong pin, GPIO lines
busy): they are `hardware.supervised` parts, so the table starts without them, retries
them in the background and reports the fault in one sentence (`rig.faults()`, `/api/status`,
`riskboard doctor`). Buttons whose pins clash (`pin_problems`) are not opened at all: that
is the config's to fix, shown the same way, and needs a restart once fixed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.controls import ControlButtons, pin_factory_for
from hardware.leds import open_strip
from hardware.output_stage import OutputStage
from hardware.profiles import BoardProfile, check_pin_conflicts, load_profile
from hardware.supervised import Backoff, SupervisedButtons, SupervisedStrip
from pi_app.config import Config
from pi_app.storage import make_data_dir
from pi_app.table.bringup_desk import BringUpDesk, TableParts, profile_in_use
from pi_app.table.lights import LedMap
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring
from pi_app.table.painter import Painter
from pi_app.table.palette import Palette
from pi_app.table.service import LocalTableService

log = logging.getLogger("riskboard.table")

JOURNAL_NAME = "journal.sqlite"
LINK_POSITION_NAME = "link-position.json"
# The virtual board only draws the latest frame; a longer history costs ~19 KB a frame
# (requested + output copies of 135 LEDs) and grew to megabytes at 30 frames a second.
MEMORY_STRIP_HISTORY = 2


def button_pins(config: Config, profile: BoardProfile) -> dict[str, int]:
    """The control pins: the board profile's, with each pin the config sets over it (a
    config moving one button keeps the profile's other buttons)."""
    pins = dict(profile.controls)
    pins.update(config.buttons.pins)
    return pins


def pin_problems(config: Config, profile: BoardProfile, sim: bool = False) -> list[str]:
    """Sentences naming every control button whose pin clashes: two buttons on one pin
    after the config's pins go over the profile's, a button on the LED data pin, or on the
    SPI pins 7-11 (`hardware.profiles.check_pin_conflicts`). Empty when none is wired."""
    if config.buttons.backend == "none" and not sim:
        return []
    pins = button_pins(config, profile)
    problems = []
    by_pin: dict[int, list[str]] = {}
    for name, pin in pins.items():
        by_pin.setdefault(pin, []).append(name)
    for pin, names in sorted(by_pin.items()):
        if len(names) < 2:
            continue
        moved = [n for n in names if n in config.buttons.pins]
        kept = [n for n in names if n not in config.buttons.pins]
        if moved and kept:
            problems.append(
                f"buttons.pins.{moved[0]} = {pin} puts {moved[0]!r} on GPIO {pin}, where the "
                f"board profile {profile.name} has {', '.join(repr(k) for k in kept)}; give "
                f"{'that button' if len(kept) == 1 else 'those buttons'} another pin in "
                "[buttons.pins] too")
        else:
            problems.append(f"GPIO {pin} is given to more than one button ({', '.join(names)})")
    led_pin = config.leds.gpio_pin if config.leds.backend == "ws281x" and not sim else None
    problems.extend(check_pin_conflicts(pins, led_pin))
    return problems


class PinConflict(ValueError):
    """The control buttons' pins clash (the message has one sentence per button)."""


def _refuse(problem: str) -> Callable[[], Any]:
    """An opener that always fails with `problem` (buttons whose pins clash)."""
    def opener() -> Any:
        raise PinConflict(problem)
    return opener


@dataclass
class TableRig:
    """Every running part of the table, started and stopped together."""

    config: Config
    profile: BoardProfile
    data_dir: Path
    loop: TableLoop
    painter: Painter
    strip: Any
    service: LocalTableService
    link: Any = None
    controls: Any = None
    emulator: Any = None
    button_factory: Any = None
    _started: list[str] = field(default_factory=list)

    def start(self) -> None:
        """Start the parts; the board is lit from the resumed (or demo) game at once. A
        strip or buttons that cannot start now are retried in the background."""
        self.strip.start()
        self.loop.start()
        self._started.append("loop")
        self.painter.show(self.loop.core.scene() if self.loop.core else self.painter.scene)
        self.painter.start()
        self._started.append("painter")
        if self.link is not None:
            self.link.start()
            self._started.append("link")
        if self.controls is not None:
            self.controls.start()

    def faults(self) -> list[str]:
        """One sentence per part of the table that is not working (empty when all are)."""
        parts = (self.strip, self.controls)
        return [p.fault for p in parts if p is not None and getattr(p, "fault", None)]

    def stop(self) -> None:
        """Stop in reverse order; darken the LEDs; close strip, buttons and emulator.

        Exception-safe: a part that fails to stop is logged and the others are stopped all
        the same (the loop still closes its journal, the LEDs still go dark); the first
        failure is raised once every part had its turn."""
        steps: list[tuple[str, Callable[[], object]]] = []
        if self.controls is not None:
            steps.append(("buttons", self.controls.close))
        if "link" in self._started and self.link is not None:
            steps.append(("link", self.link.stop))
        if "painter" in self._started:
            steps.append(("painter", self.painter.stop))
        if "loop" in self._started:
            steps.append(("loop", self.loop.stop))
        steps.append(("strip", self._darken))
        if self.emulator is not None:
            steps.append(("emulator", self.emulator.stop))
        failure: BaseException | None = None
        for name, stop in steps:
            try:
                stop()
            except Exception as exc:
                log.error("event=table.stop_failed part=%s error=%r", name, exc)
                failure = failure or exc
        self._started.clear()
        if failure is not None:
            raise failure

    def _darken(self) -> None:
        try:
            self.strip.show([(0, 0, 0)] * self.strip.count)
            self.strip.close()
        except Exception as exc:  # the strip may already be gone with the link
            log.warning("event=table.strip_close_failed error=%r", exc)

def make_buttons(config: Config, profile: BoardProfile, problems: list[str], loop: TableLoop,
                 factory: Any, open_buttons: Callable[..., Any],
                 backoff: Callable[[], Backoff]) -> SupervisedButtons:
    """The control buttons of `profile` (the config's pins over the profile's)."""
    pins = button_pins(config, profile)

    def buttons() -> Any:
        return open_buttons(pins, loop.post_control, pin_factory=factory,
                            hold_time=config.buttons.hold_time)

    # clashing pins are the config's to fix (then a restart): tried once, not retried
    opener = _refuse("; ".join(problems)) if problems else buttons
    pause = Backoff(86400.0, 86400.0) if problems else backoff()
    return SupervisedButtons(opener, pins, backoff=pause)


def bringup_desk(rig: TableRig, make_strip: Callable[[int, str], Any],
                 open_buttons: Callable[..., Any], backoff: Callable[[], Backoff]) -> BringUpDesk:
    """The table's bring-up desk (pi_app.table.bringup_desk): the rig's parts it borrows,
    a strip opened again at the chain's length, and the live reload of the profile it
    saves (its LED and sensor maps, its control buttons' lines)."""
    from pi_app.table.profile_reload import reload_profile

    config, service = rig.config, rig.service

    def pins() -> dict[str, int]:
        return dict(getattr(rig.controls, "pins", None) or {})

    order = {"now": rig.profile.colour_order}

    def resize(count: int, colour_order: str | None = None) -> None:
        colour_order = colour_order or order["now"]
        if count == rig.strip.count and colour_order == order["now"]:
            return
        rig.strip.close()  # first: two strips must never drive one data line
        new = make_strip(count, colour_order)
        new.start()
        order["now"] = colour_order
        rig.strip = rig.painter.strip = service.strip = new
        service._colour_order = colour_order

    def reopen_buttons() -> None:
        """Open the control buttons again, on the profile in use's lines."""
        if rig.controls is None:
            return
        problems = pin_problems(config, rig.profile, rig.emulator is not None)
        rig.controls.close()
        rig.controls = service.controls = make_buttons(
            config, rig.profile, problems, rig.loop, rig.button_factory, open_buttons,
            backoff)
        rig.controls.start()

    def reload(new: BoardProfile) -> dict[str, Any]:
        old_pins = pins()
        rig.profile = new
        resize(rig.strip.count, new.colour_order)
        answer = reload_profile(rig.loop, rig.painter, service, new,
                                strip_count=rig.strip.count, pins=old_pins)
        if button_pins(config, new) != old_pins:
            reopen_buttons()
        answer["restart_for"] = [r for r in answer["restart_for"] if r != "controls"]
        return answer

    lines = None
    if rig.button_factory is not None or config.buttons.backend != "none":
        led_pin = config.leds.gpio_pin if config.leds.backend == "ws281x" else None
        lines = (rig.button_factory, led_pin)
    parts = TableParts(rig.loop, rig.painter, rig.profile.led_count, rig.link, pins,
                       config.leds.brightness, config.leds.supply_amps, reload,
                       resize=resize, gpio=lines, lines_released=reopen_buttons)
    return BringUpDesk(parts, rig.profile, configured=config.board.profile,
                       data_dir=rig.data_dir)


def build_rig(config: Config, *, sim: bool = False, data_dir: Path | None = None,
              demo: NewGameSpec | None = None, settle_s: float | None = None,
              heartbeat: Callable[[], object] | None = None,
              heartbeat_s: float | None = None,
              dice: Callable[[], Any] | None = None,
              open_leds: Callable[..., Any] = open_strip,
              open_buttons: Callable[..., Any] = ControlButtons,
              backoff: Callable[[], Backoff] = Backoff) -> TableRig:
    """Build (not start) the table from `config`; `sim` uses the virtual board parts.

    `open_leds` / `open_buttons` open the strip and the buttons (`open_strip`,
    `ControlButtons`; tests pass failing ones); `backoff()` makes each part's retry pauses."""
    from pi_app.table import sim as simulation

    data = Path(data_dir or config.storage.data_dir)
    make_data_dir(data)
    used = profile_in_use(config.board.profile, data)
    profile = load_profile(used)
    if used != config.board.profile:
        log.info("event=table.learned_profile path=%s instead_of=%s", used, config.board.profile)
    problems = pin_problems(config, profile, sim)
    leds = LedMap.from_profile(profile)
    wiring = Wiring.from_profile(profile)
    players = getattr(config, "players", None)  # [players] colours/patterns, when configured
    palette = Palette.from_config(getattr(players, "colours", None),
                                  getattr(players, "patterns", None))
    emulator = None
    port = config.serial.port
    physical = None
    if sim:
        physical = simulation.physical_board(profile, config.board.miswired)
        emulator = simulation.make_emulator(profile, physical)
        port = emulator.start()
        if demo is None:
            demo = simulation.DEMO_GAME
    link_holder: dict[str, Any] = {}
    backend = "memory" if sim else config.leds.backend
    strip_opts: dict[str, Any] = {}
    if backend == "bridge":
        strip_opts["send"] = lambda pixels: link_holder["link"].send_led_frame(pixels)
    elif backend == "ws281x":
        strip_opts["gpio_pin"] = config.leds.gpio_pin
    elif backend == "memory":
        strip_opts["history"] = MEMORY_STRIP_HISTORY

    def make_strip(count: int, colour_order: str) -> SupervisedStrip:
        """A strip of `count` LEDs sent in `colour_order` (a bring-up opens it again when
        the chain is longer or its chips take another order)."""
        output = OutputStage(count, brightness=config.leds.brightness,
                             supply_amps=config.leds.supply_amps, gamma=config.leds.gamma)
        return SupervisedStrip(lambda: open_leds(backend, count, output=output,
                                                 colour_order=colour_order, **strip_opts),
                               count, output, backend=backend, backoff=backoff())

    strip = make_strip(profile.led_count, profile.colour_order)
    painter = Painter(strip, leds, palette)
    loop_opts: dict[str, Any] = {} if settle_s is None else {"settle_s": settle_s}
    if heartbeat_s is not None:  # the watchdog's own pace, not the loop's default
        loop_opts["heartbeat_s"] = heartbeat_s
    loop = TableLoop(data / JOURNAL_NAME, wiring, show=painter.show, demo=demo,
                     heartbeat=heartbeat, dice=dice, **loop_opts)
    from firmware_bridge.link import Link

    link = Link(port, loop.post_sensor, baudrate=config.serial.baudrate,
                expected_profile_crc=profile.sensor_crc(),
                expected_sensor_count=profile.sensor_count, on_state=loop.post_dump,
                state_path=None if sim else data / LINK_POSITION_NAME)
    link_holder["link"] = link
    controls = None
    factory = None
    if config.buttons.backend != "none" or sim:
        factory = pin_factory_for("mock" if sim else config.buttons.backend)
        controls = make_buttons(config, profile, problems, loop, factory, open_buttons,
                                backoff)
    service = LocalTableService(loop, leds=leds, strip=strip, painter=painter, link=link,
                                controls=controls, emulator=emulator,
                                button_factory=factory if sim else None,
                                hold_time=config.buttons.hold_time, physical=physical,
                                colour_order=profile.colour_order)
    rig = TableRig(config, profile, data, loop, painter, strip, service, link, controls,
                   emulator, factory)
    service.bringup = bringup_desk(rig, make_strip, open_buttons, backoff)
    return rig
