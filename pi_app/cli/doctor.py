"""`riskboard doctor`: check the table's setup and say in plain words what is wrong.

Checks, in order: the config file, the board profile, the data folder and journal, the
serial link to the Pico (handshake, firmware version, faults the Pico reports), whether the
profile matches the board that answers (`board`: the Pico's sensor count and sensor-map CRC,
its NFC readers, the LED chain's length where it is known; `pi_app.board_match`, and on a
mismatch one sentence sending the maker to the bring-up), the LED backend, the Pi's
config.txt for LEDs on SPI (`firmware`), the control buttons (pin clashes included) and the
colours.
`--sim` checks the simulated setup instead (emulated Pico over a pty, in-memory LEDs,
MockFactory buttons; miswired when the config's `board.miswired` says so). Exit code 0
when healthy, 1 when any check failed. Nothing here changes a game.

Beside a running service (`GET http://127.0.0.1:<web.port>/api/status` answers), doctor
never opens what the service holds: the Pico's port, the LED strip and the GPIO lines of
the buttons are reported as the service sees them (its `link`, and its `checks`, see
`pi_app.checks`). Run as the maker's own user (`pi`), what that user may not read is
asked of the service too: the config (0640, riskboard group) and the data folder (0700)
are reported from the service's `checks`, so a healthy installed Pi passes every check
without sudo. With the service stopped, a config this user cannot read is a failure with
what to do, and the checks that need no config still run with the defaults.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pi_app.checks import Finding, buttons_finding, colours_finding, profile_summary

__all__ = ["Finding", "diagnose", "register", "run"]

LINK_WAIT_S = 4.0
STATUS_TIMEOUT_S = 3.0
PORT_HELD = ("another program holds it", "exclusively lock")
FROM_SERVICE = "(from the running service) "


class ConfigUnreadable(PermissionError):
    """The config file exists but this user may not read it."""


def register(subparsers: Any) -> None:
    """Add the `doctor` subcommand."""
    parser = subparsers.add_parser(
        "doctor", help="check serial port, firmware, LEDs, buttons and config",
        description="Check the table's hardware and configuration; exit 1 on problems.")
    parser.add_argument("--config", type=Path, help="TOML config file")
    parser.add_argument("--sim", action="store_true", help="check the simulated setup")
    parser.add_argument("--data", type=Path, help="data folder (overrides storage.data_dir)")
    parser.add_argument("--port", type=int, help="the running service's web port (default: "
                        "web.port of the config; 8080 when the config cannot be read)")
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


def status_url(cfg: Any, port: int | None = None) -> str:
    """The running service's status page on this machine, from the config's web section
    (`port` instead of web.port when given)."""
    host = cfg.web.host if cfg.web.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
    host = host if ":" not in host else f"[{host}]"
    return f"http://{host}:{port or cfg.web.port}/api/status"


def ask_service(cfg: Any, port: int | None = None) -> dict[str, Any] | None:
    """The running service's `/api/status`, or None when no riskboard service answers."""
    import urllib.request

    try:
        with urllib.request.urlopen(status_url(cfg, port), timeout=STATUS_TIMEOUT_S) as answer:
            status = json.load(answer)
    except (OSError, ValueError):
        return None
    return status if isinstance(status, dict) else None


def _from_service(service: dict[str, Any], name: str) -> Finding | None:
    for item in service.get("checks") or []:
        if isinstance(item, dict) and item.get("name") == name:
            found = Finding.from_dict(item)
            found.detail = FROM_SERVICE + found.detail
            return found
    return None


def diagnose(config_file: Path | None, sim: bool, data_dir: Path | None = None,
             port: int | None = None) -> list[Finding]:
    """Every check's finding, in order (later checks are skipped when what they need failed)."""
    from pi_app.cli.serve import config_path
    from pi_app.config import Config, load_config

    findings: list[Finding] = []
    holder: dict[str, Any] = {}
    path = config_path(config_file)

    def config() -> str:
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
    service = None if sim else ask_service(cfg, port)
    if unreadable and service is not None:
        # the service read it: what it loaded is what counts, reported by the service
        told = _from_service(service, "config")
        if told is not None and told.ok:
            findings[-1] = Finding("config", True, f"{path} is readable by the service only "
                                   f"(that's fine); {told.detail}")
            return _service_view(findings, service, cfg)
    return _own_view(findings, holder, cfg, sim, data_dir, unreadable, service)


