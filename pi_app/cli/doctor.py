"""`riskboard doctor`: check the table's setup and say in plain words what is wrong.

Checks, in order: the config file, the board profile, the data folder and journal, the
serial link to the Pico (handshake, firmware version, board profile CRC, faults the Pico
reports), the LED backend, the control buttons (pin clashes included) and the colours.
`--sim` checks the simulated setup instead (emulated Pico over a pty, in-memory LEDs,
MockFactory buttons). Exit code 0 when healthy, 1 when any check failed. Nothing here
changes a game.

Run as an ordinary user (`pi`): a config file only the riskboard group may read is a
failure with what to do, and the checks that need no config (the profile and the serial
link, with the defaults) still run. Run with sudo while the service runs: the service holds
the Pico's port exclusively, so the serial check asks the service's own status page
(`GET http://127.0.0.1:<web.port>/api/status`) for its link instead of failing.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LINK_WAIT_S = 4.0
STATUS_TIMEOUT_S = 3.0
PORT_HELD = ("another program holds it", "exclusively lock")


class ConfigUnreadable(PermissionError):
    """The config file exists but this user may not read it."""


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


def register(subparsers: Any) -> None:
    """Add the `doctor` subcommand."""
    parser = subparsers.add_parser(
        "doctor", help="check serial port, firmware, LEDs, buttons and config",
        description="Check the table's hardware and configuration; exit 1 on problems.")
    parser.add_argument("--config", type=Path, help="TOML config file")
    parser.add_argument("--sim", action="store_true", help="check the simulated setup")
    parser.add_argument("--data", type=Path, help="data folder (overrides storage.data_dir)")
    parser.set_defaults(func=run)


def _check(name: str, findings: list[Finding], fn: Callable[[], str | tuple[str, bool]]
           ) -> bool:
    """Run one check; a raised exception is a failure whose message is the sentence."""
    try:
        result = fn()
    except Exception as exc:  # every failure becomes a sentence, never a traceback
        findings.append(Finding(name, False, str(exc) or type(exc).__name__))
        return False
    detail, warning = result if isinstance(result, tuple) else (result, False)
    findings.append(Finding(name, True, detail, warning))
    return True


def diagnose(config_file: Path | None, sim: bool, data_dir: Path | None = None
             ) -> list[Finding]:
    """Every check's finding, in order (later checks are skipped when what they need failed)."""
    from pi_app.cli.serve import config_path
    from pi_app.config import Config, load_config

    findings: list[Finding] = []
    holder: dict[str, Any] = {}

    def config() -> str:
        path = config_path(config_file)
        if path is not None and path.exists() and not os.access(path, os.R_OK):
            raise ConfigUnreadable(
                f"permission denied reading {path}: run `sudo riskboard doctor` or add "
                "yourself to the riskboard group (sudo adduser $USER riskboard, then log in "
                "again); the checks below use the defaults")
        holder["config"] = load_config(path)
        return f"{path} is valid" if path else "no config file; using the defaults"

    unreadable = False
    if not _check("config", findings, config):
        unreadable = "permission denied reading" in findings[-1].detail
        if not unreadable:
            return findings
        holder["config"] = Config()
    cfg = holder["config"]

    def profile() -> str:
        from hardware.profiles import load_profile

        holder["profile"] = p = load_profile(cfg.board.profile)
        kinds = {s.kind for s in p.sensors.values()}
        return (f"{p.name}: {len(p.sensors)} territories ({'/'.join(sorted(kinds))}), "
                f"{p.led_count} LEDs, sensor map CRC {p.sensor_crc():08x}")

    if not _check("profile", findings, profile):
        return findings
    prof = holder["profile"]

    def storage() -> str:
        folder = Path(data_dir or cfg.storage.data_dir)
        if sim and data_dir is None:
            folder = Path(tempfile.mkdtemp(prefix="riskboard-doctor-"))
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".doctor-probe"
        probe.write_text("ok")
        probe.unlink()
        journal = folder / "journal.sqlite"
        if sim and data_dir is None:
            folder.rmdir()
            return "a scratch folder is writable (the simulation keeps no journal here)"
        if journal.exists() and not os.access(journal, os.R_OK):
            return (f"{folder} is writable; the journal is private to the service (it holds "
                    "the dice seed): run `sudo riskboard doctor` to check its integrity", True)
        if journal.exists():
            with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
                verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            if verdict != "ok":
                raise RuntimeError(f"the journal {journal} is damaged: {verdict}")
            return f"{folder} is writable; journal passes its integrity check"
        return f"{folder} is writable; no journal yet (a first game creates it)"

    def skipped() -> tuple[str, bool]:
        return "not checked: it needs the config file, which could not be read", True

    _check("storage", findings, skipped if unreadable and data_dir is None else storage)
    _check("serial", findings, lambda: _serial(cfg, prof, sim, holder))
    _check("leds", findings, skipped if unreadable else lambda: _leds(cfg, prof, sim, holder))
    _check("buttons", findings, skipped if unreadable else lambda: _buttons(cfg, prof, sim))

    def colours() -> str | tuple[str, bool]:
        from pi_app.table.palette import (
            DEFAULT_COLOURS,
            SEAT_MIN_DELTA_E,
            THIRD_ARMY_COLOURS,
            THIRD_ARMY_MIN_DELTA_E,
            Palette,
            contrast_to,
            min_contrast,
        )

        players = cfg.players
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

    _check("colours", findings, skipped if unreadable else colours)
    emulator = holder.get("emulator")
    if emulator is not None:
        emulator.stop()
    return findings


