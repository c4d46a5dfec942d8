"""The table's self-checks as sentences, shared by `riskboard doctor` and the running service.

`riskboard doctor` runs as the maker's own user, who may not read the service's config
(0640, riskboard group) or data folder (0700), and must not open the LED strip or the GPIO
lines the service holds. So the service answers for itself: `service_checks(rig, path)`
is the `checks` list of its `/api/status` (what it loaded, its profile and whether it was
learned at bring-up, whether the linked Pico's board matches it, its data folder, its LED
strip and buttons as they run, the colours), and doctor uses each of those it
cannot check itself. A check is a `Finding`: a name, ok or not, a sentence, and whether
it is only a warning.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass
class Finding:
    """One check's result: a name, whether it passed, and a sentence for people."""

    name: str
    ok: bool
    detail: str
    warning: bool = False

    def line(self) -> str:
        """The printed line: `ok`, `WARN` or `FAIL`, the check, the sentence."""
        mark = "ok  " if self.ok and not self.warning else ("WARN" if self.ok else "FAIL")
        return f"{mark}  {self.name:<9} {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for `/api/status`."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        """A finding the service reported (unknown keys ignored)."""
        return cls(str(data.get("name", "?")), bool(data.get("ok")),
                   str(data.get("detail", "")), bool(data.get("warning", False)))


def profile_summary(profile: Any) -> str:
    """A board profile in one line: territories, sensor kinds, LEDs, sensor map CRC."""
    kinds = {s.kind for s in profile.sensors.values()}
    return (f"{profile.name}: {len(profile.sensors)} territories ({'/'.join(sorted(kinds))}), "
            f"{profile.led_count} LEDs, sensor map CRC {profile.sensor_crc():08x}")


def colours_finding(players: Any) -> str | tuple[str, bool]:
    """How far apart the player colours are (ΔE2000, for colour-blind players too)."""
    from pi_app.table.palette import (
        DEFAULT_COLOURS,
        SEAT_MIN_DELTA_E,
        THIRD_ARMY_COLOURS,
        THIRD_ARMY_MIN_DELTA_E,
        Palette,
        contrast_to,
        min_contrast,
    )

    palette = Palette.from_config(players.colours, players.patterns)
    seats = {c: palette.rgb(c) for c in DEFAULT_COLOURS}
    worst = min_contrast(seats)
    text = (f"closest player colours {worst.first}/{worst.second}: ΔE2000 "
            f"{worst.delta_e:.1f} ({worst.vision}, {worst.warm:.0%} warm light; "
            f"aim >= {SEAT_MIN_DELTA_E:g})")
    # a third army shares the board with two seats only: compared with each seat alone
    third = min((contrast_to(army, palette.rgb(army), seats) for army in THIRD_ARMY_COLOURS),
                key=lambda c: c.delta_e)
    text += (f"; closest to a third army {third.first}/{third.second}: "
             f"ΔE2000 {third.delta_e:.1f} (aim >= {THIRD_ARMY_MIN_DELTA_E:g})")
    weak = worst.delta_e < SEAT_MIN_DELTA_E or third.delta_e < THIRD_ARMY_MIN_DELTA_E
    return (text + "; consider patterns ([players] patterns)", True) if weak else text


def buttons_finding(backend: str, pins: Mapping[str, int],
                    states: Mapping[str, Any]) -> str | tuple[str, bool]:
    """The buttons' line from their pins and pressed states; raises RuntimeError (the
    sentence) when one reads as pressed (a short, a wiring fault, a wrong pin)."""
    from hardware.profiles import pin_warnings

    stuck = [n for n, s in states.items() if isinstance(s, Mapping) and s.get("pressed")]
    if stuck:
        raise RuntimeError(f"{', '.join(stuck)} reads as pressed right now: a short circuit, "
                           "a wiring fault or a wrong pin")
    text = f"{backend}: " + ", ".join(f"{n} on GPIO {p}" for n, p in pins.items())
    warnings = pin_warnings(dict(pins))
    return (text + "; " + "; ".join(warnings), True) if warnings else text