def _service_view(findings: list[Finding], service: dict[str, Any], cfg: Any
                  ) -> list[Finding]:
    """The config could not be read here: every check as the running service reports it."""
    for name in ("profile", "storage"):
        findings.append(_from_service(service, name) or _not_told(name))
    _check("serial", findings, lambda: _link_finding(service.get("link") or {}))
    board = _from_service(service, "board")  # only once the service's Pico introduced itself
    if board is not None:
        findings.append(board)
    for name in ("leds", "buttons", "colours"):
        findings.append(_from_service(service, name) or _not_told(name))
    return findings


def _not_told(name: str) -> Finding:
    return Finding(name, True, "not checked: the running service did not report it (an "
                   "older version?); run `sudo riskboard doctor`", True)


def _own_view(findings: list[Finding], holder: dict[str, Any], cfg: Any, sim: bool,
              data_dir: Path | None, unreadable: bool, service: dict[str, Any] | None
              ) -> list[Finding]:
    """Check here what this user may; ask the running service (if any) for the rest."""
    def profile() -> str:
        from hardware.profiles import load_profile
        from pi_app.table.bringup_desk import profile_in_use

        folder = Path(data_dir or cfg.storage.data_dir)
        used: str | Path = cfg.board.profile
        note = ""
        if not (sim and data_dir is None):
            try:
                used = profile_in_use(cfg.board.profile, folder)
            except PermissionError:
                # the data folder is the service's own (0700): a profile learned at bring-up
                # may be there; say which one was checked rather than silently using another
                note = ("; a profile learned at bring-up would be in the service's private "
                        "data folder: `sudo riskboard doctor` checks that one")
        holder["profile"] = p = load_profile(used)
        if used != cfg.board.profile:
            note = f" (learned at bring-up: {used})"
        return profile_summary(p) + note

    if not _check("profile", findings, profile):
        return findings
    prof = holder["profile"]

    def storage() -> str | tuple[str, bool]:
        folder = Path(data_dir or cfg.storage.data_dir)
        if sim and data_dir is None:
            folder = Path(tempfile.mkdtemp(prefix="riskboard-doctor-"))
        elif folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
            told = _from_service(service, "storage") if service is not None else None
            if told is not None:
                return (f"{folder} is private to the service (that's fine); {told.detail}"
                        if told.ok else told.detail, told.warning or not told.ok)
            return (f"{folder} is private to the riskboard service (0700: the journal holds "
                    "the dice seed): run `sudo riskboard doctor` to check it", True)
        from pi_app.storage import make_data_dir

        make_data_dir(folder)
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
    if service is not None:
        # the service holds the Pico's port, the strip and the GPIO lines: ask, never open
        holder["link"] = service.get("link") or {}
        _check("serial", findings, lambda: _link_finding(service.get("link") or {}))
        _check_board(findings, prof, holder)
        for name in ("leds", "buttons"):
            findings.append(_from_service(service, name) or _not_told(name))
    else:
        _check("serial", findings, lambda: _serial(cfg, prof, sim, holder))
        _check_board(findings, prof, holder)
        _check("leds", findings,
               skipped if unreadable else lambda: _leds(cfg, prof, sim, holder))
        _check("buttons", findings,
               skipped if unreadable else lambda: _buttons(cfg, prof, sim))
    _check("firmware", findings, skipped if unreadable else lambda: _firmware(cfg, sim))
    _check("colours", findings, skipped if unreadable else lambda: colours_finding(cfg.players))
    emulator = holder.get("emulator")
    if emulator is not None:
        emulator.stop()
    return findings


