"""The TableService the web talks to (`pi_app.table_api`), backed by the table loop.

Commands and host actions are queued to the loop thread and waited for; views are built
from the loop's latest immutable snapshot and always pass the one redaction function
(`pi_app.redaction`). Nothing here touches the live game state.

`seq` in views and updates is the table's revision number (see `pi_app.table.loop`): it
also moves for selections, refusals and board-tracking changes, so phones show the attack
being considered; the web's resume logic only needs it to rise, and restarts from the
game's journal seq after a service restart (the web then resets, as for a new game).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pi_app.redaction import redact, redact_event
from pi_app.rules import load_map
from pi_app.rules.odds import battle_odds
from pi_app.table.gestures import Press, Touch
from pi_app.table.lights import LedMap
from pi_app.table.loop import TableLoop, Wiring, awaited
from pi_app.table_api import Accepted, CommandRejected, Update, Viewer

if TYPE_CHECKING:
    from pi_app.table.bringup_desk import BringUpDesk

BOARD = load_map()


class LocalTableService:
    """`TableService` over a running `TableLoop` (plus the parts `status()` reports on)."""

    def __init__(
        self,
        loop: TableLoop,
        *,
        leds: LedMap,
        strip: Any = None,
        painter: Any = None,
        link: Any = None,
        controls: Any = None,
        emulator: Any = None,
        extra_status: Callable[[], dict[str, Any]] | None = None,
        button_factory: Any = None,
        hold_time: float = 1.0,
        physical: Any = None,
        colour_order: str = "GRB",
    ) -> None:
        """`button_factory`: the gpiozero MockFactory the simulated control buttons run on
        (the virtual board presses them); `hold_time`: their long-press time; `physical`:
        the virtual board's true wiring when it differs from the profile (a
        `pi_app.table.miswired.PhysicalBoard`; None = wired as the profile says);
        `colour_order`: the profile's, which the LED strip sends in."""
        self.loop = loop
        self.leds = leds
        self.strip = strip
        self.painter = painter
        self.link = link
        self.controls = controls
        self.emulator = emulator
        self.button_factory = button_factory
        self.hold_time = hold_time
        self.physical = physical
        self._colour_order = colour_order
        self._seat_holds: dict[tuple[str, str], float] = {}
        self._extra_status = [extra_status] if extra_status else []
        self._started = secrets.token_hex(4)
        self.bringup: BringUpDesk | None = None  # the rig gives a full table its desk

    # --- playing ---------------------------------------------------------------------------
    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """Queue a command for the table loop; return once journaled, or raise."""
        return self.loop.call(lambda core: core.submit(command, viewer))

    def host_action(self, action: str, params: dict[str, Any]) -> dict[str, Any]:
        """new_game, undo, pause, resume, end_game, seat_tokens (on the loop thread)."""
        return self.loop.call(lambda core: core.host_action(action, dict(params or {})))

    def dice_record(self) -> dict[str, Any]:
        """Commitment; the seed and every draw once the game is over."""
        return self.loop.call(lambda core: core.dice_record())

    def seat_tokens(self) -> dict[str, str] | None:
        """The running game's journaled seat tokens (colour -> token), None if none were."""
        return self.loop.call(lambda core: core.seat_tokens())

    def store_seat_tokens(self, tokens: dict[str, str]) -> None:
        """Journal the running game's seat tokens (a seat reissued or first issued)."""
        self.loop.call(lambda core: core.host_action("seat_tokens", {"tokens": tokens}))

    def watch_presses(self, watcher: Callable[[str, bool], bool]) -> None:
        """Let `watcher(button, long)` see each control-button press the game would get (the
        board's buttons, the virtual board's, a seat's press on /virtual) first, on the loop
        thread; a press it answers True for was its own and the game never sees it (the
        host's sign-in confirmation on the board: `pi_app.web.limits.PinGuard`)."""
        self.loop.call(lambda core: core.press_watchers.append(watcher))

    # --- reading ---------------------------------------------------------------------------
    def view(self, viewer: Viewer) -> dict[str, Any]:
        """The redacted snapshot for `viewer`, with `seq`, `game_id` and the table's part."""
        snap = self.loop.publisher.snapshot
        body: dict[str, Any] = redact(snap.state, viewer.redaction_key) if snap.state else {}
        body.update(
            seq=snap.revision,
            game_id=snap.game_id,
            game_status=snap.status,
            commitment=snap.commitment,
            paused=snap.paused,
            history=snap.history,
            table={**snap.table_dict(), "awaiting": awaited(snap.state)},
        )
        if snap.state is not None and viewer.kind == "player" \
                and viewer.player in snap.state.players:
            body.update(snap.kind.player_view(snap.state, viewer.player))
        return body

    def updates_since(self, seq: int, viewer: Viewer) -> list[Update]:
        """Redacted updates after `seq`, oldest first. Updates older than the publisher's
        in-memory log come back as one update (at the newest dropped revision) holding the
        game events of the journal entries they covered, rebuilt by replay; the table's
        own passing updates in that stretch (selections, refusals) are not rebuilt."""
        key = viewer.redaction_key
        out = []
        span = self.loop.publisher.journal_span(seq)
        if span is not None:
            revision, first, last = span
            rebuilt = self.loop.call(lambda core: core.journal_events(first, last))
            shown = [r for r in (redact_event(e, key) for e in rebuilt) if r is not None]
            out.append(Update(revision, shown))
        for revision, events in self.loop.publisher.updates_since(seq):
            shown = [r for r in (redact_event(e, key) for e in events) if r is not None]
            out.append(Update(revision, shown))
        return out

    def wait_for_update(self, after_seq: int, timeout: float) -> int:
        """Block until the revision moves past `after_seq` or `timeout` passes."""
        return self.loop.publisher.wait_for(after_seq, timeout)

    def odds(self, source: str, target: str) -> dict[str, Any]:
        """Odds of attacking `target` from `source` with the armies on the board now."""
        snap = self.loop.publisher.snapshot
        if snap.state is None:
            raise CommandRejected("no_game", "No game is running.", 400)
        if not snap.kind.map_battles:
            raise CommandRejected("no_map_battle", "RISK Strike has no armies on the map; "
                                  "its odds are the dice counts of the battle.", 400)
        if source not in BOARD.adjacency or target not in BOARD.adjacency[source]:
            raise CommandRejected("not_adjacent", "Those territories do not border.", 400)
        attackers, defenders = snap.state.armies[source], snap.state.armies[target]
        if attackers < 1 or defenders < 1:
            raise CommandRejected("no_armies", "Both territories need armies on them.", 400)
        odds = battle_odds(attackers, defenders).to_dict()
        odds.pop("source", None)
        odds.pop("target", None)
        odds.update(source=source, target=target, attackers=attackers, defenders=defenders)
        return odds

    def status(self) -> dict[str, Any]:
        """Health: game, link, LEDs, buttons, board mismatches, loop counters; `parts` the
        state of the parts that may be missing (LED strip, buttons) and `faults` one
        sentence for each that is not working."""
        snap = self.loop.publisher.snapshot
        parts = {name: device.supervisor.status()
                 for name, device in (("leds", self.strip), ("buttons", self.controls))
                 if getattr(device, "supervisor", None) is not None}
        faults = [f for f in (getattr(self.strip, "fault", None),
                              getattr(self.controls, "fault", None)) if f]
        out: dict[str, Any] = {
            "game_id": snap.game_id,
            "seq": snap.revision,
            "game_status": snap.status,
            "paused": snap.paused,
            "link": self.link.get_status() if self.link else {"state": "none"},
            "leds": self.painter.get_status() if self.painter else {"backend": "none"},
            "buttons": self.controls.get_status() if self.controls else {},
            "tracking": self.loop.wiring.nfc and bool(self.loop.wiring.marker_colours),
            "mismatches": snap.table_dict()["mismatches"],
            "simulated": self.emulator is not None,
            "loop": {"running": self.loop.running, "inputs": self.loop.inputs_handled,
                     "errors": self.loop.errors},
            "parts": parts,
            "faults": faults,
        }
        for extra in self._extra_status:
            out.update(extra())
        return out

    def bringup_desk(self) -> BringUpDesk | None:
        """The table's bring-up desk (`pi_app.table.bringup_desk`, set by the rig), or None."""
        return self.bringup

    def add_status(self, extra: Callable[[], dict[str, Any]]) -> None:
        """Merge `extra()` into every `status()` (e.g. the service's own `checks`)."""
        self._extra_status.append(extra)

    def journal_path(self) -> str:
        """The SQLite journal file."""
        return str(self.loop.journal_path)

    # --- the virtual board -----------------------------------------------------------------
    def virtual_board(self) -> dict[str, Any] | None:
        """The in-memory strip's current frame and the LED map; None on real hardware.
        `version` names the frame (see `wait_for_frame`)."""
        frames = getattr(self.strip, "frames", None)
        if self.emulator is None or frames is None:
            return None
        version = self._frame_version()  # read before the frame: never newer than it
        last = self.strip.last
        if self.physical is not None:  # the frame as the board's true wiring shows it
            board = self.physical
            return {"version": version,
                    "leds": [list(p) for p in board.shown(last, self.colour_order())],
                    "territory_leds": board.territory_leds(),
                    "status_leds": board.status_leds(),
                    "buttons": list(board.controls), "hold_time": self.hold_time,
                    "nfc": bool(board.nfc)}
        leds = [list(p) for p in last] if last else [[0, 0, 0]] * self.leds.count
        return {"version": version, "leds": leds,
                "territory_leds": {t: list(i) for t, i in self.leds.territories.items()},
                "status_leds": {n: list(i) for n, i in self.leds.status.items()},
                "buttons": list(self._button_pins()), "hold_time": self.hold_time,
                "nfc": bool(self.loop.wiring.nfc)}

    def _frame_version(self) -> str:
        # this start's mark and the painter's count: a page that saw another start's frames
        # never takes this start's for the same
        count = self.painter.version if self.painter is not None else 0
        return f"{self._started}.{count}"

    def wait_for_frame(self, version: str, timeout: float) -> None:
        """Wait up to `timeout` seconds for the virtual board's frame to move on from
        `version` (`virtual_board()["version"]`); returns at once when it already has."""
        painter = self.painter
        if painter is None:  # nothing tells of new frames: the reader looks again later
            time.sleep(timeout)
            return
        mark, _, count = version.rpartition(".")
        if mark != self._started or not count.isdigit():
            return
        painter.wait_for_change(int(count), timeout)

    def _button_pins(self) -> dict[str, int]:
        if self.physical is not None:
            return dict(self.physical.controls)
        pins = getattr(self.controls, "pins", None)
        return dict(pins) if isinstance(pins, dict) else {}

    def colour_order(self) -> str:
        """The colour order the LED strip sends in (the profile's; GRB by default)."""
        return self._colour_order

    def virtual_button(self, button: str, action: str, player: str | None = None, *,
                       seat: bool = False) -> None:
        """Press (`action` "down") or release ("up") a control button of the virtual board.

        The host's presses drive the simulated button's pin, so the buttons' own debounce
        and hold time make a press or a long press exactly as on the board. A seat's phone
        (`seat`) acts as that seat (`TableCore.seat_input`, 403 unless the seat may act
        now): its release is a long press when held for the hold time."""
        if self.emulator is None:
            raise CommandRejected("not_simulated", "This table has real buttons.", 400)
        pins = self._button_pins()
        if button not in pins:
            raise CommandRejected("unknown_button", f"This board has no {button!r} button.", 400)
        if action not in ("down", "up"):
            raise CommandRejected("bad_action", "A button goes down or up.", 400)
        if seat:
            if player is None:
                raise CommandRejected("not_your_seat", "A seat's press names its seat.", 403)
            key = (player, button)
            if action == "down":
                self._seat_holds[key] = time.monotonic()
                return
            since = self._seat_holds.pop(key, None)
            if since is None:
                return  # a release without its press (the page reloaded): nothing
            held = time.monotonic() - since >= self.hold_time
            self.loop.call(lambda core: core.seat_input(Press(button, long=held), player))
            return
        if self.button_factory is None:
            raise CommandRejected("no_buttons", "The virtual board's buttons are off.", 400)
        pin = self.button_factory.pin(pins[button])
        if action == "down":
            pin.drive_low()
        else:
            pin.drive_high()

    def virtual_touch(self, territory: str, player: str | None = None, *,
                      seat: bool = False) -> None:
        """Touch `territory` through the emulator (with `player`'s token on NFC boards).

        `seat`: a seat's phone sent it. The touch then goes straight to the loop thread as
        that seat's (`TableCore.seat_input`), refused with 403 unless the seat may act now:
        through the emulator a button board could not tell whose touch it was, and the
        check and the touch would not happen at the same instant."""
        if self.emulator is None:
            raise CommandRejected("not_simulated", "This table has real sensors.", 400)
        wiring: Wiring = self.loop.wiring
        channel = wiring.territory_channel(territory)
        if channel is None:
            raise CommandRejected("unknown_territory", f"No territory {territory!r}.", 400)
        if self.physical is not None:  # the channel the board's true wiring answers on
            channel = self.physical.channel(territory)
        if seat:
            if player is None:
                raise CommandRejected("not_your_seat", "A seat's touch names its seat.", 403)
            seat_player = player  # a str from here, also inside the lambda
            self.loop.call(lambda core: core.seat_input(Touch(territory), seat_player))
            return
        if channel is None or not 0 <= channel < self.emulator.sensor_count:
            return  # wired to a port the Pico does not scan: the touch is lost, as on a board
        if not wiring.nfc:
            self.emulator.touch(channel)
            return
        if player is None:
            snap = self.loop.publisher.snapshot
            state = snap.state
            if state is not None:
                waiting = awaited(state)
                player = waiting[0] if waiting else None
        uid = wiring.token_of(player) if player else None
        if uid is None:
            raise CommandRejected("no_token", f"No NFC token is registered for {player}.", 400)
        self.emulator.tag(channel, bytes.fromhex(uid))
        self.emulator.untag(channel)
