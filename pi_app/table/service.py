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
VIRTUAL_PICO_ACTIONS = ("reset", "unplug", "replug")


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
        seat = viewer.player if viewer.kind == "player" and snap.state is not None \
            and viewer.player in snap.state.players else None
        if seat is not None:
            body.update(snap.kind.player_view(snap.state, seat))
            if snap.awaiting.status == "over" and "available_commands" in body:
                body["available_commands"] = []  # no move once the game is over
        hand = body.get("my_hand") if seat is not None else None
        # what the table waits for, as this viewer may read it (a seat: from its own view)
        body["table"]["waits"] = snap.awaiting.view(seat, hand if isinstance(hand, list) else None)
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
                    "nfc": bool(board.nfc), "tags": self._tag_counts(),
                    "sensors": self.sensor_ports()}
        leds = [list(p) for p in last] if last else [[0, 0, 0]] * self.leds.count
        return {"version": version, "leds": leds,
                "territory_leds": {t: list(i) for t, i in self.leds.territories.items()},
                "status_leds": {n: list(i) for n, i in self.leds.status.items()},
                "buttons": list(self._button_pins()), "hold_time": self.hold_time,
                "nfc": bool(self.loop.wiring.nfc), "tags": self._tag_counts()}

    def _tag_counts(self) -> dict[str, dict[str, int]]:
        """How many tokens and markers each colour has on this board (NFC boards)."""
        return {"tokens": {c: len(u) for c, u in self._tokens().items()},
                "markers": {c: len(u) for c, u in self._markers().items()}}

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

    def virtual_pico(self, action: str) -> None:
        """Reset, unplug or replug the emulated Pico (`TableService.virtual_pico`)."""
        if self.emulator is None:
            raise CommandRejected("not_simulated", "This table has a real Pico.", 400)
        if action not in VIRTUAL_PICO_ACTIONS:
            raise CommandRejected("bad_action", "The virtual Pico can be reset, unplugged or "
                                  "replugged.", 400)
        getattr(self.emulator, action)()

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
                      seat: bool = False, action: str = "touch", tag: str | None = None
                      ) -> bool:
        """Touch `territory` through the emulator (with `player`'s token on NFC boards).

        `action`: "touch" (put down and lift at once), "down" (a finger held on the button,
        a tag left on the reader) or "up" (lifted), so a territory can be held as on a real
        board. `tag` on NFC boards: "token" (the default) or "marker-N", `player`'s N-th
        marker, for enrolling tags at bring-up. `seat`: a seat's phone sent it. The touch
        then goes straight to the loop thread as that seat's (`TableCore.seat_input`),
        refused with 403 unless the seat may act now: through the emulator a button board
        could not tell whose touch it was, and the check and the touch would not happen at
        the same instant. Returns whether the Pico heard it: False for a sensor plugged into
        a port the Pico does not scan (as on a board, nothing else tells)."""
        if self.emulator is None:
            raise CommandRejected("not_simulated", "This table has real sensors.", 400)
        if action not in ("touch", "down", "up"):
            raise CommandRejected("bad_action", "A touch is touch, down or up.", 400)
        wiring: Wiring = self.loop.wiring
        channel = wiring.territory_channel(territory)
        if channel is None:
            raise CommandRejected("unknown_territory", f"No territory {territory!r}.", 400)
        if self.physical is not None:  # the channel the board's true wiring answers on
            channel = self.physical.channel(territory)
        if seat:
            if player is None:
                raise CommandRejected("not_your_seat", "A seat's touch names its seat.", 403)
            if tag not in (None, "token"):
                raise CommandRejected("not_your_tag", "A seat touches with its own token.", 403)
            seat_player = player  # a str from here, also inside the lambda
            if action != "up":  # a seat's touch is one input: the lift adds nothing
                self.loop.call(lambda core: core.seat_input(Touch(territory), seat_player))
            return True
        uid = self._tag_uid(player, tag) if wiring.nfc else None
        if channel is None or not 0 <= channel < self.emulator.sensor_count:
            return False  # wired to a port the Pico does not scan: lost, as on a board
        if not wiring.nfc:
            if action == "touch":
                self.emulator.touch(channel)
            elif action == "down":
                self.emulator.press(channel)
            else:
                self.emulator.release(channel)
            return True
        if action != "up":
            assert uid is not None
            self.emulator.tag(channel, bytes.fromhex(uid))
        if action != "down":
            self.emulator.untag(channel)
        return True

    def _tag_uid(self, player: str | None, tag: str | None) -> str | None:
        """The UID of the tag a virtual touch puts on a reader: `player`'s token (the player
        the game waits for when none is named) or `player`'s "marker-N"; None for a lift."""
        if player is None:
            state = self.loop.publisher.snapshot.state
            if state is not None:
                waiting = awaited(state)
                player = waiting[0] if waiting else None
        if player is None:
            raise CommandRejected("no_token", "Name the player whose tag touches.", 400)
        if tag in (None, "token"):
            uid = self.loop.wiring.token_of(player)
            if uid is None and self.physical is not None and self.physical.tokens.get(player):
                uid = self.physical.tokens[player][0]
            if uid is None:
                raise CommandRejected("no_token", f"No NFC token is registered for {player}.",
                                      400)
            return uid
        markers = self._markers().get(player, ())
        number = tag[len("marker-"):] if tag.startswith("marker-") else ""
        if not number.isdigit() or not 1 <= int(number) <= len(markers):
            raise CommandRejected("no_marker", f"{player} has no tag {tag!r} on this board "
                                  f"(markers 1 to {len(markers)}).", 400)
        return markers[int(number) - 1]

    def _tokens(self) -> dict[str, tuple[str, ...]]:
        if self.physical is not None:
            return {c: tuple(u) for c, u in self.physical.tokens.items()}
        tokens: dict[str, tuple[str, ...]] = {}
        for uid, colour in self.loop.wiring.token_colours.items():
            tokens[colour] = (*tokens.get(colour, ()), uid)
        return tokens

    def _markers(self) -> dict[str, tuple[str, ...]]:
        if self.physical is not None:
            return {c: tuple(u) for c, u in self.physical.markers.items()}
        markers: dict[str, tuple[str, ...]] = {}
        for uid, colour in self.loop.wiring.marker_colours.items():
            markers[colour] = (*markers.get(colour, ()), uid)
        return markers

    def virtual_replug(self, territory: str, port: int) -> dict[str, Any]:
        """Plug `territory`'s sensor (its button or NFC reader) into mux port `port` of the
        virtual board, as the maker's hands move a cable, then reset the emulated Pico so it
        looks for its readers again, as the firmware does only at boot. Refused for a port
        another sensor uses or the board lacks. Returns the virtual board's sensor ports."""
        if self.emulator is None or self.physical is None:
            raise CommandRejected("not_practice_board", "Only the practice board (serve --sim "
                                  "--miswired) has cables to move.", 400)
        board = self.physical
        if territory not in board.channel_of:
            raise CommandRejected("unknown_territory", f"No territory {territory!r}.", 400)
        if isinstance(port, bool) or not isinstance(port, int) \
                or not 0 <= port < board.sensor_count:
            raise CommandRejected("bad_port", f"The board's ports are 0 to "
                                  f"{board.sensor_count - 1}.", 400)
        taken = [t for t, c in board.channel_of.items() if c == port and t != territory]
        if taken:
            raise CommandRejected("port_taken", f"Port {port} holds {taken[0]}'s sensor.", 409)
        board.channel_of[territory] = port  # the board's own dict: its cable moved
        refresh = getattr(self.emulator, "rewired", None)
        if refresh is not None:
            refresh(board)
        if board.nfc:
            self._reset_pico()
        desk = self.bringup_desk()
        if desk is not None:
            desk.rewired()
        return self.sensor_ports()

    def _reset_pico(self, timeout: float = 5.0) -> None:
        """Reset the emulated Pico and wait (up to `timeout`) until the link has heard its
        new boot, so what is read next (its silent readers) is the new boot's."""
        core = getattr(self.link, "core", None)
        before = getattr(core, "identity", None)
        self.emulator.reset()
        deadline = time.monotonic() + timeout
        while core is not None and time.monotonic() < deadline:
            if getattr(core, "identity", None) is not before:
                time.sleep(0.2)  # its fault lines follow the identity
                return
            time.sleep(0.02)

    def sensor_ports(self) -> dict[str, Any]:
        """The practice board's sensor ports: how many the board has and the Pico scans, and
        each sensor plugged into a port the Pico does not scan (`unscanned`)."""
        board = self.physical
        if self.emulator is None or board is None:
            return {}
        scanned = self.emulator.sensor_count
        used = set(board.channel_of.values())
        return {"ports": board.sensor_count, "scanned": scanned,
                "free": [c for c in range(scanned) if c not in used],
                "unscanned": [{"territory": t, "port": c} for t, c in board.channel_of.items()
                              if c is not None and c >= scanned]}
