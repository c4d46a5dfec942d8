"""The bring-up mode of the table: the board's own inputs and LEDs lent to a bring-up.

While a `BringUpMode` is the table loop's `mode` (`pi_app.table.loop.TableLoop._route`),
every raw sensor event (a press, a release, a tag arriving or leaving, with its channel)
and every control button press goes to the bring-up core (`pi_app.bringup.core`) instead
of the game, on the loop thread; the painter shows the core's LED frame (`frame`) instead
of the game's scene. The mode also keeps what the maker's phone shows: a table of every
channel heard (its state, its last event, how many events, its territory once mapped) for
finding a bad joint, the last refusal, and which answers the step takes.

The core is pure and single-threaded; the painter's frame thread and the web's threads
read it too, so every call goes through one lock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pi_app.bringup.core import BringUp
from pi_app.bringup.events import (
    Answer,
    ControlPress,
    Event,
    Outcome,
    Press,
    Release,
    TagArrived,
    TagLeft,
)

RGB = tuple[int, int, int]
STEPS = ("led_count", "colour_order", "sensors", "leds", "controls", "tokens", "markers",
         "check", "done")
STATUS_GROUPS = ("turn", "phase", "attack_dice", "defence_dice")
_ANSWERS = {"led_count": ("confirm", "count"), "colour_order": ("colour",),
            "controls": ("skip",), "tokens": ("skip",), "markers": ("next",),
            "check": ("confirm",), "done": ("save",)}
_SENSOR_EVENTS = {"press": "press", "release": "release", "tag_present": "tag_arrived",
                  "tag_removed": "tag_left"}


@dataclass
class ChannelSeen:
    """One sensor channel as the live view shows it."""

    channel: int
    state: str = "up"  # up, down (a button held) or tag (a tag on the reader)
    last: str = ""
    events: int = 0
    uid: str | None = None


class BringUpMode:
    """A running bring-up between the board and the maker's phone (see the module docstring).

    `pins` names each control button's BCM line (the buttons the table opened); `on_change`
    is called after every accepted or refused input (the web's waiters are woken by it)."""

    def __init__(self, core: BringUp, *, pins: Mapping[str, int], strip_count: int,
                 clock: Callable[[], float] = time.monotonic,
                 on_change: Callable[[], None] = lambda: None) -> None:
        self.core = core
        self.pins = dict(pins)
        self.strip_count = strip_count
        self.clock = clock
        self.on_change = on_change
        self.lock = threading.RLock()
        self.channels: dict[int, ChannelSeen] = {}
        self.refusal: tuple[int, Outcome] | None = None
        self.revision = 0
        self.actions = {"touches": 0, "taps": 0, "presses": 0}
        self.heard = 0  # sensor events heard in all (the log keeps the last few)

    # --- inputs (the loop thread) --------------------------------------------------------
    def on_sensor(self, channel: int, kind: str, uid: bytes | str | None) -> None:
        """A raw sensor event from the link (press, release, tag_present, tag_removed)."""
        hexuid = uid.hex() if isinstance(uid, bytes | bytearray) else uid
        if kind == "tag_removed" and not hexuid:  # the Pico names the tag that arrived only
            hexuid = self.channels[channel].uid if channel in self.channels else None
        event: Event
        if kind == "press":
            event = Press(channel)
        elif kind == "release":
            event = Release(channel)
        elif kind == "tag_present":
            event = TagArrived(channel, hexuid or "")
        elif kind == "tag_removed":
            event = TagLeft(channel, hexuid or "")
        else:
            return
        with self.lock:
            self.heard += 1
            seen = self.channels.setdefault(channel, ChannelSeen(channel))
            seen.last = _SENSOR_EVENTS[kind]
            seen.events += 1
            seen.state = {"press": "down", "release": "up", "tag_present": "tag",
                          "tag_removed": "up"}[kind]
            seen.uid = hexuid if kind == "tag_present" else None
            if kind in ("press", "tag_present"):
                self.actions["touches"] += 1
            self._apply(event)

    def on_dump(self, channels: Mapping[int, tuple[str, bytes | None]]) -> None:
        """The Pico's full state after (re)connecting: shown in the live view only."""
        with self.lock:
            for channel, (state, uid) in channels.items():
                seen = self.channels.setdefault(channel, ChannelSeen(channel))
                seen.state = {"pressed": "down", "tag_present": "tag"}.get(state, "up")
                seen.uid = uid.hex() if isinstance(uid, bytes | bytearray) else None
            self._changed()

    def on_control(self, name: str, kind: str) -> None:
        """A control button's press: the core learns buttons by their GPIO line."""
        gpio = self.pins.get(name)
        if gpio is None:
            return
        with self.lock:
            self.actions["presses"] += 1
            self._apply(ControlPress(gpio))

    def on_line(self, gpio: int) -> None:
        """A press on a GPIO line no control button holds (`bringup_lines`)."""
        with self.lock:
            self.actions["presses"] += 1
            self._apply(ControlPress(gpio))

    def answer(self, what: str, value: Any = None) -> Outcome:
        """The maker's answer on the phone (or the terminal)."""
        with self.lock:
            self.actions["taps"] += 1
            return self._apply(Answer(what, value))

    def _apply(self, event: Event) -> Outcome:
        outcome = self.core.handle(event, self.clock())
        if not outcome.accepted:
            self.refusal = (self.revision + 1, outcome)
        self._changed()
        return outcome

    def _changed(self) -> None:
        self.revision += 1
        self.on_change()

    # --- outputs ---------------------------------------------------------------------------
    def frame(self, now: float) -> tuple[RGB, ...]:
        """The LED frame at `now`, fitted to the strip (the painter's override)."""
        with self.lock:
            frame = self.core.view(now).frame
            chip, sent = self.core.draft.colour_order, self.core.assumed_order
        if chip is not None and chip != sent:  # once learned, the chips show true colours
            frame = tuple(_for_chip(rgb, sent, chip) for rgb in frame)
        if len(frame) >= self.strip_count:
            return tuple(frame[:self.strip_count])
        return tuple(frame) + ((0, 0, 0),) * (self.strip_count - len(frame))

    def answers(self) -> list[str]:
        """The answers the phone offers now (each a button or a picker); undo always."""
        core, draft = self.core, self.core.draft
        step = draft.step
        if step == "sensors":
            offered = ["pick", "order_free" if draft.sensor_order == "map" else "order_map"]
        elif step == "leds":
            if core.holding is not None or not _free(core):
                offered = []
            elif draft.phone_run is not None:
                offered = ["more", "less", "done"]
            else:
                offered = ["pick", "status", "skip"]
        else:
            offered = list(_ANSWERS.get(step, ()))
        return [*offered, "undo"]

    def progress(self) -> dict[str, Any]:
        """How far the bring-up is: the step's number and each part's count."""
        core, draft, facts = self.core, self.core.draft, self.core.facts
        steps = [s for s in STEPS if core.nfc or s not in ("tokens", "markers")]
        total = len(facts.territories)
        return {
            "steps": steps,
            "index": steps.index(draft.step) if draft.step in steps else 0,
            "sensors": [len(draft.sensors), total],
            "leds": [total - len(core.missing_leds()), total],
            "leds_placed": [len(draft.assigned_leds()) + len(draft.skipped), draft.led_count],
            "controls": [draft.control_index, len(facts.control_names)],
            "colours": [draft.colour_index, len(facts.colours)],
        }

    def state(self) -> dict[str, Any]:
        """Everything the bring-up page shows, as JSON."""
        with self.lock:
            core, draft = self.core, self.core.draft
            view = core.view(self.clock())
            refusal = None
            if self.refusal is not None:
                at, outcome = self.refusal
                refusal = {"code": outcome.code, "params": _plain(outcome.params), "at": at}
            mapped = {channel: t for t, (channel, _kind) in draft.sensors.items()}
            channels = {c: _channel(s, mapped.get(c)) for c, s in self.channels.items()}
            for channel, territory in mapped.items():
                channels.setdefault(channel, _channel(ChannelSeen(channel), territory))
            return {
                "active": True,
                "revision": self.revision,
                "step": draft.step,
                "prompt": {"key": view.prompt.key, "params": _plain(view.prompt.params)},
                "notice": None if view.notice is None else
                {"key": view.notice.key, "params": _plain(view.notice.params)},
                "answers": self.answers(),
                "refusal": refusal,
                "progress": self.progress(),
                "channels": [channels[c] for c in sorted(channels)],
                "heard": self.heard,
                "log": [{"what": w, "channel": c, "territory": t} for w, c, t in view.live],
                "territories": list(core.facts.territories),
                "unmapped": [t for t in core.facts.territories if t not in draft.sensors],
                "unlit": core.missing_leds(),
                "placed": sorted(draft.assigned_leds() | draft.skipped),
                "holding": core.holding,
                "status_groups": list(STATUS_GROUPS),
                "led_count": draft.led_count,
                "colour_order": draft.colour_order,
                "nfc": core.nfc,
                "actions": dict(self.actions),
            }


def _for_chip(rgb: RGB, sent: str, chip: str) -> RGB:
    """The colour to send (in `sent` order) so a chip taking `chip` order shows `rgb`:
    the chip lights byte k as colour chip[k], and byte k carries logical colour sent[k]."""
    want = dict(zip("RGB", rgb, strict=True))
    out = {sent[k]: want[chip[k]] for k in range(3)}
    return (out["R"], out["G"], out["B"])


def _free(core: BringUp) -> bool:
    used = core.draft.assigned_leds() | core.draft.skipped
    return any(i not in used for i in range(core.draft.led_count))


def _channel(seen: ChannelSeen, territory: str | None) -> dict[str, Any]:
    return {"channel": seen.channel, "state": seen.state, "last": seen.last,
            "events": seen.events, "territory": territory}


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    """Prompt parameters as JSON values (tuples and sets become lists)."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        out[key] = sorted(value) if isinstance(value, set) else \
            list(value) if isinstance(value, tuple) else value
    return out
