"""The table loop: the one thread that owns the game.

Sensor events from the bridge, control buttons from GPIO and commands from the web all
reach it through one queue. For each, `TableCore` (single-threaded, testable without
threads) turns inputs into commands with the gestures, applies them through the journaled
`GameSession` (accepted only once durably journaled), then hands a new immutable `Scene`
to the frame thread and publishes an immutable `Snapshot` plus the update's events for
the web. No other thread touches the game state: readers only see snapshots.

`TableLoop` runs a `TableCore` on its own thread. It also opens the SQLite journal on that
thread (a sqlite3 connection belongs to the thread that made it), resumes the last running
game at start (relighting the board exactly as the state says), or starts the given demo.

Updates carry a revision number (`seq` for the web): it rises by one for every accepted
command, undo, new game, selection change, refusal and board-tracking change, so phones
see the attack being considered as well as the game. It starts at the resumed game's last
journal seq; a new game or a restart makes the web start over (it watches `game_id`).
The first update of a new game carries its own events (game start, first-player roll,
territories or missions dealt; redacted per viewer like every event), so
`updates_since(-1)` shows them. The first update after a restart carries the game's recent
log instead: the events of its last `RECENT_ENTRIES` journal entries (the game's own events
among them while the game is that short), rebuilt from the latest snapshot before them, so
a phone's log reads on as before the restart.

Refusals are of the moment: the snapshot's `refusal` clears at the next accepted action
(a command, an undo, a selection change, a phone's command) or `REFUSAL_S` after it was
made (`tick`), and its sentence is addressed to the token's owner on NFC boards or to no
one on button boards (`gestures.addressed`). An undo publishes the game's recent log again
without the undone entries (the log restarts under the history marker: the events of the
last `RECENT_ENTRIES` remaining entries, as a replay of the journal gives them, kept by the
session so an undo costs what it undoes, not the game's length) and names who undid it
(`by`: "board" or "host"), so pages drop exactly the undone lines.

Variants: the board engine's variants go through `gestures.py`; RISK Strike through
`strike_gestures.py`, lit as coin-holder continents. Capital HQ picks stay off the LEDs
and out of the published selection until `hq_revealed`. RISK Strike reaction windows: on
each newly open window the loop starts a timer of `house_rules.reaction_seconds` (0: no
timer) and, when it runs out, submits `CloseWindow(window=id)` itself (journaled like any
command; phones may never send it). A pause holds the timer; resume restarts it.
"""

from __future__ import annotations

import bisect
import logging
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from hardware.profiles import normalise_uid as profile_uid
from pi_app.computer.seats import ComputerSeats
from pi_app.dice import FairDice
from pi_app.journal import Journal, JournalError
from pi_app.redaction import redact_event
from pi_app.rules import GameState, RuleError, awaiting_players, command_from_dict, is_strike
from pi_app.rules.strike import CloseWindow, territory_colours
from pi_app.rules.strike import decider as strike_decider
from pi_app.rules.strike import waiting_for as strike_waiting_for
from pi_app.session import GameSession, replay_steps
from pi_app.table import strike_gestures
from pi_app.table.gestures import (
    CONFIRM,
    EMPTY,
    UNKNOWN_TOKEN,
    Decision,
    InputEvent,
    Press,
    Refusal,
    Selection,
    Touch,
    addressed,
    current_count,
    interpret,
    settle,
    waiting_for,
)
from pi_app.table.lights import (
    Battle,
    ConquestFlash,
    DiceShow,
    Effect,
    ErrorBlink,
    Highlight,
    LimitBlink,
    Mismatch,
    Scene,
    TurnPulse,
    effect_alive,
)
from pi_app.table.seat_rights import seat_refusal
from pi_app.table.tracking import DEFAULT_SETTLE_S, MarkerTracker
from pi_app.table_api import Accepted, CommandRejected, Viewer

log = logging.getLogger("riskboard.table")

T = TypeVar("T")
UPDATE_LOG = 300  # updates kept in memory (the web's reset sends the last 200)
UPDATE_LOG_EVENTS = 3000  # ... and at most this many events in them (a long blitz has 40)
REFUSAL_S = 6.0  # a refusal shown this long clears by itself (the next accepted action sooner)
# journal entries whose events an undo's or a restart's update carries: a phone's reset asks
# for the last 200 updates (pi_app.web.stream.RECENT_LOG), which hold at most as many entries
RECENT_ENTRIES = 200


def normalise_uid(uid: bytes | str | None) -> str | None:
    """A tag UID as lower-case hex without separators (the profiles' form), or None."""
    return None if uid is None else profile_uid(uid)


@dataclass(frozen=True)
class Wiring:
    """What the loop needs from a board profile: channels, and whose tags are whose."""

    channel_territory: Mapping[int, str]
    token_colours: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    marker_colours: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    nfc: bool = False

    @classmethod
    def from_profile(cls, profile: Any) -> Wiring:
        """Build from a `hardware.profiles.BoardProfile`."""
        channels = {spec.channel: t for t, spec in profile.sensors.items()}
        tokens = {normalise_uid(u): c for c, uids in profile.tokens.items() for u in uids}
        markers = {normalise_uid(u): c for c, uids in profile.markers.items() for u in uids}
        nfc = any(spec.kind == "nfc" for spec in profile.sensors.values())
        return cls(MappingProxyType(channels), MappingProxyType(tokens),  # type: ignore[arg-type]
                   MappingProxyType(markers), nfc)  # type: ignore[arg-type]

    def territory_channel(self, territory: str) -> int | None:
        """The sensor channel of `territory`, or None."""
        for channel, name in self.channel_territory.items():
            if name == territory:
                return channel
        return None

    def token_of(self, colour: str) -> str | None:
        """A token UID (hex) of `colour`, for simulated touches."""
        for uid, owner in self.token_colours.items():
            if owner == colour:
                return uid
        return None