def _finding(name: str, check: Any) -> Finding:
    try:
        result = check()
    except Exception as exc:  # every failure is a sentence
        return Finding(name, False, str(exc) or type(exc).__name__)
    detail, warning = result if isinstance(result, tuple) else (result, False)
    return Finding(name, True, detail, warning)


def service_checks(rig: Any, config_file: Path | None,
                   cache: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """What the running service knows about its own setup, as `Finding` dicts: the config
    it loaded, its profile, its data folder, its LED strip and buttons as they run now,
    the colours (computed once into `cache`, they cannot change while it runs)."""
    config = rig.config
    cache = cache if cache is not None else {}

    def config_check() -> str:
        if config_file is None:
            return "the service runs on the defaults (no config file)"
        return f"the service loaded {config_file} at its start"

    def storage() -> str:
        folder = Path(rig.data_dir)
        if not os.access(folder, os.W_OK | os.X_OK):
            raise RuntimeError(f"the service cannot write its data folder {folder}: check "
                               "its owner (riskboard) and storage.data_dir")
        state = "open" if rig.loop.running else "closed (the table loop stopped)"
        return f"{folder} is writable by the service; its journal is {state}"

    def leds() -> str:
        strip = rig.strip
        if getattr(strip, "fault", None):
            raise RuntimeError(strip.fault)
        shown = rig.painter.get_status()["frames_pushed"]
        text = (f"{strip.backend}: {strip.count} LEDs, brightness {config.leds.brightness}, "
                f"budget {config.leds.supply_amps} A; {shown} frame{'' if shown == 1 else 's'} "
                "shown")
        if strip.backend == "bridge":
            text += " (through the Pico)"
        return text

    def buttons() -> str | tuple[str, bool]:
        controls = rig.controls
        if controls is None:
            return "no control buttons configured (phones only)", True
        if controls.fault:
            raise RuntimeError(controls.fault)
        backend = "mock" if rig.emulator is not None else config.buttons.backend
        answered = getattr(controls, "answered_by", "")
        if answered and not (backend == "mock" and answered == "Mock"):
            # what really answered: "gpio (gpiozero's LGPIO pins)" on a Pi, "gpio
            # (gpiozero's Mock pins)" where GPIOZERO_PIN_FACTORY=mock stands in (the box)
            backend += f" (gpiozero's {answered} pins)"
        return buttons_finding(backend, controls.pins, controls.get_status())

    def colours() -> str | tuple[str, bool]:
        if "colours" not in cache:
            cache["colours"] = colours_finding(config.players)
        return cache["colours"]

    def profile() -> str:
        from pi_app.table.bringup_desk import profile_in_use

        used = profile_in_use(config.board.profile, Path(rig.data_dir))
        learned = f" (learned at bring-up: {used})" if used != config.board.profile else ""
        return profile_summary(rig.profile) + learned

    checks = [("config", config_check), ("profile", profile), ("storage", storage),
              ("leds", leds), ("buttons", buttons), ("colours", colours)]
    found = [_finding(name, check).to_dict() for name, check in checks]
    board = board_check(rig)
    if board is not None:
        found.insert(2, board.to_dict())
    return found


def board_check(rig: Any) -> Finding | None:
    """Whether the profile in use matches the board whose Pico the service is linked to
    (`pi_app.board_match`), or None while no Pico has introduced itself."""
    from pi_app.board_match import board_finding

    link = rig.link.get_status() if rig.link is not None else {}
    if not link.get("connected") or link.get("sensor_count") is None:
        return None
    try:
        matches, sentence = board_finding(rig.profile, link,
                                          getattr(rig.emulator, "led_count", None))
    except Exception as exc:  # every failure is a sentence; the status page still answers
        return Finding("board", False, str(exc) or type(exc).__name__)
    return Finding("board", matches, sentence)
