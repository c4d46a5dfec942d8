"""The table's core: inputs in, accepted or refused, journaled, lit and published.

`TableCore` (single-threaded, testable without threads) owns the game. Touches and presses
(the board, the buttons, a seat's phone on the virtual board) are read by the game's kind
(`pi_app.table.kinds`, the only place that knows which game it is) into a decision the
core accepts (a command applied through the journaled `GameSession`, accepted only once
durably journaled; an undo; a selection change) or refuses (a sentence, a blink). After
every change it hands a new `Scene` to the frame thread and publishes a `Snapshot` plus
the update's events (`publish`; revisions, resets and the recent log: `publishing`).
Its rooms: `board_inputs` (sensors, tokens, markers), `host_actions` (one small function
each, typed parameters), `timers` (refusals, Strike windows, markers settling, the
computer's pace behind `next_deadline` / `tick`), `computer_play`, `effects`,
`seat_rights` (what a phone may do). A refusal is addressed to the token's owner on NFC
boards, to no one on button boards (`gestures.addressed`), and clears at the next accepted
action or `REFUSAL_S` later. An undo republishes the recent log without the undone entries
and names who undid it (`by`: "board" or "host"), so pages drop exactly those lines.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Mapping
from typing import Any, cast

from pi_app.computer.seats import ComputerSeats
from pi_app.dice import FairDice
from pi_app.journal import Journal, JournalError
from pi_app.redaction import redact_event
from pi_app.rules import GameState, RuleError
from pi_app.session import GameSession
from pi_app.table import publishing
from pi_app.table.board_inputs import BoardReader
from pi_app.table.computer_play import ComputerPlay
from pi_app.table.effects import Effects
from pi_app.table.game_facts import GameFacts
from pi_app.table.gestures import (
    EMPTY,
    Decision,
    InputEvent,
    Press,
    Refusal,
    Selection,
    Touch,
    addressed,
)
from pi_app.table.host_actions import run_host_action
from pi_app.table.kinds import GameKind, awaited, kind_of
from pi_app.table.lights import Highlight, Scene
from pi_app.table.publishing import Publisher, public_selection, recent_log, snapshot_of
from pi_app.table.seat_rights import check_computer, check_seat, phone_command
from pi_app.table.timers import MarkerSettling, ReactionWindowTimer, RefusalTimer, Timers
from pi_app.table.tracking import DEFAULT_SETTLE_S
from pi_app.table.undo_rights import BOARD, undo_refusal
from pi_app.table.wiring import NewGameSpec, Wiring
from pi_app.table_api import Accepted, CommandRejected, Viewer

log = logging.getLogger("riskboard.table")


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
        self.fx = Effects()
        self.paused = False
        self.refusal: dict[str, Any] | None = None
        self.revision = 0
        self.history = 0
        self._state_copy: GameState | None = None
        self.computers = ComputerSeats()  # seats the Pi plays (pi_app.computer.seats)
        # see each control-button press first; one answered True is theirs, not the game's
        self.press_watchers: list[Callable[[str, bool], bool]] = []
        # the rooms reach the core through a weak proxy: no cycle keeps a dropped core and
        # its journal's file handles alive until the garbage collector runs
        me = cast(TableCore, weakref.proxy(self))
        self.board = BoardReader(me, wiring, settle_s)
        self.refusal_timer = RefusalTimer(me)
        self.window = ReactionWindowTimer(me)
        self.computer = ComputerPlay(me)
        self.facts = GameFacts(me)  # what `awaiting` needs beside the state
        self.timers = Timers([MarkerSettling(me), self.refusal_timer, self.window,
                              self.computer])

    # --- starting --------------------------------------------------------------------------
    def start(self, demo: NewGameSpec | None = None) -> None:
        """Resume the last running game (or start `demo` if none runs) and light the board."""
        running = self.journal.game_ids("running")
        if running:
            try:
                self.session = GameSession.resume(self.journal, running[-1],
                                                  log_entries=publishing.RECENT_ENTRIES)
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
            self.fx.turn_pulse(self.session.state.current_player, self.clock())
            log.info("event=table.demo_started game=%d", self.session.game_id)
        first, events = recent_log(self.session) if self.session is not None else (0, [])
        self.publish(events, state_changed=True, reset=True, journal_from=first)

    @property
    def state(self) -> GameState | None:
        """The live game state (loop thread only)."""
        return self.session.state if self.session else None

    @property
    def kind(self) -> GameKind:
        """The running game's kind (`pi_app.table.kinds`)."""
        return kind_of(self.state)

    def awaited(self) -> list[str]:
        """Every colour the game waits for now."""
        return awaited(self.state)

    def settled(self, selection: Selection) -> Selection:
        """What the game still allows of `selection`."""
        state = self.state
        return EMPTY if state is None else self.kind.settle(state, selection)

    # --- inputs ----------------------------------------------------------------------------
    def on_sensor(self, channel: int, kind: str, uid: bytes | str | None) -> None:
        """One sensor event from the bridge (`BoardReader.on_sensor`)."""
        self.board.on_sensor(channel, kind, uid)

    def on_dump(self, channels: Mapping[int, tuple[str, bytes | None]]) -> None:
        """The Pico's full sensor state after (re)connecting (`BoardReader.on_dump`)."""
        self.board.on_dump(channels)

    def on_control(self, name: str, kind: str) -> None:
        """A control button: `kind` is "press" or "long_press"."""
        self.on_input(Press(name, long=kind == "long_press"))

    def on_input(self, event: InputEvent, seat: str | None = None) -> None:
        """A touch or press (`seat`: sent by that seat's phone): read by the game's kind,
        then carried out. A press a watcher keeps (`press_watchers`) never reaches it."""
        if isinstance(event, Press) and any(watch(event.button, event.long)
                                            for watch in self.press_watchers):
            return
        where = event.territory if isinstance(event, Touch) else None
        if self.session is None or self.state is None:
            self.refuse(Refusal("no_game", "No game is running; start one on the host page.",
                                where), None)
            return
        if self.paused:
            self.refuse(Refusal("paused", "The host has paused the game.", where), None)
            return
        if self.computer.on_input(event, where):
            return
        self._carry_out(self.kind.interpret(self.state, self.selection, event), where, seat)

    def _carry_out(self, decision: Decision, where: str | None, seat: str | None) -> None:
        assert self.session is not None and self.state is not None
        actor = self.kind.actor(self.state)
        toucher = decision.refusal.toucher if decision.refusal is not None else None
        if decision.refusal is not None:  # kept, unless the refusal lets it go (`drop`)
            self.selection = decision.selection if decision.drop else self.selection
            return self.refuse(decision.refusal, actor)
        if decision.undo:
            refusal = undo_refusal(self.state, self.session.last_command(), seat or BOARD,
                                   where)
            if refusal is not None:
                self.refuse(refusal, actor)
                return
            try:
                seqs = self.session.undo(1)
            except RuleError as exc:
                self.refuse(Refusal(exc.code, exc.message, where, toucher), actor)
                return
            self.after_undo(seqs, "board")
            return
        if decision.command is not None:
            try:
                _seq, events = self.session.submit(decision.command)
            except RuleError as exc:
                self.refuse(Refusal(exc.code, exc.message, where, toucher), actor)
                return
            self.accept(decision.selection, [e.to_dict() for e in events])
            return
        self.selection = decision.selection
        self.clear_refusal()
        if decision.limit is not None:
            self.fx.limit(decision.limit, self.clock())
        shown = public_selection(self.state, self.selection)
        self.publish([{"type": "selection", **shown.to_dict()}], state_changed=False)

    # --- accept / refuse -------------------------------------------------------------------
    def accept(self, selection: Selection, events: list[dict[str, Any]]) -> int:
        """A human's command was journaled: settle the selection, clear the refusal and
        publish (a computer's held step waits on: only its copy releases it). Returns the
        new revision."""
        self.selection = self.settled(selection)
        self.clear_refusal()
        return self.publish(events, state_changed=True)

    def clear_refusal(self) -> None:
        """An accepted action: the refusal of a moment ago no longer applies."""
        self.refusal = None
        self.refusal_timer.stop()

    def after_undo(self, seqs: list[int], by: str) -> None:
        """Publish an accepted undo (`by` "board" or "host"): the log restarts (history
        marker) holding the game's recent log without the undone entries (`recent_log`,
        kept by the session: no replay of the game), and then the undo itself, so pages
        drop exactly the undone lines (`ComputerPlay.pause_after_undo`)."""
        assert self.session is not None and self.state is not None
        self.selection = EMPTY
        self.history += 1
        self.clear_refusal()
        first, kept = recent_log(self.session)
        extra = self.computer.pause_after_undo()
        self.publish([*kept, {"type": "undone", "seqs": seqs, "by": by}, *extra],
                     state_changed=True, reset=True, journal_from=first)

    def refuse(self, refusal: Refusal, actor: str | None) -> None:
        """Show `refusal` (addressed to `actor` or the toucher) and blink where it was."""
        now = self.clock()
        state = self.state
        if refusal.territory is not None:
            places = [refusal.territory]
        elif state is not None:
            places = self.kind.refusal_places(state, self.selection, actor)
        else:
            places = []
        self.fx.blink(places, now)
        self.refusal = {"code": refusal.code,
                        "message": addressed(refusal, actor, state),
                        "territory": refusal.territory, "player": refusal.toucher,
                        "turn": actor, "at": self.wall()}
        self.refusal_timer.start(now)
        log.info("event=table.refused code=%s territory=%s", refusal.code, refusal.territory)
        self.publish([{"type": "refused", **self.refusal}], state_changed=False)

    # --- phones ----------------------------------------------------------------------------
    def submit(self, command: dict[str, Any], viewer: Viewer) -> Accepted:
        """A command from a phone: check the seat, apply, journal, update. Raises
        `CommandRejected`."""
        if self.session is None:
            raise CommandRejected("no_game", "No game is running; the host starts one.")
        cmd, faces = phone_command(self.state, command, viewer, self.paused,
                                   self.computers.levels)
        try:
            _seq, events = self.session.submit(cmd, faces=faces)
        except RuleError as exc:  # a seat acting out of its turn is forbidden, not a conflict
            raise CommandRejected(exc.code, exc.message,
                                  403 if exc.code == "not_your_turn" else 409) from None
        dicts = [e.to_dict() for e in events]
        revision = self.accept(self.selection, dicts)
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
        check_computer(player, self.computers.levels)
        check_seat(self.state, player, touch=True)
        if isinstance(event, Touch):
            event = Touch(event.territory, player)
        self.on_input(event, seat=player)

    def host_action(self, action: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """The host's `action` (`pi_app.table.host_actions`). Raises `CommandRejected`."""
        return run_host_action(self, action, params)

    def seat_tokens(self) -> dict[str, str] | None:
        """The running game's journaled seat tokens (colour -> token), None if none were."""
        if self.session is None:
            return None
        return self.journal.seat_tokens(self.session.game_id)

    def journal_events(self, first: int, last: int) -> list[dict[str, Any]]:
        """The events of the running game's active journal entries `first`..`last` (for
        readers whose updates the publisher no longer holds), as far back as the game's
        recent log goes (its last `RECENT_ENTRIES` entries, what a phone's reset shows):
        never a replay of the game on this thread for a reader far behind (issue 21.5);
        the older entries reach it as the view's state, the snapshot."""
        if self.session is None:
            return []
        return [e.to_dict() for seq, events in self.session.recent_events(
            publishing.RECENT_ENTRIES) if first <= seq <= last for e in events]

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

    # --- time ------------------------------------------------------------------------------
    def next_deadline(self) -> float | None:
        """When `tick` has something to do next (`pi_app.table.timers`)."""
        return self.timers.next_deadline(self.clock())

    def tick(self) -> None:
        """Periodic work: drop finished effects, then every timed part whose time came."""
        self.fx.prune(self.clock())
        self.timers.tick(self.clock)

    # --- output ----------------------------------------------------------------------------
    def highlight(self) -> Highlight:
        """The selection and any pending decision, as the lights show them."""
        state = self.state
        if state is None:
            return Highlight()
        return self.kind.highlight(state, self.selection, self.facts.now().held)

    def scene(self) -> Scene:
        """The scene of the table now (pure function of the core's fields)."""
        state = self.state
        if state is None:
            return Scene()
        fx = self.fx
        over = self.facts.awaiting(state).status == "over"  # won, or ended by the host
        return self.kind.scene(state, highlight=Highlight() if over else self.highlight(),
                               effects=fx.alive(self.clock()), winner_since=fx.winner_since,
                               last_battle=fx.last_battle, mismatches=self.board.mismatches,
                               over=over)

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool,
                reset: bool = False, journal_from: int = 0) -> int:
        """After any change: lights first (latency), then board tracking, then the web;
        returns the new revision."""
        now = self.clock()
        self.fx.prune(now)
        self.fx.from_events(events, now)
        self.facts.note(events)
        if state_changed:
            self.window.sync(events)
        self.show(self.scene())
        if state_changed:
            if self.board.tracking():
                self.board.refresh(now)
                self.show(self.scene())
            state = self.state
            self._state_copy = state.copy() if state is not None else None
        self.revision += 1
        session = self.session
        snapshot = snapshot_of(self, self._state_copy)
        self.publisher.publish(snapshot, events, reset=reset,
                               journal_seq=session.last_seq if session else None,
                               journal_from=journal_from)
        return self.revision

    # --- for tests and tools ----------------------------------------------------------
    _update = publish  # the name tests used before the core was split

    @property
    def window_timer(self) -> tuple[int, float] | None:
        """The reaction window timer: (window id, deadline), or None."""
        return self.window.timer

    def _computer_due(self) -> float | None:
        return self.computer.deadline(self.clock())