@dataclass(frozen=True)
class NewGameSpec:
    """Parameters of a game to start: variant, players (colours) and house rules."""

    variant: str
    players: tuple[str, ...]
    house_rules: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """What readers (the web) see of the table, published whole after every update.

    `state` is a private copy nobody mutates; `revision` is the web's `seq`.
    """

    revision: int = 0
    game_id: int | None = None
    state: GameState | None = None
    status: str | None = None
    commitment: str | None = None
    selection: Selection = EMPTY
    mismatches: Mapping[str, Mismatch] = field(default_factory=lambda: MappingProxyType({}))
    refusal: Mapping[str, Any] | None = None
    paused: bool = False
    history: int = 0  # raised by every undo: updates published before it are no longer true
    computers: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def table_dict(self) -> dict[str, Any]:
        """The table's own part of a view: selection, the count being set (`count`: what
        Roll / Confirm would use now, see `gestures.Count`), mismatches, the refusal of the
        moment (None once the next action was accepted or it is a few seconds old), pause."""
        count = (current_count(self.state, self.selection)
                 if isinstance(self.state, GameState) and not is_strike(self.state) else None)
        return {
            "selection": public_selection(self.state, self.selection).to_dict(),
            "count": count.to_dict() if count else None,
            "mismatches": [{"territory": t, **m.to_dict()}
                           for t, m in sorted(self.mismatches.items())],
            "refusal": dict(self.refusal) if self.refusal else None,
            "paused": self.paused,
            "computers": dict(self.computers) or None,
        }


def _seat_tokens(value: Any, players: Sequence[str] | None) -> dict[str, str]:
    """`value` as colour -> token, one token per player (of `players` when given)."""
    if (not isinstance(value, Mapping) or not value
            or not all(isinstance(k, str) and isinstance(v, str) and v
                       for k, v in value.items())
            or (players is not None and set(value) != set(players))):
        raise CommandRejected("bad_seat_tokens", "Give one seat token per player.", 400)
    return dict(value)


def public_selection(state: Any, selection: Selection) -> Selection:
    """The selection as everyone may see it: none during Capital's secret HQ pick."""
    if state is not None and getattr(state, "phase", None) == "hq_pick":
        return EMPTY
    return selection


def recent_log(session: GameSession) -> tuple[int, list[dict[str, Any]]]:
    """The game's recent log: the first journal seq it covers and the events of its last
    `RECENT_ENTRIES` active entries, oldest first."""
    entries = session.recent_events(RECENT_ENTRIES)
    first = entries[0][0] if entries else 0
    return first, [e.to_dict() for _seq, events in entries for e in events]


def opening_events(session: GameSession) -> list[dict[str, Any]]:
    """The events of a game's entry 0 (its start), rebuilt by replaying that entry."""
    record = session.journal.load(session.game_id)
    for _entry, _state, events in replay_steps(record, until_seq=0):
        return [e.to_dict() for e in events]
    return []


def awaited(state: Any) -> list[str]:
    """Every colour the game waits for now (a list for RISK Strike and the HQ pick)."""
    if state is None:
        return []
    if is_strike(state):
        return strike_waiting_for(state)
    return awaiting_players(state)