def _serial(cfg: Any, prof: Any, sim: bool, holder: dict[str, Any]) -> str | tuple[str, bool]:
    from firmware_bridge.link import Link

    port = cfg.serial.port
    if sim:
        from pi_app.table.sim import make_emulator, physical_board

        holder["emulator"] = emulator = make_emulator(
            prof, physical_board(prof, cfg.board.miswired))
        port = emulator.start()
    elif not Path(port).exists():
        raise RuntimeError(f"{port} does not exist: is the Pico plugged in (USB) and the udev "
                           "rule installed (deploy/)?")
    # no expected CRC or count: a Pico flashed for another board still answers, and the
    # board check says what differs
    link = Link(port, lambda event: None, baudrate=cfg.serial.baudrate)
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
    holder["link"] = status
    if not status.get("connected") and status.get("state") != "connected":
        if _held(status):
            return _service_link(cfg, port)
        why = status.get("last_error") or "no answer to the handshake"
        raise RuntimeError(f"the Pico on {port} did not connect: {why}")
    text = (f"Pico on {port}: firmware {status.get('firmware_version')}, board "
            f"{status.get('board_id')}, {status.get('sensor_count')} sensor channels, "
            f"profile CRC {status.get('profile_crc')}")
    return _with_faults(text, status)


def _check_board(findings: list[Finding], prof: Any, holder: dict[str, Any]) -> None:
    """The `board` line: does the profile match the board that answered? Only once the
    Pico introduced itself (its handshake gave a sensor count)."""
    link = holder.get("link") or {}
    if link.get("sensor_count") is None:
        return
    from pi_app.board_match import board_finding

    emulator = holder.get("emulator")
    led_count = getattr(emulator, "led_count", None)

    def board() -> str:
        matches, sentence = board_finding(prof, link, led_count)
        if not matches:
            raise RuntimeError(sentence)
        return sentence

    _check("board", findings, board)


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
    service = ask_service(cfg)
    if service is None:
        raise RuntimeError(
            f"{port} is held by another program, probably the riskboard service, and its "
            f"status page {status_url(cfg)} did not answer: run `sudo systemctl stop "
            "riskboard` to test the port alone (start it again afterwards)")
    return _link_finding(service.get("link") or {})


def _link_finding(link: dict[str, Any]) -> str | tuple[str, bool]:
    """The service's link to the Pico, as the serial check's sentence."""
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


def _firmware(cfg: Any, sim: bool) -> str:
    """The Pi's config.txt settings the LEDs on SPI (GPIO 10) need (pi_app.boot_config)."""
    if sim or cfg.leds.backend != "ws281x" or cfg.leds.gpio_pin != 10:
        return "no config.txt settings needed (the LEDs are not driven on GPIO 10)"
    from hardware.platform import detect_platform
    from pi_app.boot_config import check_boot_config

    return check_boot_config(detect_platform())


def _buttons(cfg: Any, prof: Any, sim: bool) -> str | tuple[str, bool]:
    from hardware.controls import ControlButtons, pin_factory_for
    from pi_app.table.rig import button_pins, pin_problems

    backend = "mock" if sim else cfg.buttons.backend
    if backend == "none":
        return "no control buttons configured (phones only)", True
    pins = button_pins(cfg, prof)
    clashes = pin_problems(cfg, prof, sim)
    if clashes:  # the service would leave the buttons off with the same sentences
        raise RuntimeError("; ".join(clashes))
    buttons = ControlButtons(pins, lambda event: None, pin_factory=pin_factory_for(backend),
                             hold_time=cfg.buttons.hold_time)
    try:
        states = buttons.get_status()
    finally:
        buttons.close()
    return buttons_finding(backend, pins, states)


def run(args: argparse.Namespace) -> int:
    """Print which riskboard this is, then one line per check; exit 0 when all pass, 1
    otherwise."""
    from pi_app.version import version_line

    print(version_line(), flush=True)  # first: a report names the code it checked
    findings = diagnose(args.config, args.sim, args.data, args.port)
    for finding in findings:
        print(finding.line())
    failed = [f for f in findings if not f.ok]
    print(f"{len(failed)} problem(s) found." if failed else "All checks passed.")
    return 1 if failed else 0
