"""Bring-up on a running table: start it, answer it, save what it learned, load that live.

`BringUpDesk` is what the host page (`pi_app.web.bringup`) and `riskboard bringup` drive.
`start()` is allowed when no game runs or a game is running or paused: a running game is
paused (journaled, as the host's Pause) and resumed when the bring-up ends, a paused one
stays paused, so the game is restored exactly as it was. While it runs the table loop's
`mode` is a `BringUpMode` (the board's sensors and buttons go to the bring-up, the painter
shows its frames) and the serial link takes a Pico of any sensor map (the board may be
wired unlike the profile in use).

`preview()` shows the profile text, a unified diff against the profile in use and the
sensor CRC the Pico must report; `save()` validates (the bring-up finished, every territory
has LEDs and a sensor, no LED, channel or tag used twice, the profile validator, the
Pico's CRC), writes the commented TOML (the previous file kept as `.bak`) and loads it
without a restart: the painter's LED map, the loop's and the board reader's sensor map
and the link's expected CRC change on the loop thread (`reload`). A refusal is a
`BringUpRefused` with a stable code.

Where the profile is saved: the file the config names when it names a file, else
`<data dir>/board-profile.toml`, which the table then loads at every start instead of
the shipped profile of that name (`profile_in_use`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hardware.errors import ProfileError
from hardware.profiles import BoardProfile, load_profile
from pi_app.board_match import missing_readers, reader_wiring
from pi_app.bringup.core import BringUp, facts_from_rules
from pi_app.bringup.profile_writer import (
    WrittenProfile,
    profile_diff,
    profile_text,
    save_profile,
    write_profile,
)
from pi_app.rules.board import load_map
from pi_app.table.bringup_mode import BringUpMode

log = logging.getLogger("riskboard.bringup")

LEARNED_NAME = "board-profile.toml"
PACES = (0.2, 2.0)


class BringUpRefused(Exception):
    """A bring-up request refused: a stable `code`, an English sentence and parameters."""

    def __init__(self, code: str, message: str, status: int = 409, **params: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.status, self.params = code, message, status, params


def _shipped(name: str) -> bool:
    return "/" not in name and not name.endswith(".toml")


def profile_in_use(configured: str | Path, data_dir: Path) -> str | Path:
    """The profile the table loads: the config's file, or the profile learned at bring-up
    in the data folder when the config names a shipped profile and one was saved."""
    learned = Path(data_dir) / LEARNED_NAME
    if _shipped(str(configured)) and learned.is_file():
        return learned
    return configured


def profile_file(configured: str | Path, data_dir: Path) -> Path:
    """The file a bring-up saves to (see the module docstring)."""
    if _shipped(str(configured)):
        return Path(data_dir) / LEARNED_NAME
    return Path(configured)


def _source_file(profile: BoardProfile, configured: str | Path, data_dir: Path) -> Path:
    used = profile_in_use(configured, data_dir)
    if isinstance(used, Path) or not _shipped(str(used)):
        return Path(used)
    return Path(str(resources.files("hardware.boards").joinpath(f"{profile.name}.toml")))


@dataclass
class TableParts:
    """The running table's parts a bring-up borrows (the rig's)."""

    loop: Any
    painter: Any
    strip_count: int
    link: Any = None
    pins: Callable[[], Mapping[str, int]] = dict
    brightness: float = 0.5
    supply_amps: float | None = None
    on_reload: Callable[[BoardProfile], dict[str, Any]] = lambda profile: {}
    resize: Callable[[int], None] = lambda count: None
    gpio: tuple[Any, int | None] | None = None  # (pin factory, LED data pin): free lines heard
    # After the free lines are released: the control buttons opened again (see _close_lines).
    lines_released: Callable[[], None] = lambda: None


class BringUpDesk:
    """Bring-ups of one table, one at a time (see the module docstring)."""

    def __init__(self, parts: TableParts, profile: BoardProfile, *, configured: str | Path,
                 data_dir: Path, step_seconds: float = 0.6) -> None:
        self.parts = parts
        self.profile = profile
        self.configured = configured
        self.data_dir = Path(data_dir)
        self.step_seconds = step_seconds
        self.mode: BringUpMode | None = None
        self._lines: Any = None
        self._resume = False
        self._lock = threading.Lock()
        self._changed = threading.Condition()
        self.revision = 0
        self.last_saved: dict[str, Any] | None = None

    # --- starting and stopping ----------------------------------------------------------
    def start(self, pace: float | None = None) -> dict[str, Any]:
        """Begin a bring-up (pausing a running game); refused while one runs. `pace`: the
        seconds between two LEDs of a run growing while a territory is held (0.2-2)."""
        with self._lock:
            if self.mode is not None:
                raise BringUpRefused("bringup_running", "A bring-up is already running.")
            if pace is not None and not PACES[0] <= pace <= PACES[1]:
                raise BringUpRefused("bad_pace", f"The pace is {PACES[0]} to {PACES[1]} "
                                     "seconds an LED.", 400, low=PACES[0], high=PACES[1])
            names = tuple(self.parts.pins()) or None
            nfc = any(s.kind == "nfc" for s in self.profile.sensors.values())
            core = BringUp(facts_from_rules(names), led_count=self.parts.strip_count,
                           brightness=self.parts.brightness, supply_amps=self.parts.supply_amps,
                           assumed_order=getattr(self.profile, "colour_order", None) or "GRB",
                           step_seconds=pace or self.step_seconds, nfc=nfc)
            mode = BringUpMode(core, pins=self.parts.pins(), strip_count=self.parts.strip_count,
                               on_change=self._wake)
            self._resume = self.parts.loop.call(lambda table: self._enter(table, mode))
            self.mode = mode
            self._relax_link(True)
            self._listen(mode)
            painter = self.parts.painter
            painter.override = mode.frame
            painter.show(painter.scene)
            log.info("event=bringup.started paused_game=%s", "yes" if self._resume else "no")
            self._wake()
            return self.state()

    def _listen(self, mode: BringUpMode) -> None:
        """Hear the free GPIO lines too (buttons wired off the profile's lines)."""
        if self.parts.gpio is None:
            return
        from pi_app.table.bringup_lines import LineWatcher, free_lines

        factory, led_pin = self.parts.gpio
        loop = self.parts.loop
        lines = free_lines(self.parts.pins().values(), led_pin)
        self._lines = LineWatcher(
            lines, lambda line: loop.call(lambda table: mode.on_line(line), timeout=5.0),
            pin_factory=factory)

    def _enter(self, table: Any, mode: BringUpMode) -> bool:
        """On the loop thread: pause a running game, then take the board's inputs."""
        pause = table.session is not None and table.session.status == "running" \
            and not table.paused
        if pause:
            table.host_action("pause", {})
        self.parts.loop.mode = mode
        return pause

    def stop(self) -> dict[str, Any]:
        """End the bring-up without saving: the game's lights and inputs come back, and a
        game the bring-up paused is resumed."""
        with self._lock:
            self._leave()
            return self.state()

    def _leave(self) -> None:
        if self.mode is None:
            raise BringUpRefused("no_bringup", "No bring-up is running.")
        resume = self._resume

        def leave(table: Any) -> None:
            self.parts.loop.mode = None
            if resume:
                table.host_action("resume", {})
            self.parts.painter.override = None
            self.parts.painter.show(table.scene())

        self.parts.loop.call(leave)
        self._close_lines()
        self.parts.resize(self.profile.led_count)
        self._relax_link(False)
        self.mode = None
        self._resume = False
        log.info("event=bringup.stopped resumed_game=%s", "yes" if resume else "no")
        self._wake()

    def _close_lines(self) -> None:
        # lgpio 0.2.2's alert thread stops at the first released line it finds at the head
        # of its list (the newest claimed) and then sleeps until a line is claimed again:
        # releasing the free lines, claimed after the buttons, left every button deaf
        # (Pi box run8: End phase on GPIO 16 unheard after a bring-up). The buttons, opened
        # again, are the newest lines, so the thread walks the whole list again.
        if self._lines is not None:
            watched = bool(self._lines.buttons)
            self._lines.close()
            self._lines = None
            if watched:
                self.parts.lines_released()

    def _relax_link(self, relaxed: bool) -> None:
        """While bringing up, the link takes a Pico of any sensor map; after, the profile's."""
        link = self.parts.link
        if link is None:
            return
        link.core.expected_crc = None if relaxed else self.profile.sensor_crc()
        link.core.expected_count = None if relaxed else self.profile.sensor_count

    # --- answering and reading -----------------------------------------------------------
    def answer(self, what: str, value: Any = None) -> dict[str, Any]:
        """The maker's answer, on the loop thread (in order with the board's touches)."""
        mode = self._running()
        outcome = self.parts.loop.call(lambda table: mode.answer(what, value))
        if not outcome.accepted:
            raise BringUpRefused(str(outcome.code), f"refused: {outcome.code}", 409,
                                 **dict(outcome.params))
        count = mode.core.draft.led_count
        if count != mode.strip_count:  # the maker counted another chain length
            self.parts.resize(count)
            mode.strip_count = count
        return self.state()

    def _running(self) -> BringUpMode:
        mode = self.mode
        if mode is None:
            raise BringUpRefused("no_bringup", "No bring-up is running.")
        return mode

    def state(self) -> dict[str, Any]:
        """The bring-up page's JSON: the mode's state, or `active: false`."""
        mode = self.mode
        body: dict[str, Any] = mode.state() if mode is not None else {"active": False}
        body["desk_revision"] = self.revision
        body["profile"] = self.profile.name
        if mode is not None:
            body["silent_readers"] = self.silent_readers()
        if self.last_saved is not None:
            body["last_saved"] = self.last_saved
        return body

    def silent_readers(self) -> list[dict[str, Any]]:
        """The NFC readers the Pico found no answer from at boot (its fault lines), each
        with the territory the profile in use puts on that channel (a guess until the
        sensors are learned: the maker may have wired it elsewhere) and where the firmware
        looked for it (`board_match.reader_wiring`: mux and port), for the page to name
        them at the sensor step."""
        link = self.parts.link
        faults = list(getattr(getattr(link, "core", None), "pico_faults", None) or [])
        board_id = self._pico().get("board_id")
        return [{"channel": c, "territory": self.profile.territory_at(c),
                 **reader_wiring(board_id, c)} for c in missing_readers(faults)]

    def rewired(self) -> None:
        """The board's sensors were moved (a practice board's cable): the page reads the
        Pico's silent readers again."""
        self._wake()

    def _wake(self) -> None:
        painter = self.parts.painter
        if self.mode is not None and painter.override is not None:
            painter.show(painter.scene)  # the bring-up's frame at once, not at the next tick
        with self._changed:
            self.revision += 1
            self._changed.notify_all()

    def wait(self, after: int, timeout: float) -> int:
        """Block until something changed after revision `after` (or `timeout`)."""
        with self._changed:
            self._changed.wait_for(lambda: self.revision > after, timeout)
            return self.revision

    # --- saving ----------------------------------------------------------------------------
    def _written(self) -> WrittenProfile:
        mode = self._running()
        with mode.lock:
            core = mode.core
            draft = core.draft
            if draft.step != "done":
                raise BringUpRefused("not_finished", "Finish the bring-up before saving.",
                                     step=draft.step)
            facts = core.facts
            problems = _problems(draft, facts.territories)
            if problems:
                code, params = problems[0]
                raise BringUpRefused(code, f"The profile is not complete: {code}.", 409,
                                     **params)
            board = load_map()
            identity = self._pico()
            count = identity.get("sensor_count") if identity else None
            text = profile_text(draft, facts, name=self.profile.name, map_name=board.name,
                                continent_names=board.continent_names,
                                description=f"{self.profile.name}, learned at bring-up",
                                sensor_count=count if isinstance(count, int) else None)
        try:
            return write_profile(text, facts, map_name=board.name)
        except ProfileError as exc:
            raise BringUpRefused("profile_invalid", str(exc), 409, reason=str(exc)) from exc

    def _pico(self) -> dict[str, Any]:
        link = self.parts.link
        identity = getattr(getattr(link, "core", None), "identity", None)
        return dict(identity) if isinstance(identity, dict) else {}

    def preview(self) -> dict[str, Any]:
        """What saving would write: the text, the diff against the profile in use, the
        sensor CRC the Pico must report and whether the Pico connected now reports it."""
        written = self._written()
        source = _source_file(self.profile, self.configured, self.data_dir)
        target = profile_file(self.configured, self.data_dir)
        pico = self._pico().get("profile_crc")
        crc = f"{written.sensor_crc:08x}"
        return {"text": written.text, "diff": profile_diff(source, written.text,
                                                           new_name=str(target)),
                "from": str(source), "to": str(target), "sensor_crc": crc,
                "sensor_count": written.profile.sensor_count, "pico_crc": pico,
                "crc_matches": pico is None or pico == crc}

    def save(self, *, pico_later: bool = False) -> dict[str, Any]:
        """Validate, write (keeping a backup) and load the profile live; ends the bring-up.
        `pico_later`: save although the Pico reports another sensor CRC (it is flashed
        with the new map next; the link waits for it)."""
        with self._lock:
            written = self._written()
            crc = f"{written.sensor_crc:08x}"
            pico = self._pico().get("profile_crc")
            if pico is not None and pico != crc and not pico_later:
                raise BringUpRefused(
                    "sensor_crc_mismatch", f"The Pico reports sensor CRC {pico}, this profile "
                    f"needs {crc}: flash the Pico with this sensor map, or save anyway.",
                    409, pico_crc=pico, sensor_crc=crc)
            target = profile_file(self.configured, self.data_dir)
            target.parent.mkdir(parents=True, exist_ok=True)
            backup = save_profile(target, written)
            try:
                profile = load_profile(target)
            except ProfileError as exc:  # written but unreadable: put the previous one back
                if backup is not None:
                    backup.replace(target)
                raise BringUpRefused("profile_invalid", str(exc), 409, reason=str(exc)) from exc
            self.profile = profile
            self._close_lines()  # the learned buttons' lines open again as buttons
            reloaded = self.parts.on_reload(profile)
            self.last_saved = {"path": str(target), "backup": None if backup is None
                               else str(backup), "sensor_crc": crc, **reloaded}
            log.info("event=bringup.saved path=%s crc=%s", target, crc)
            self._leave()
            return self.state()


def _problems(draft: Any, territories: tuple[str, ...]) -> list[tuple[str, dict[str, Any]]]:
    """What keeps a learned board from being a profile, each as (code, parameters)."""
    out: list[tuple[str, dict[str, Any]]] = []
    no_leds = [t for t in territories if not draft.territory_leds.get(t)]
    if no_leds:
        out.append(("territory_without_leds", {"territories": no_leds}))
    no_sensor = [t for t in territories if t not in draft.sensors]
    if no_sensor:
        out.append(("territory_without_sensor", {"territories": no_sensor}))
    owners: dict[int, str] = {}
    for owner, leds in [*draft.territory_leds.items(), *draft.status_leds.items()]:
        for led in leds:
            if led in owners:
                out.append(("led_used_twice", {"led": led, "owners": [owners[led], owner]}))
            owners[led] = owner
    channels: dict[int, str] = {}
    for territory, (channel, _kind) in draft.sensors.items():
        if channel in channels:
            out.append(("channel_used_twice", {"channel": channel}))
        channels[channel] = territory
    uids = [u for table in (draft.tokens, draft.markers) for us in table.values() for u in us]
    if len(uids) != len(set(uids)):
        out.append(("tag_used_twice", {}))
    return out
