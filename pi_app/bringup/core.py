"""The bring-up core: a pure state machine that learns how a board is wired.

No I/O and no clock: every call takes `now` (seconds, any monotonic origin). Feed it raw
events (`pi_app.bringup.events`) with `handle(event, now)`; show `view(now)` on the board
and the phone. Steps, in order: the LED chain's count, its colour order, sensors to
territories, LEDs to territories (and status LEDs), controls, tokens and markers (NFC
boards only), a continent-colour check, done. `Answer("undo")` takes back the last
accepted answer at every step.

LEDs to territories, one touch per territory: the first unplaced LED lights in
`RUN_COLOUR`. While the maker holds the territory under it, the run grows one LED every
`step_seconds`, the newest in `NEXT_COLOUR`; letting go gives the territory the LEDs lit in
`RUN_COLOUR`. So the maker lets go as soon as the newest LED lights outside the territory.
Serpentine or reversed runs, gaps and territories of any size work; a territory whose LEDs
come in two runs is touched twice. On the phone, `pick` (or `status` for a status LED
group), `more`, `less`, `done` place a run without touching; `skip` leaves a dead or unused
LED out.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hardware.profiles import UID_BYTES, normalise_uid
from pi_app.bringup.colour_order import ORDERS, SHOWN, logical_rgb, possible, wire_order
from pi_app.bringup.draft import Draft
from pi_app.bringup.events import (
    ACCEPTED,
    Answer,
    ControlPress,
    Event,
    Outcome,
    Press,
    Prompt,
    Release,
    Rgb,
    TagArrived,
    TagLeft,
    View,
)
from pi_app.bringup.power import PowerCheck, check_power

RUN_COLOUR: Rgb = (255, 255, 255)
NEXT_COLOUR: Rgb = (255, 96, 0)
PLACED_COLOUR: Rgb = (0, 24, 0)
DIM: Rgb = (24, 24, 24)
DARK: Rgb = (0, 0, 0)
CONTINENT_COLOURS: tuple[Rgb, ...] = (
    (255, 200, 0), (255, 80, 0), (0, 80, 255), (150, 60, 20), (0, 200, 60), (200, 0, 200),
    (0, 200, 200), (255, 0, 60),
)
MAX_LEDS = 4096
GPIO_LINES = range(2, 28)
_STATUS_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class BoardFacts:
    """What the rules' data says the board holds: territory ids in map order, each one's
    continent (continents in map order), the player colours, the control button names."""

    territories: tuple[str, ...]
    continent_of: Mapping[str, str]
    continents: tuple[str, ...]
    colours: tuple[str, ...]
    control_names: tuple[str, ...]


@dataclass
class _Hold:
    territory: str
    channel: int
    since: float


class BringUp:
    """One bring-up session of one board (see the module docstring)."""

    def __init__(
        self,
        facts: BoardFacts,
        *,
        led_count: int,
        brightness: float = 0.5,
        supply_amps: float | None = None,
        assumed_order: str = "GRB",
        step_seconds: float = 0.6,
        nfc: bool = False,
    ) -> None:
        if assumed_order not in ORDERS:
            raise ValueError(f"assumed_order must be one of {', '.join(ORDERS)}")
        if not 1 <= led_count <= MAX_LEDS:
            raise ValueError(f"led_count must be 1..{MAX_LEDS}, got {led_count}")
        self.facts = facts
        self.brightness = brightness
        self.supply_amps = supply_amps
        self.assumed_order = assumed_order
        self.step_seconds = step_seconds
        self.nfc = nfc
        self.draft = Draft(led_count=led_count)
        self._undo: list[Draft] = []
        self._hold: _Hold | None = None
        self._down: set[int] = set()
        self._tags: dict[int, str] = {}
        self.live: list[tuple[str, int, str | None]] = []

    # -- inputs ------------------------------------------------------------------------------

    def handle(self, event: Event, now: float) -> Outcome:
        """Apply one event at time `now`; a refusal changes nothing the bring-up learned."""
        if isinstance(event, Answer):
            if event.what == "undo":
                return self._take_back()
            return self._answer(event, now)
        if isinstance(event, ControlPress):
            return self._control(event.gpio) if self.draft.step == "controls" \
                else Outcome.refused("not_now")
        if isinstance(event, Press | TagArrived):
            return self._touch(event, now)
        if isinstance(event, Release | TagLeft):
            return self._let_go(event, now)
        return Outcome.refused("unknown_event")

    def _touch(self, event: Press | TagArrived, now: float) -> Outcome:
        channel = event.channel
        if isinstance(event, Press):
            if channel in self._down:
                return Outcome.refused("already_down", channel=channel)
            self._down.add(channel)
            self._log("press", channel)
        else:
            uid = normalise_uid(event.uid)
            if not _good_uid(uid):
                return Outcome.refused("bad_uid", uid=event.uid)
            self._tags[channel] = uid
            self._log("tag_arrived", channel)
        kind = "button" if isinstance(event, Press) else "nfc"
        step = self.draft.step
        if step == "sensors":
            return self._map_sensor(channel, kind)
        if step == "leds":
            return self._start_hold(channel, now)
        if step in ("tokens", "markers") and isinstance(event, TagArrived):
            return self._enrol(normalise_uid(event.uid))
        return ACCEPTED  # seen in the live view; nothing to learn from it here

    def _let_go(self, event: Release | TagLeft, now: float) -> Outcome:
        channel = event.channel
        if isinstance(event, Release):
            if channel not in self._down:
                return Outcome.refused("release_without_press", channel=channel)
            self._down.discard(channel)
            self._log("release", channel)
        else:
            if self._tags.get(channel) != normalise_uid(event.uid):
                return Outcome.refused("tag_not_present", channel=channel, uid=event.uid)
            del self._tags[channel]
            self._log("tag_left", channel)
        hold = self._hold
        if hold is not None and hold.channel == channel:
            self._hold = None
            run, _next = self._run_lit(hold.since, now)
            self._save()
            self.draft.territory_leds.setdefault(hold.territory, []).extend(run)
            self._after_leds()
        return ACCEPTED

    def _log(self, what: str, channel: int) -> None:
        self.live.append((what, channel, self.draft.channel_owner(channel)))
        del self.live[:-16]

    # -- steps -------------------------------------------------------------------------------

    def _answer(self, answer: Answer, now: float) -> Outcome:
        handler = getattr(self, f"_answer_{self.draft.step}", None)
        if handler is None:
            return Outcome.refused("not_now")
        return handler(answer)

    def _answer_led_count(self, answer: Answer) -> Outcome:
        if answer.what == "confirm":
            return self._advance("colour_order")
        if answer.what == "count":
            count = answer.value
            if not isinstance(count, int) or isinstance(count, bool) \
                    or not 1 <= count <= MAX_LEDS:
                return Outcome.refused("bad_count", count=count, most=MAX_LEDS)
            self._save()
            self.draft.led_count = count
            return ACCEPTED
        return Outcome.refused("bad_answer", what=answer.what)

    def _answer_colour_order(self, answer: Answer) -> Outcome:
        if answer.what != "colour" or answer.value not in ("R", "G", "B"):
            return Outcome.refused("bad_answer", what=answer.what)
        shown = SHOWN[len(self.draft.colours_seen)]
        seen = {**self.draft.colours_seen, shown: answer.value}
        if not possible(self.assumed_order, seen):
            return Outcome.refused("colour_impossible", colour=answer.value)
        self._save()
        self.draft.colours_seen = seen
        if len(seen) == len(SHOWN):
            self.draft.colour_order = wire_order(self.assumed_order, seen)
            self.draft.step = "sensors"
        return ACCEPTED

    def _answer_sensors(self, answer: Answer) -> Outcome:
        if answer.what == "order" and answer.value in ("map", "free"):
            self._save()
            self.draft.sensor_order = answer.value
            self.draft.picked = None
            return ACCEPTED
        if answer.what == "pick":
            if answer.value not in self.facts.territories:
                return Outcome.refused("unknown_territory", territory=answer.value)
            if answer.value in self.draft.sensors:
                return Outcome.refused("territory_mapped", territory=answer.value,
                                       channel=self.draft.sensors[answer.value][0])
            self._save()
            self.draft.picked = answer.value
            return ACCEPTED
        return Outcome.refused("bad_answer", what=answer.what)

    def sensor_target(self) -> str | None:
        """The territory the next touch maps (sensors step), or None if one must be picked."""
        if self.draft.picked is not None:
            return self.draft.picked
        if self.draft.sensor_order == "map":
            return next((t for t in self.facts.territories if t not in self.draft.sensors), None)
        return None

    def _map_sensor(self, channel: int, kind: str) -> Outcome:
        owner = self.draft.channel_owner(channel)
        if owner is not None:
            return Outcome.refused("channel_taken", channel=channel, territory=owner)
        target = self.sensor_target()
        if target is None:
            return Outcome.refused("pick_first")
        self._save()
        self.draft.sensors[target] = (channel, kind)
        self.draft.picked = None
        if len(self.draft.sensors) == len(self.facts.territories):
            self.draft.step = "leds"
        return ACCEPTED

    def _free_leds(self) -> list[int]:
        used = self.draft.assigned_leds() | self.draft.skipped
        return [i for i in range(self.draft.led_count) if i not in used]

    def _run_lit(self, since: float, now: float) -> tuple[list[int], int | None]:
        """The LEDs a hold begun at `since` has lit in RUN_COLOUR by `now`, and the newest
        one in NEXT_COLOUR (None while the run is one LED or the chain has no more)."""
        free = self._free_leds()
        grown = max(0, int((now - since) / self.step_seconds))
        if grown == 0 or len(free) == 1:
            return free[:1], None
        if grown >= len(free):
            return free, None
        return free[:grown], free[grown]

    @property
    def holding(self) -> str | None:
        """The territory held down now to place its LEDs (leds step), or None."""
        return self._hold.territory if self._hold is not None else None

    def _start_hold(self, channel: int, now: float) -> Outcome:
        if self.draft.phone_run is not None:
            return Outcome.refused("finish_phone_run")
        if self._hold is not None:
            return Outcome.refused("already_holding", territory=self._hold.territory)
        territory = self.draft.channel_owner(channel)
        if territory is None:
            return Outcome.refused("unknown_channel", channel=channel)
        self._hold = _Hold(territory, channel, now)
        return ACCEPTED

    def _answer_leds(self, answer: Answer) -> Outcome:
        if self._hold is not None:
            return Outcome.refused("holding", territory=self._hold.territory)
        run = self.draft.phone_run
        free = self._free_leds()
        what, value = answer.what, answer.value
        if what in ("pick", "status") and run is None:
            if what == "pick" and value not in self.facts.territories:
                return Outcome.refused("unknown_territory", territory=value)
            if what == "status" and not (isinstance(value, str) and _STATUS_NAME.match(value)):
                return Outcome.refused("bad_status_name", name=value)
            self._save()
            kind = "territory" if what == "pick" else "status"
            self.draft.phone_run = (kind, value, 1)
            return ACCEPTED
        if what in ("more", "less") and run is not None:
            length = run[2] + (1 if what == "more" else -1)
            if not 1 <= length <= len(free):
                return Outcome.refused("run_limit", length=run[2])
            self._save()
            self.draft.phone_run = (run[0], run[1], length)
            return ACCEPTED
        if what == "done" and run is not None:
            self._save()
            table = self.draft.territory_leds if run[0] == "territory" else self.draft.status_leds
            table.setdefault(run[1], []).extend(free[:run[2]])
            self.draft.phone_run = None
            self._after_leds()
            return ACCEPTED
        if what == "skip" and run is None and free:
            self._save()
            self.draft.skipped.add(free[0])
            self._after_leds()
            return ACCEPTED
        return Outcome.refused("bad_answer", what=what)

    def missing_leds(self) -> list[str]:
        """Territories that have no LED yet, in map order."""
        return [t for t in self.facts.territories if not self.draft.territory_leds.get(t)]

    def _after_leds(self) -> None:
        if not self._free_leds() and not self.missing_leds():
            self.draft.step = "controls"
            self._skip_empty_steps()

    def control_target(self) -> str | None:
        """The control button to press next (controls step)."""
        names = self.facts.control_names
        index = self.draft.control_index
        return names[index] if index < len(names) else None

    def _control(self, gpio: int) -> Outcome:
        if gpio not in GPIO_LINES:
            return Outcome.refused("bad_gpio", gpio=gpio)
        for name, line in self.draft.controls.items():
            if line == gpio:
                return Outcome.refused("gpio_taken", gpio=gpio, control=name)
        target = self.control_target()
        self._save()
        self.draft.controls[str(target)] = gpio
        self.draft.control_index += 1
        self._skip_empty_steps()
        return ACCEPTED

    def _answer_controls(self, answer: Answer) -> Outcome:
        if answer.what != "skip":
            return Outcome.refused("bad_answer", what=answer.what)
        self._save()
        self.draft.control_index += 1
        self._skip_empty_steps()
        return ACCEPTED

    def colour_target(self) -> str | None:
        """The colour whose token or markers are tapped next (tokens and markers steps)."""
        colours = self.facts.colours
        index = self.draft.colour_index
        return colours[index] if index < len(colours) else None

    def _enrol(self, uid: str) -> Outcome:
        owner = self.draft.uid_owner(uid)
        if owner is not None:
            return Outcome.refused("uid_taken", uid=uid, owner=owner)
        colour = str(self.colour_target())
        self._save()
        table = self.draft.tokens if self.draft.step == "tokens" else self.draft.markers
        table.setdefault(colour, []).append(uid)
        if self.draft.step == "tokens":
            self.draft.colour_index += 1
            self._skip_empty_steps()
        return ACCEPTED

    def _answer_tokens(self, answer: Answer) -> Outcome:
        if answer.what not in ("skip", "next"):
            return Outcome.refused("bad_answer", what=answer.what)
        self._save()
        self.draft.colour_index += 1
        self._skip_empty_steps()
        return ACCEPTED

    _answer_markers = _answer_tokens

    def _answer_check(self, answer: Answer) -> Outcome:
        if answer.what != "confirm":
            return Outcome.refused("bad_answer", what=answer.what)
        return self._advance("done")

    def _advance(self, step: str) -> Outcome:
        self._save()
        self.draft.step = step
        return ACCEPTED

    def _skip_empty_steps(self) -> None:
        draft = self.draft
        if draft.step == "controls" and self.control_target() is None:
            draft.step = "tokens" if self.nfc else "check"
            draft.colour_index = 0
        if draft.step == "tokens" and self.colour_target() is None:
            draft.step, draft.colour_index = "markers", 0
        if draft.step == "markers" and self.colour_target() is None:
            draft.step = "check"

    # -- undo --------------------------------------------------------------------------------

    def _save(self) -> None:
        self._undo.append(copy.deepcopy(self.draft))

    def _take_back(self) -> Outcome:
        if not self._undo:
            return Outcome.refused("nothing_to_undo")
        self.draft = self._undo.pop()
        self._hold = None
        return ACCEPTED

    # -- outputs -----------------------------------------------------------------------------

    def power(self) -> PowerCheck:
        """Full white on the whole chain at the configured brightness against the supply."""
        return check_power(self.draft.led_count, self.brightness, self.supply_amps)

    def view(self, now: float) -> View:
        """The LED frame and the prompt for the maker at time `now`."""
        draft = self.draft
        frame = [DARK] * draft.led_count
        step = draft.step
        if step == "led_count":
            frame = [DIM] * draft.led_count
            frame[-1] = RUN_COLOUR
            prompt = Prompt.of("bringup.led_count.confirm", count=draft.led_count)
        elif step == "colour_order":
            frame[0] = logical_rgb(SHOWN[len(draft.colours_seen)])
            prompt = Prompt.of("bringup.colour_order.ask", shown=len(draft.colours_seen) + 1)
        elif step == "sensors":
            target = self.sensor_target()
            prompt = Prompt.of("bringup.sensors.touch", territory=target) if target \
                else Prompt.of("bringup.sensors.pick")
        elif step == "leds":
            prompt = self._leds_view(frame, now)
        elif step == "controls":
            prompt = Prompt.of("bringup.controls.press", control=self.control_target())
        elif step in ("tokens", "markers"):
            prompt = Prompt.of(f"bringup.{step}.tap", colour=self.colour_target(),
                               count=len(draft.markers.get(str(self.colour_target()), ())))
        elif step == "check":
            for territory, leds in draft.territory_leds.items():
                continent = self.facts.continent_of[territory]
                colour = CONTINENT_COLOURS[
                    self.facts.continents.index(continent) % len(CONTINENT_COLOURS)]
                for index in leds:
                    frame[index] = colour
            status = sorted({i for leds in draft.status_leds.values() for i in leds})
            for index in status:  # beside the dice tray: white, to be checked at a glance too
                frame[index] = RUN_COLOUR
            prompt = Prompt.of("bringup.check.continents")
        else:
            prompt = Prompt.of("bringup.done.save")
        notice = None
        if step == "check" and draft.status_leds:
            notice = Prompt.of("bringup.check.status",
                               count=sum(len(leds) for leds in draft.status_leds.values()))
        if step == "led_count":
            power = self.power()
            budget = power.budget_milliamps
            notice = Prompt.of(power.prompt_key, milliamps=round(power.milliamps),
                               budget=None if budget is None else round(budget),
                               max_brightness=power.max_brightness)
        return View(step, tuple(frame), prompt, notice, tuple(self.live))

    def _leds_view(self, frame: list[Rgb], now: float) -> Prompt:
        for index in self.draft.assigned_leds():
            frame[index] = PLACED_COLOUR
        free = self._free_leds()
        if not free:
            return Prompt.of("bringup.leds.missing", territories=self.missing_leds())
        if self._hold is not None:
            run, newest = self._run_lit(self._hold.since, now)
            for index in run:
                frame[index] = RUN_COLOUR
            if newest is not None:
                frame[newest] = NEXT_COLOUR
            return Prompt.of("bringup.leds.holding", territory=self._hold.territory,
                             count=len(run))
        if self.draft.phone_run is not None:
            kind, owner, length = self.draft.phone_run
            for index in free[:length]:
                frame[index] = RUN_COLOUR
            return Prompt.of(f"bringup.leds.phone_{kind}", owner=owner, count=length)
        frame[free[0]] = RUN_COLOUR
        return Prompt.of("bringup.leds.touch", led=free[0])


def _good_uid(uid: str) -> bool:
    return bool(re.fullmatch(r"[0-9a-f]+", uid)) and len(uid) % 2 == 0 \
        and len(uid) // 2 in UID_BYTES


def facts_from_rules(control_names: Sequence[str] | None = None) -> BoardFacts:
    """The BoardFacts of the rules' map and roster (and every known control button)."""
    from hardware.control_names import CONTROL_NAMES
    from pi_app.rules.board import load_map, load_roster

    board = load_map()
    return BoardFacts(
        territories=board.territories,
        continent_of=board.continent_of,
        continents=board.continents,
        colours=load_roster().colours,
        control_names=tuple(CONTROL_NAMES if control_names is None else control_names),
    )