def _serial(cfg: Any, prof: Any, sim: bool, holder: dict[str, Any]) -> str:
    from firmware_bridge.link import Link

    port = cfg.serial.port
    if sim:
        from pi_app.table.sim import make_emulator

        holder["emulator"] = emulator = make_emulator(prof)
        port = emulator.start()
    elif not Path(port).exists():
        raise RuntimeError(f"{port} does not exist: is the Pico plugged in (USB) and the udev "
                           "rule installed (deploy/)?")
    link = Link(port, lambda event: None, baudrate=cfg.serial.baudrate,
                expected_profile_crc=prof.sensor_crc(),
                expected_sensor_count=prof.sensor_count)
    link.start()
    try:
        deadline = time.monotonic() + LINK_WAIT_S
        while not link.connected and time.monotonic() < deadline:
            if _held(link.get_status()):
                break
            time.sleep(0.05)
        status = link.get_status()
    finally:
        link.stop()
    if not status.get("connected") and status.get("state") != "connected":
        if _held(status):
            return _service_link(cfg, port)
        why = status.get("last_error") or "no answer to the handshake"
        raise RuntimeError(f"the Pico on {port} did not connect: {why}")
    text = (f"Pico on {port}: firmware {status.get('firmware_version')}, board "
            f"{status.get('board_id')}, profile CRC {status.get('profile_crc')} matches")
    return _with_faults(text, status)


def _held(status: dict[str, Any]) -> bool:
    """True when the port is locked by another program (the running service, usually)."""
    why = str(status.get("last_error") or "")
    return any(mark in why for mark in PORT_HELD)


def _with_faults(text: str, link: dict[str, Any]) -> str | tuple[str, bool]:
    """`text`, plus the lasting faults the Pico reported (a missing NFC reader...) as a
    warning."""
    faults = [str(f) for f in link.get("pico_faults") or []]
    if not faults:
        return text
    return f"{text}; the Pico reports: {'; '.join(faults)}", True


def _service_link(cfg: Any, port: str) -> str | tuple[str, bool]:
    """The running service holds `port`: report its link from its status page."""
    import urllib.request

    host = cfg.web.host if cfg.web.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    url = f"http://{host if ':' not in host else f'[{host}]'}:{cfg.web.port}/api/status"
    try:
        with urllib.request.urlopen(url, timeout=STATUS_TIMEOUT_S) as answer:
            link = dict(json.load(answer).get("link") or {})
    except (OSError, ValueError, AttributeError):
        raise RuntimeError(
            f"{port} is held by another program, probably the riskboard service, and its "
            f"status page {url} did not answer: run `sudo systemctl stop riskboard` to test "
            "the port alone (start it again afterwards)") from None
    state = link.get("state", "unknown")
    text = (f"the riskboard service is using the Pico (that's fine); its link status: "
            f"{state}")
    if link.get("connected"):
        text += (f", firmware {link.get('firmware_version')}, board {link.get('board_id')}, "
                 f"profile CRC {link.get('profile_crc')}")
        return _with_faults(text, link)
    why = link.get("last_error") or "no answer to the handshake"
    raise RuntimeError(f"{text}: the Pico is not connected ({why})")


def _leds(cfg: Any, prof: Any, sim: bool, holder: dict[str, Any]) -> str:
    from hardware.leds import open_strip

    backend = "memory" if sim else cfg.leds.backend
    if backend == "bridge":
        return (f"bridge: {prof.led_count} LEDs driven by the Pico (checked with the serial "
                "link)")
    opts: dict[str, Any] = {"brightness": cfg.leds.brightness,
                            "supply_amps": cfg.leds.supply_amps, "gamma": cfg.leds.gamma}
    if backend == "ws281x":
        opts["gpio_pin"] = cfg.leds.gpio_pin
    strip = open_strip(backend, prof.led_count, **opts)
    try:
        strip.show([(0, 0, 0)] * prof.led_count)
    finally:
        strip.close()
    return (f"{backend}: {prof.led_count} LEDs, brightness {cfg.leds.brightness}, "
            f"budget {cfg.leds.supply_amps} A")


def _buttons(cfg: Any, prof: Any, sim: bool) -> str:
    from hardware.controls import ControlButtons, pin_factory_for
    from hardware.profiles import pin_warnings
    from pi_app.table.rig import button_pins, pin_problems

    backend = "mock" if sim else cfg.buttons.backend
    if backend == "none":
        return "no control buttons configured (phones only)", True  # type: ignore[return-value]
    pins = button_pins(cfg, prof)
    clashes = pin_problems(cfg, prof, sim)
    if clashes:  # the service would refuse to start with the same sentences
        raise RuntimeError("; ".join(clashes))
    buttons = ControlButtons(pins, lambda event: None, pin_factory=pin_factory_for(backend),
                             hold_time=cfg.buttons.hold_time)
    try:
        stuck = [n for n, s in buttons.get_status().items() if s.get("pressed")]
    finally:
        buttons.close()
    if stuck:
        raise RuntimeError(f"{', '.join(stuck)} reads as pressed right now: a short circuit, "
                           "a wiring fault or a wrong pin")
    text = f"{backend}: " + ", ".join(f"{n} on GPIO {p}" for n, p in pins.items())
    warnings = pin_warnings(pins)
    if warnings:
        return text + "; " + "; ".join(warnings), True  # type: ignore[return-value]
    return text


def run(args: argparse.Namespace) -> int:
    """Print one line per check; exit 0 when all pass, 1 otherwise."""
    findings = diagnose(args.config, args.sim, args.data)
    for finding in findings:
        print(finding.line())
    failed = [f for f in findings if not f.ok]
    print(f"{len(failed)} problem(s) found." if failed else "All checks passed.")
    return 1 if failed else 0