class Publisher:
    """The one place readers wait on: latest snapshot plus a short log of updates.

    The log keeps the last `UPDATE_LOG` updates holding at most `UPDATE_LOG_EVENTS`
    events, so a long game's memory stays flat. Older updates are gone from memory but
    not from the journal: `journal_span(revision)` says which journal entries a reader
    that saw `revision` is missing (the service rebuilds their events by replay)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._snapshot = Snapshot()
        self._log: deque[tuple[int, list[dict[str, Any]]]] = deque()
        self._logged_events = 0
        self._dropped: tuple[int, int] | None = None  # newest dropped (revision, journal seq)
        self._journal_at: list[tuple[int, int]] = []  # (revision, journal seq) when it moved
        self._journal_from = 0  # the first journal seq the log covers since its last reset

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot (an immutable object: safe to read from any thread)."""
        return self._snapshot

    def publish(self, snapshot: Snapshot, events: list[dict[str, Any]] | None,
                reset: bool = False, journal_seq: int | None = None,
                journal_from: int = 0) -> None:
        """Make `snapshot` current; log `events` under its revision; wake every waiter.
        `journal_seq` is the game's last journal entry after this update; a `reset`'s
        events are those of the journal entries from `journal_from` on (the log starts
        over with them: nothing before them is rebuilt for a reader)."""
        with self._cond:
            if reset:
                self._log.clear()
                self._logged_events = 0
                self._dropped = None
                self._journal_at = []
                self._journal_from = journal_from
            self._snapshot = snapshot
            if journal_seq is not None and (not self._journal_at
                                            or self._journal_at[-1][1] != journal_seq):
                self._journal_at.append((snapshot.revision, journal_seq))
            if events is not None:
                self._log.append((snapshot.revision, events))
                self._logged_events += len(events)
                while len(self._log) > 1 and (len(self._log) > UPDATE_LOG
                                              or self._logged_events > UPDATE_LOG_EVENTS):
                    revision, dropped = self._log.popleft()
                    self._logged_events -= len(dropped)
                    self._dropped = (revision, self._journal_seq_at(revision))
            self._cond.notify_all()

    def _journal_seq_at(self, revision: int) -> int:
        """The journal seq current at `revision` (-1 before the game's first entry)."""
        index = bisect.bisect_right(self._journal_at, (revision, sys.maxsize)) - 1
        return self._journal_at[index][1] if index >= 0 else -1

    def journal_span(self, revision: int) -> tuple[int, int, int] | None:
        """For a reader that saw `revision` (-1: nothing yet), the updates it misses that the
        log no longer holds: (the newest dropped revision, first journal seq missing, last
        journal seq missing); None when the log still holds all it misses."""
        with self._cond:
            if self._dropped is None or revision >= self._dropped[0]:
                return None
            first = max(self._journal_from,
                        self._journal_seq_at(revision) + 1 if revision >= 0 else 0)
            dropped_revision, last = self._dropped
            return (dropped_revision, first, last) if first <= last else None

    def updates_since(self, revision: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """Logged updates after `revision`, oldest first."""
        with self._cond:
            return [(r, e) for r, e in self._log if r > revision]

    def wait_for(self, after: int, timeout: float) -> int:
        """Block until the revision differs from `after` or `timeout` passes; return it."""
        with self._cond:
            self._cond.wait_for(lambda: self._snapshot.revision != after, timeout)
            return self._snapshot.revision


class TableCore:
    """The game owner's logic, single-threaded: inputs in, journal, lights and updates out."""

    def __init__(self, journal: Journal, wiring: Wiring, *,
                 show: Callable[[Scene], None] = lambda scene: None,
                 publisher: Publisher | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 wall: Callable[[], float] = time.time,
                 settle_s: float = DEFAULT_SETTLE_S,
                 dice: Callable[[], FairDice] | None = None) -> None:
        """`dice` makes the dice of each new game (tests pass a seeded FairDice; default:
        a fresh secret seed per game)."""
        self.journal = journal
        self.dice = dice or FairDice
        self.wiring = wiring
        self.show = show
        self.publisher = publisher or Publisher()
        self.clock = clock
        self.wall = wall
        self.session: GameSession | None = None
        self.selection: Selection = EMPTY
        self.effects: list[Effect] = []
        self.winner_since = 0.0
        self.last_battle: Battle | None = None
        self.paused = False
        self.refusal: dict[str, Any] | None = None
        self.refusal_until: float | None = None  # clock time the shown refusal clears
        self.revision = 0
        self.history = 0
        self.tracker = (MarkerTracker(wiring.marker_colours, settle_s)
                        if wiring.nfc and wiring.marker_colours else None)
        self.mismatches: dict[str, Mismatch] = {}
        self._channel_uid: dict[int, str | None] = {}
        self._state_copy: GameState | None = None
        self.window_timer: tuple[int, float] | None = None  # (Strike window id, deadline)
        self.computers = ComputerSeats()  # seats the Pi plays (pi_app.computer.seats)

    # --- starting --------------------------------------------------------------------------
    def start(self, demo: NewGameSpec | None = None) -> None:
        """Resume the last running game (or start `demo` if none runs) and light the board."""
        running = self.journal.game_ids("running")
        if running:
            try:
                self.session = GameSession.resume(self.journal, running[-1],
                                                  log_entries=RECENT_ENTRIES)
            except JournalError as exc:  # a corrupt game must not keep the table from starting
                log.error("event=table.resume_failed game=%d reason=%s", running[-1], exc)
                running = []
            else:
                self.revision = self.session.last_seq
                self.paused = self.journal.paused(self.session.game_id)
                self.computers = ComputerSeats.from_journal(
                    self.journal.computer_seats(self.session.game_id))
                log.info("event=table.resumed game=%d seq=%d paused=%s", self.session.game_id,
                         self.session.last_seq, "yes" if self.paused else "no")
        if not running and demo is not None:
            self.session = GameSession.new(self.journal, demo.variant, list(demo.players),
                                           dict(demo.house_rules), dice=self.dice())
            self.effects.append(TurnPulse(self.session.state.current_player, self.clock()))
            log.info("event=table.demo_started game=%d", self.session.game_id)
        first, events = recent_log(self.session) if self.session is not None else (0, [])
        self._update(events, state_changed=True, reset=True, journal_from=first)

    @property
    def state(self) -> GameState | None:
        """The live game state (loop thread only)."""
        return self.session.state if self.session else None

    # --- inputs ----------------------------------------------------------------------------
    def on_sensor(self, channel: int, kind: str, uid: bytes | str | None) -> None:
        """One sensor event from the bridge (press/release/tag_present/tag_removed)."""
        territory = self.wiring.channel_territory.get(channel)
        if territory is None:
            log.warning("event=table.unknown_channel channel=%d kind=%s", channel, kind)
            return
        if kind == "press":
            self.on_input(Touch(territory))
        elif kind == "tag_present":
            hexuid = normalise_uid(uid)
            self._channel_uid[channel] = hexuid
            colour = self.wiring.token_colours.get(hexuid or "")
            if colour is not None:
                self.on_input(Touch(territory, colour))
                return
            if self.tracker is not None:
                self.tracker.read(territory, hexuid, self.clock())
                self.recheck_board()
            if hexuid not in self.wiring.marker_colours:
                self.on_input(Touch(territory, UNKNOWN_TOKEN))
        elif kind == "tag_removed":
            previous = self._channel_uid.pop(channel, None)
            if previous in self.wiring.token_colours:
                return  # a token lifted after a touch: the marker underneath is unchanged
            if self.tracker is not None:
                self.tracker.read(territory, None, self.clock())
                self.recheck_board()

    def on_dump(self, channels: Mapping[int, tuple[str, bytes | None]]) -> None:
        """The Pico's full sensor state after (re)connecting: reload the marker readings."""
        if self.tracker is None:
            return
        readings: dict[str, str | None] = {}
        for channel, (state, uid) in channels.items():
            territory = self.wiring.channel_territory.get(channel)
            hexuid = normalise_uid(uid) if state == "tag_present" else None
            if territory is None or hexuid in self.wiring.token_colours:
                continue
            self._channel_uid[channel] = hexuid
            readings[territory] = hexuid
        self.tracker.load_dump(readings, self.clock())
        self.recheck_board(force=True)

    def on_control(self, name: str, kind: str) -> None:
        """A control button: `kind` is "press" or "long_press"."""
        self.on_input(Press(name, long=kind == "long_press"))

    def on_input(self, event: InputEvent) -> None:
        """A touch or press: interpret it with the gestures and carry out the decision."""
        where = event.territory if isinstance(event, Touch) else None
        if self.session is None or self.state is None:
            self._refuse(Refusal("no_game", "No game is running; start one on the host page.",
                                 where), None)
            return
        if self.paused:
            self._refuse(Refusal("paused", "The host has paused the game.", where), None)
            return
        if self._computer_input(event, where):
            return
        if is_strike(self.state):
            decision = strike_gestures.interpret(self.state, self.selection, event)
        else:
            decision = interpret(self.state, self.selection, event)
        self._carry_out(decision, where)

    def _settle(self, selection: Selection) -> Selection:
        state = self.state
        if state is None:
            return EMPTY
        if is_strike(state):
            return strike_gestures.settle(state, selection)
        return settle(state, selection)

    def _carry_out(self, decision: Decision, where: str | None) -> None:
        assert self.session is not None
        actor = None if is_strike(self.state) else waiting_for(self.session.state)
        toucher = decision.refusal.toucher if decision.refusal is not None else None
        if decision.refusal is not None:
            self._refuse(decision.refusal, actor)
            return
        if decision.undo:
            try:
                seqs = self.session.undo(1)
            except RuleError as exc:
                self._refuse(Refusal(exc.code, exc.message, where, toucher), actor)
                return
            self._after_undo(seqs, "board")
            return
        if decision.command is not None:
            try:
                _seq, events = self.session.submit(decision.command)
            except RuleError as exc:
                self._refuse(Refusal(exc.code, exc.message, where, toucher), actor)
                return
            self.selection = self._settle(decision.selection)
            self._clear_refusal()
            self.computers.hold = None  # a human acts: the computer's last step is done
            self._update([e.to_dict() for e in events], state_changed=True)
            return
        self.selection = decision.selection
        self._clear_refusal()
        if decision.limit is not None:
            self.effects.append(LimitBlink(decision.limit, self.clock()))
        shown = public_selection(self.state, self.selection)
        self._update([{"type": "selection", **shown.to_dict()}], state_changed=False)

    def _clear_refusal(self) -> None:
        """An accepted action: the refusal of a moment ago no longer applies."""
        self.refusal = None
        self.refusal_until = None

    def _after_undo(self, seqs: list[int], by: str) -> None:
        """Publish an accepted undo (`by` "board" or "host"): the log restarts (history
        marker) holding the game's recent log without the undone entries (`recent_log`,
        kept by the session: no replay of the game), and then the undo itself, so pages
        drop exactly the undone lines. If the computer would
        play next it is paused (journaled): the host resumes it, so an undo never makes it
        roll the same attack again."""
        assert self.session is not None and self.state is not None
        self.selection = EMPTY
        self.history += 1
        self._clear_refusal()
        first, kept = recent_log(self.session)
        extra: list[dict[str, Any]] = []
        computers = self.computers
        computers.hold = None
        if computers.to_play(self.state, awaited(self.state)) is not None:
            # it would play the same move again with fresh dice: the host resumes it
            self.computers = computers.configure({"paused": True}, list(self.state.players))
            self.journal.set_computer_seats(self.session.game_id,
                                            self.computers.to_journal())
            extra.append({"type": "computer_seats", **self.computers.public()})
        self._update([*kept, {"type": "undone", "seqs": seqs, "by": by}, *extra],
                     state_changed=True, reset=True, journal_from=first)

    def _refuse(self, refusal: Refusal, actor: str | None) -> None:
        now = self.clock()
        places: list[str] = []
        hidden = self.state is not None and getattr(self.state, "phase", None) == "hq_pick"
        if refusal.territory is not None:
            places = [refusal.territory]
        elif self.state is not None and is_strike(self.state):
            places = []
        elif hidden:  # never blink the secret HQ being chosen: all of the seat's land
            places = self.state.territories_of(actor) if actor and self.state else []
        else:
            places = [t for t in (self.selection.source, self.selection.target) if t]
            if not places and actor is not None and self.state is not None:
                places = self.state.territories_of(actor)
        self.effects.extend(ErrorBlink(t, now) for t in places)
        self.refusal = {"code": refusal.code,
                        "message": addressed(refusal, actor, self.state),
                        "territory": refusal.territory, "player": refusal.toucher,
                        "turn": actor, "at": self.wall()}
        self.refusal_until = now + REFUSAL_S
        log.info("event=table.refused code=%s territory=%s", refusal.code, refusal.territory)
        self._update([{"type": "refused", **self.refusal}], state_changed=False)

    # --- web -------------------------------------------------------------------------------
    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """A command from a phone: check the seat, apply, journal, update. Raises
        `CommandRejected`."""
        if self.session is None:
            raise CommandRejected("no_game", "No game is running; the host starts one.")
        if viewer.kind != "player" or not viewer.player:
            raise CommandRejected("not_a_player", "Only a seated player can play.", 403)
        if isinstance(command, dict) and command.get("type") == CloseWindow.type:
            raise CommandRejected("table_only", "Only the table's own timer closes a reaction "
                                  "window; pass instead.", 403)
        if not isinstance(command, dict) or command.get("player") != viewer.player:
            raise CommandRejected("not_your_seat", "You can only act for your own seat.", 403)
        if self.paused:
            raise CommandRejected("paused", "The host has paused the game.")
        if viewer.player in self.computers.levels:
            raise CommandRejected("computer_seat", "The computer plays this seat; the host "
                                  "can give it back to a phone.", 403)
        body = dict(command)
        faces = body.pop("faces", None)
        try:
            cmd = command_from_dict(body)
        except RuleError as exc:
            raise CommandRejected(exc.code, exc.message, 400) from None
        self._check_seat(viewer.player)
        try:
            _seq, events = self.session.submit(cmd, faces=faces)
        except RuleError as exc:  # a seat acting out of its turn is forbidden, not a conflict
            raise CommandRejected(exc.code, exc.message,
                                  403 if exc.code == "not_your_turn" else 409) from None
        self.selection = self._settle(self.selection)
        self._clear_refusal()
        self.computers.hold = None  # a human acts: the computer's last step is done
        dicts = [e.to_dict() for e in events]
        revision = self._update(dicts, state_changed=True)
        key = viewer.redaction_key
        shown = [r for r in (redact_event(e, key) for e in dicts) if r is not None]
        return Accepted(revision, shown)

    def seat_input(self, event: InputEvent, player: str) -> None:
        """A touch or press sent by `player`'s phone (the virtual board): refused with 403
        `not_your_turn` (nothing changes) unless that seat may act now
        (`pi_app.table.seat_rights`); a touch is then that seat's, as a token touch is."""
        if self.session is None:
            raise CommandRejected("no_game", "No game is running; the host starts one.")
        if self.paused:
            raise CommandRejected("paused", "The host has paused the game.")
        self._check_seat(player, touch=True)
        if isinstance(event, Touch):
            event = Touch(event.territory, player)
        self.on_input(event)

    def _check_seat(self, player: str | None, touch: bool = False) -> None:
        refusal = seat_refusal(self.state, player or "", touch)
        if refusal is not None:
            log.info("event=table.seat_refused player=%s", player)
            raise CommandRejected("not_your_turn", refusal, 403)

    def host_action(self, action: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """new_game, undo, pause, resume, end_game, seat_tokens, computer. Raises
        `CommandRejected`.

        new_game params: `variant` (any of the rules' variants, RISK Strike included),
        `players` (colours in seat order; counts as the variant allows), `house_rules`
        (the variant's own set, as a dict), for physical dice `faces` (the typed faces of
        the setup rolls) and `seat_tokens` (colour -> token of each new seat), journaled with
        the new game and the end of the old one in one transaction.
        pause and resume are journaled: a restart keeps a paused game paused.
        seat_tokens params: `tokens` (colour -> token), journaled for the running game (a
        seat reissued).
        new_game may name `computers` (colour -> level): seats the Pi plays from the start.
        computer params (issue 16, journaled): `seats` {colour: "easy"|"normal"|"hard", or
        null to give the seat back to a phone}, `paused` (the computer stops, the game does
        not), `confirm_after_s` (button boards: go on after this long without Confirm; 0
        waits for Confirm)."""
        if action == "new_game":
            return self._new_game(params)
        if action == "seat_tokens":
            if self.session is None:
                raise CommandRejected("no_game", "No game is running.")
            self.journal.set_seat_tokens(self.session.game_id,
                                         _seat_tokens(params.get("tokens"), None))
            return {"game_id": self.session.game_id}
        if action == "computer":
            return self._computer_action(params)
        if action in ("pause", "resume"):
            if self.session is not None:  # journaled first: a restart keeps it
                self.journal.set_paused(self.session.game_id, action == "pause")
            self.paused = action == "pause"
            if self.window_timer is not None:  # a resumed window gets its whole time again
                self.window_timer = None
                self._sync_window_timer([])
            self._update([{"type": "paused" if action == "pause" else "resumed"}],
                         state_changed=False)
            return {"paused": self.paused}
        session = self.session
        if session is None:
            raise CommandRejected("no_game", "No game is running.")
        if action == "undo":
            count = params.get("count", 1)
            override = params.get("override", False)
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise CommandRejected("bad_count", "count must be a whole number from 1.", 400)
            try:
                seqs = session.undo(count, override=bool(override))
            except RuleError as exc:
                raise CommandRejected(exc.code, exc.message) from None
            self._after_undo(seqs, "host")
            return {"undone": seqs, "seq": self.revision}
        if action == "end_game":
            if session.status == "running":
                session.end("abandoned")
            seed = session.reveal_seed()
            self._update([{"type": "seed_revealed", "seed": seed}], state_changed=True)
            return {"seed": seed, "game_id": session.game_id}
        raise CommandRejected("unknown_action", f"There is no host action {action!r}.", 400)

    def _new_game(self, params: Mapping[str, Any]) -> dict[str, Any]:
        variant = params.get("variant", "classic")
        players = params.get("players")
        house_rules = params.get("house_rules") or {}
        if not isinstance(variant, str):
            raise CommandRejected("bad_variant", "Name the variant (classic, mission, capital, "
                                  "two-player, allied or strike).", 400)
        if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
            raise CommandRejected("bad_players", "Give the players as a list of colours.", 400)
        if not isinstance(house_rules, dict):
            raise CommandRejected("bad_house_rules", "Give the house rules as named options.",
                                  400)
        tokens = params.get("seat_tokens")
        if tokens is not None:
            tokens = _seat_tokens(tokens, players)
        try:
            computers = ComputerSeats().configure({"seats": params.get("computers") or {}},
                                                  list(players))
        except ValueError as exc:
            raise CommandRejected("bad_computer", str(exc), 400) from None
        old = self.session if self.session is not None and self.session.status == "running" \
            else None
        try:
            # One transaction: a crash leaves the old game running and no new one, or the
            # new game with its seats and the old one ended, never two running games.
            with self.journal.atomic():
                session = GameSession.new(self.journal, variant, list(players),
                                          dict(house_rules), dice=self.dice(),
                                          faces=params.get("faces"))
                if old is not None:
                    self.journal.set_status(old.game_id, "abandoned")
                if tokens is not None:
                    self.journal.set_seat_tokens(session.game_id, tokens)
                if computers.levels:
                    self.journal.set_computer_seats(session.game_id, computers.to_journal())
        except (RuleError, ValueError) as exc:
            code = getattr(exc, "code", "bad_house_rules")
            raise CommandRejected(code, getattr(exc, "message", str(exc)), 400) from None
        if old is not None:
            log.info("event=table.replaced game=%d by_game=%d", old.game_id, session.game_id)
        self.session = session
        self.computers = computers
        self.selection = EMPTY
        self.effects = [TurnPulse(session.state.current_player, self.clock())]
        self.last_battle = None
        self._clear_refusal()
        self.paused = False
        self.window_timer = None
        self.winner_since = 0.0
        self._update(opening_events(session), state_changed=True, reset=True)
        return {"game_id": session.game_id, "commitment": session.commitment}

    def seat_tokens(self) -> dict[str, str] | None:
        """The running game's journaled seat tokens (colour -> token), None if none were."""
        if self.session is None:
            return None
        return self.journal.seat_tokens(self.session.game_id)

    def journal_events(self, first: int, last: int) -> list[dict[str, Any]]:
        """The events of the running game's active journal entries `first`..`last` (for
        readers whose updates the publisher no longer holds): kept by the session for the
        recent ones, else replayed from the latest snapshot before `first`."""
        if self.session is None:
            return []
        return [e.to_dict() for _seq, events in self.session.events_between(first, last)
                for e in events]

    def dice_record(self) -> dict[str, Any]:
        """Commitment always; the seed and every draw only once the game is over."""
        session = self.session
        if session is None:
            return {"commitment": None, "seed": None, "draws": []}
        if session.status == "running":
            return {"commitment": session.commitment, "seed": None, "draws": []}
        record = self.journal.load(session.game_id)
        draws = [d for entry in record.entries for d in entry.draws]
        return {"commitment": session.commitment, "seed": session.reveal_seed(), "draws": draws}

    # --- board tracking and time -----------------------------------------------------------
    def recheck_board(self, force: bool = False) -> None:
        """Judge the marker readings again; update lights and phones if the list changed."""
        if self.tracker is None or self.state is None or is_strike(self.state):
            return
        found = self.tracker.mismatches(self.state.owner, self.clock())
        if found != self.mismatches or force:
            changed = found != self.mismatches
            self.mismatches = found
            if changed:
                self._update([{"type": "board_mismatches", "count": len(found)}],
                             state_changed=False)

    def next_deadline(self) -> float | None:
        """When `tick` has something to do next (a reading settling, an effect ending)."""
        times: list[float] = []
        if self.tracker is not None:
            settle_at = self.tracker.next_settle(self.clock())
            if settle_at is not None:
                times.append(settle_at)
        if self.window_timer is not None and not self.paused:
            times.append(self.window_timer[1])
        if self.refusal_until is not None:
            times.append(self.refusal_until)
        computer_at = self._computer_due()
        if computer_at is not None:
            times.append(computer_at)
        return min(times) if times else None

    def tick(self) -> None:
        """Periodic work: drop finished effects, let pending marker readings settle, close
        a RISK Strike reaction window whose time ran out."""
        now = self.clock()
        if any(not effect_alive(e, now) for e in self.effects):
            self.effects = [e for e in self.effects if effect_alive(e, now)]
        self.recheck_board()
        if self.refusal_until is not None and now >= self.refusal_until:
            self._clear_refusal()
            self._update([], state_changed=False)
        timer = self.window_timer
        if timer is not None and not self.paused and now >= timer[1]:
            self.close_window(timer[0])
        due = self._computer_due()
        if due is not None and self.clock() >= due:
            self.computer_step()

    def close_window(self, window: int) -> None:
        """The reaction timer ran out: the table itself submits `CloseWindow(window)`."""
        self.window_timer = None
        if self.session is None:
            return
        try:
            _seq, events = self.session.submit(CloseWindow(window=window))
        except RuleError as exc:  # closed meanwhile (everyone passed, an undo): nothing to do
            log.info("event=table.window_timer_stale window=%d code=%s", window, exc.code)
            return
        log.info("event=table.window_closed window=%d by=timer", window)
        self.selection = self._settle(self.selection)
        self._update([e.to_dict() for e in events], state_changed=True)

    def _sync_window_timer(self, events: list[dict[str, Any]]) -> None:
        """Start the timer for a newly open Strike window; drop it once none is open."""
        state = self.state
        window = getattr(state, "window", None) if state is not None else None
        if window is None or not is_strike(state):
            self.window_timer = None
            return
        seconds = state.house_rules.reaction_seconds
        opened = any(e.get("type") == "window_opened" and e.get("window") == window["id"]
                     for e in events)
        if seconds <= 0:
            self.window_timer = None
        elif opened or self.window_timer is None or self.window_timer[0] != window["id"]:
            self.window_timer = (window["id"], self.clock() + seconds)

    # --- computer seats (pi_app.computer.seats) --------------------------------------------
    def _computer_due(self) -> float | None:
        """When the computer acts next (now, or when its held step releases by itself)."""
        computers = self.computers
        state = self.state
        if self.paused or self.session is None or self.session.status != "running":
            return None
        seat = computers.to_play(state, awaited(state))
        if seat is None:
            return None
        now = self.clock()
        if not computers.must_wait(state):
            return now
        if computers.release_due(now, self.tracker is not None, not self.mismatches):
            return now
        later = computers.next_release()
        if self.tracker is not None:  # poll the board while it waits for the pieces
            later = min(later, now + 0.25) if later is not None else now + 0.25
        return later

    def computer_step(self) -> None:
        """The computer plays one command for the seat the game waits for: announced,
        then submitted and journaled like a phone's; its pieces are then lit to be moved."""
        session, state = self.session, self.state
        if session is None or state is None:
            return
        computers = self.computers
        seat = computers.to_play(state, awaited(state))
        if seat is None:
            return
        now = self.clock()
        if computers.must_wait(state) and not computers.release_due(
                now, self.tracker is not None, not self.mismatches):
            return
        command = computers.decide(state, seat)
        data = command.to_dict()
        try:
            _seq, events = session.submit(command)
        except RuleError as exc:  # a bug in the computer: stop it rather than loop
            log.error("event=table.computer_refused player=%s code=%s command=%s", seat,
                      exc.code, data)
            self.computers = computers.configure({"paused": True}, list(state.players))
            self._update([{"type": "computer_stopped", "player": seat, "code": exc.code}],
                         state_changed=False)
            return
        log.info("event=table.computer_played player=%s type=%s", seat, data["type"])
        computers.hold = computers.held_step(data, self.clock())
        self.selection = self._settle(EMPTY)
        self._clear_refusal()
        self._update([computers.announcement(data), *(e.to_dict() for e in events)],
                     state_changed=True)

    def _computer_hold(self) -> Any:
        """The computer's held step while the game waits for that computer (None when a
        human is to act: their own selection and Confirm are theirs then)."""
        computers = self.computers
        if computers.hold is None or computers.to_play(self.state, awaited(self.state)) is None:
            return None
        return computers.hold

    def _computer_input(self, event: InputEvent, where: str | None) -> bool:
        """A touch or press while the computer plays: Confirm releases its held step;
        anything else is refused while only a computer seat may act. True if handled."""
        state = self.state
        computers = self.computers
        if not computers.levels or state is None:
            return False
        waiting = awaited(state)
        if self._computer_hold() is not None and isinstance(event, Press) \
                and event.button == CONFIRM:
            computers.hold = None
            self._update([{"type": "computer_released"}], state_changed=False)
            return True
        if waiting and all(p in computers.levels for p in waiting):
            names = ", ".join(p.capitalize() for p in waiting)
            self._refuse(Refusal("computer_turn", f"The computer plays {names}: move its "
                                 "pieces as the lights show, then press Confirm.", where),
                         None)
            return True
        return False

    def _computer_action(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The host's `computer` action (see `host_action`), journaled first."""
        if self.session is None or self.state is None:
            raise CommandRejected("no_game", "No game is running.")
        try:
            computers = self.computers.configure(dict(params), list(self.state.players))
        except ValueError as exc:
            raise CommandRejected("bad_computer", str(exc), 400) from None
        self.journal.set_computer_seats(self.session.game_id, computers.to_journal())
        self.computers = computers
        public = computers.public()
        log.info("event=table.computer_seats seats=%s paused=%s", public["seats"],
                 public["paused"])
        self._update([{"type": "computer_seats", **public}], state_changed=False)
        return public

    # --- output ----------------------------------------------------------------------------
    def _effects_from(self, events: list[dict[str, Any]], now: float) -> None:
        battle: dict[str, Any] | None = None
        for event in events:
            kind = event.get("type")
            if kind == "turn_started":
                self.effects.append(TurnPulse(event["player"], now))
                self.last_battle = None
            elif kind == "battle" and "from" in event:
                battle = event
            elif kind == "battle":  # RISK Strike: no territories, just the dice LEDs
                self.last_battle = Battle(tuple(event["attack_dice"]),
                                          tuple(event["defence_dice"]),
                                          event.get("attacker"), event.get("defender"))
            elif kind == "coin_taken":
                self.effects.extend(ConquestFlash(t, now)
                                    for t in strike_gestures.continent_area(event["continent"]))
            elif kind == "conquered":
                self.effects.append(ConquestFlash(event["to"], now))
            elif kind == "game_won":
                self.winner_since = now
            elif kind in ("undone", "game_started"):
                self.last_battle = None
        if battle is not None:
            self.effects.append(DiceShow(battle["from"], tuple(battle["attack_dice"]),
                                         battle["attacker_losses"], now))
            self.effects.append(DiceShow(battle["to"], tuple(battle["defence_dice"]),
                                         battle["defender_losses"], now))
            self.last_battle = Battle(tuple(battle["attack_dice"]),
                                      tuple(battle["defence_dice"]),
                                      battle.get("attacker"), battle.get("defender"))

    def highlight(self) -> Highlight:
        """The selection and any pending decision, as the lights show them."""
        state = self.state
        sel = self.selection
        if state is None:
            return Highlight()
        if is_strike(state):
            return strike_gestures.highlight(state, sel)
        if state.phase == "hq_pick":
            return Highlight()  # the pick is secret until every seat has chosen
        pending = state.pending
        hold = self._computer_hold()
        if hold is not None and pending is None:  # the computer's pieces to move by hand
            first = hold.territories[0] if hold.territories else None
            last = hold.territories[-1] if hold.territories else None
            return Highlight(source=first if first != last else None, target=last,
                             mode="move", mover=hold.player, count=hold.count or 1)
        count = current_count(state, sel)
        if pending is not None and pending["kind"] == "defend":
            dice = sel.defence or int(pending["max_dice"])
            return Highlight(source=pending["from"], target=pending["to"], mode="defend",
                             dice=dice, dice_on=pending["to"], mover=pending["attacker"])
        if pending is not None and pending["kind"] == "move_in":
            return Highlight(source=pending["from"], target=pending["to"], mode="move",
                             mover=pending["player"], count=count.value if count else None)
        if state.phase == "attack" or (state.phase == "allied" and sel.target):
            dice = None
            if sel.source and sel.target:
                dice = sel.dice or min(3, state.armies[sel.source] - 1)
            return Highlight(source=sel.source, target=sel.target, mode="attack", dice=dice,
                             dice_on=sel.source)
        if state.phase == "fortify":
            return Highlight(source=sel.source, target=sel.target, mode="fortify",
                             mover=state.current_player,
                             count=count.value if count and sel.target else None)
        return Highlight(selected=sel.source)

    def scene(self) -> Scene:
        """The scene of the table now (pure function of the loop's fields)."""
        state = self.state
        if state is None:
            return Scene()
        now = self.clock()
        if is_strike(state):
            return Scene.build(
                territory_colours(state),
                None if state.winner else (strike_decider(state)
                                           or state.current_player),
                winner=state.winner,
                winner_since=self.winner_since,
                highlight=self.highlight(),
                effects=tuple(e for e in self.effects if effect_alive(e, now)),
                last_battle=self.last_battle,
            )
        return Scene.build(
            state.owner,
            None if state.winner else state.current_player,
            phase=state.phase,
            claiming=state.phase == "claim",
            awaiting=(str(state.pending["player"]) if state.pending is not None
                      and state.winner is None else None),
            winner=state.winner,
            winner_since=self.winner_since,
            highlight=self.highlight(),
            effects=tuple(e for e in self.effects if effect_alive(e, now)),
            mismatches=self.mismatches,
            last_battle=self.last_battle,
            hq=set(state.hq.values()) if state.hq_revealed else set(),
        )

    def _update(self, events: list[dict[str, Any]], *, state_changed: bool,
                reset: bool = False, journal_from: int = 0) -> int:
        """After any change: lights first (latency), then board tracking, then the web."""
        now = self.clock()
        # finished effects go now, not only when the queue idles: a busy table (a bot, a
        # quick group) may never idle, and the list grew with every roll of the game
        self.effects = [e for e in self.effects if effect_alive(e, now)]
        self._effects_from(events, now)
        if state_changed:
            self._sync_window_timer(events)
        self.show(self.scene())
        if state_changed:
            if self.tracker is not None and self.state is not None and not is_strike(self.state):
                self.mismatches = self.tracker.mismatches(self.state.owner, now)
                self.show(self.scene())
            state = self.state
            self._state_copy = state.copy() if state is not None else None
        self.revision += 1
        session = self.session
        snapshot = Snapshot(
            revision=self.revision,
            game_id=session.game_id if session else None,
            state=self._state_copy,
            status=session.status if session else None,
            commitment=session.commitment if session else None,
            selection=self.selection,
            mismatches=MappingProxyType(dict(self.mismatches)),
            refusal=MappingProxyType(self.refusal) if self.refusal else None,
            paused=self.paused,
            history=self.history,
            computers=MappingProxyType(self.computers.public()) if self.computers.levels
            else MappingProxyType({}),
        )
        self.publisher.publish(snapshot, events, reset=reset,
                               journal_seq=session.last_seq if session else None,
                               journal_from=journal_from)
        return self.revision


_STOP = object()


class TableLoop:
    """Runs a `TableCore` on one thread; every other thread talks to it through a queue."""

    def __init__(self, journal_path: str | Path, wiring: Wiring, *,
                 show: Callable[[Scene], None] = lambda scene: None,
                 demo: NewGameSpec | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 settle_s: float = DEFAULT_SETTLE_S,
                 heartbeat: Callable[[], object] | None = None,
                 dice: Callable[[], FairDice] | None = None) -> None:
        """`heartbeat` is called from the loop thread at least every half second (the
        systemd watchdog: it stops when the loop hangs)."""
        self.journal_path = Path(journal_path)
        self.heartbeat = heartbeat
        self._dice = dice
        self.wiring = wiring
        self.publisher = Publisher()
        self._show = show
        self._demo = demo
        self._clock = clock
        self._settle_s = settle_s
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._startup_error: BaseException | None = None
        self.core: TableCore | None = None
        self.inputs_handled = 0
        self.errors = 0

    # --- lifecycle -------------------------------------------------------------------------
    def start(self, timeout: float = 30.0) -> None:
        """Open the journal, resume or start a game, and run; raise if that fails."""
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the table loop did not start in time")
        if self._startup_error is not None:
            raise self._startup_error

    def stop(self, timeout: float = 5.0) -> None:
        """Finish the work queued so far, close the journal and end the thread."""
        if self._thread is None:
            return
        self._queue.put(_STOP)
        self._thread.join(timeout)
        self._thread = None

    @property
    def running(self) -> bool:
        """True while the loop thread is alive."""
        return self._thread is not None and self._thread.is_alive()

    # --- inputs from other threads ---------------------------------------------------------
    def post_sensor(self, event: Any) -> None:
        """A `firmware_bridge.link.SensorEvent` (called on the link thread)."""
        self._queue.put(("sensor", event.channel, event.kind, event.uid))

    def post_dump(self, dump: Any) -> None:
        """A `firmware_bridge.link.StateDump` (called on the link thread)."""
        self._queue.put(("dump", dict(dump.channels)))

    def post_control(self, event: Any) -> None:
        """A `hardware.controls.ControlEvent` (called on a GPIO thread)."""
        self._queue.put(("control", event.name, event.kind))

    def call(self, fn: Callable[[TableCore], T], timeout: float = 30.0) -> T:
        """Run `fn(core)` on the loop thread and return its result (or raise its error)."""
        future: Future[T] = Future()
        self._queue.put(("call", fn, future))
        return future.result(timeout)

    # --- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        try:
            journal = Journal(self.journal_path)
            core = TableCore(journal, self.wiring, show=self._show, publisher=self.publisher,
                             clock=self._clock, settle_s=self._settle_s, dice=self._dice)
            core.start(self._demo)
            self.core = core
        except BaseException as exc:
            self._startup_error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            self._serve(core)
        finally:
            journal.close()

    def _serve(self, core: TableCore) -> None:
        while True:
            if self.heartbeat is not None:
                self.heartbeat()
            deadline = core.next_deadline()
            timeout = 0.5 if deadline is None else max(0.0, deadline - self._clock()) + 0.001
            try:
                item = self._queue.get(timeout=min(timeout, 0.5))
            except queue.Empty:
                core.tick()
                continue
            if item is _STOP:
                return
            try:
                self._handle(core, item)
            except Exception:
                self.errors += 1
                log.exception("event=table.input_failed item=%r", item[:2])
            self.inputs_handled += 1
            if deadline is not None and self._clock() >= deadline:
                core.tick()

    def _handle(self, core: TableCore, item: tuple[Any, ...]) -> None:
        kind = item[0]
        if kind == "sensor":
            core.on_sensor(item[1], item[2], item[3])
        elif kind == "control":
            core.on_control(item[1], item[2])
        elif kind == "dump":
            core.on_dump(item[1])
        elif kind == "call":
            fn, future = item[1], item[2]
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(core))
            except BaseException as exc:
                future.set_exception(exc)
