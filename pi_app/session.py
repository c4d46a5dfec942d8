"""One journaled game: apply commands with fair dice, journal them, resume and undo by replay.

`GameSession` is driven by the table orchestrator (one writer thread; nothing here is
threaded). `submit` applies a command with a `RecordingSource` over the game's dice,
appends command + draws to the journal (committed, fsynced) and only then returns: an
acknowledged command is never lost. A `RuleError` changes nothing and journals nothing.

Resume and undo are replays of the journal with `ReplaySource`, so they need no random
generator. The dice go on from where the stream stands: new games use derivation version 2
(`FairDice`), whose position each row records (`dice_at`); a game journaled under version 1
(its commitment says so) keeps `FairDiceV1`, whose counter is the number of draws journaled.
Undone commands count in both: their dice were rolled, so the stream never repeats a value
and the whole record stays verifiable with the revealed seed.

With `house_rules.physical_dice` the faces typed by players come with the command
(`submit(command, faces=[...])`); they must be exactly the dice the command rolls. For a
new game they are the first-player roll, one die per player in seat order; when the highest
ties, the refusal (`dice_needed`) names the tied players, and the host sends the same faces
again followed by one re-roll per tied player (in seat order), and so on for further ties.

Every `SNAPSHOT_EVERY` commands the state is also kept in the journal (`save_snapshot`), so
a resume, or an undo, replays only the commands after the latest snapshot before it:
resuming a long game costs reading its rows plus a few hundred commands. A snapshot is a
cache of what the rows say (dropped by an undo or a set-aside before it); without one,
resume and undo replay everything.

A command that wins the game is journaled in the same transaction as the game's `finished`
status and seed reveal; a resumed game whose state has a winner but still reads `running`
(written by an older riskboard) is finished on resume.

The session also keeps the events of its last `LOG_KEPT` active entries (`recent_events`:
the table republishes them as the game's log after an undo or a restart). Commands add to
them, an undo drops the undone entries' events, and a resume asked for a log
(`resume(..., log_entries=n)`) replays from the latest snapshot far enough back to rebuild
them; reaching further back replays from a snapshot too, never the whole game.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from pi_app.dice import (
    AnyFairDice,
    DiceEntryError,
    FairDice,
    PhysicalDice,
    RecordingSource,
    ReplaySource,
    dice_version_of,
    fair_dice,
    fair_draw_count,
    follow_draws,
)
from pi_app.journal import Entry, GameRecord, Journal, JournalCorrupt, JournalError
from pi_app.rules import (
    Command,
    GameState,
    HouseRules,
    RuleError,
    apply,
    command_from_dict,
    new_game,
    state_from_dict,
)
from pi_app.rules.games import house_rules_of, rules_version

log = logging.getLogger("riskboard.session")

SNAPSHOT_EVERY = 500  # commands between two snapshots of the state in the journal
LOG_KEPT = 400  # trailing active entries whose events a session keeps (`recent_events`)


# Events that hand a player a hidden card: undoing them would show the card and let the
# player draw again, so undo refuses them like a roll.
CARD_DRAW_EVENTS = frozenset({"card_drawn", "drew"})


def _replay_one(state: GameState | None, entry: Entry, record: GameRecord) -> Any:
    source = ReplaySource(entry.draws)
    if entry.seq == 0:
        data = entry.command
        outcome = new_game(data["variant"], list(data["players"]),
                           house_rules_of(data["variant"], data["house_rules"]), source)
    else:
        assert state is not None
        outcome = apply(state, command_from_dict(entry.command), source)
    if not source.exhausted:
        raise JournalError(
            f"game {record.game.id} seq {entry.seq}: the command used fewer draws than journaled")
    return outcome


def check_rules_version(record: GameRecord) -> None:
    """Refuse (JournalError, with a sentence for the log and the host) a game journaled
    under another rules version than this code plays: replaying it would be wrong, not just
    fail. Its rows stay as they are."""
    first = next((e for e in record.entries if e.seq == 0), None)
    if first is None or not isinstance(first.command, dict):
        return
    variant = str(first.command.get("variant"))
    journaled = first.command.get("rules_version", 1)
    current = rules_version(variant)
    if journaled != current:
        raise JournalError(
            f"game {record.game.id} was started under the {variant} rules of version "
            f"{journaled}, and this riskboard plays version {current}: its journal would not "
            "replay the same game, so it is not resumed (its rows are kept). Replay it with "
            "the riskboard release that started it, or start a new game.")


def replay_steps(record: GameRecord, until_seq: int | None = None,
                 start: tuple[int, GameState] | None = None
                 ) -> Iterator[tuple[Entry, GameState, list[Any]]]:
    """Replay a game's active entries (up to `until_seq`); yield `(entry, state, events)`.

    `start` = `(seq, state after it)` (a snapshot) replays only the entries after `seq`.
    The state object is the live replay state (mutated by later steps): copy it to keep it.
    """
    check_rules_version(record)
    state: GameState | None = None if start is None else start[1]
    for entry in record.active_entries():
        if start is not None and entry.seq <= start[0]:
            continue
        if until_seq is not None and entry.seq > until_seq:
            return
        try:
            outcome = _replay_one(state, entry, record)
        except RuleError as exc:
            raise JournalError(
                f"game {record.game.id} seq {entry.seq} no longer replays: {exc}") from exc
        except (ValueError, TypeError, KeyError) as exc:  # ReplayMismatch is a ValueError
            raise JournalError(
                f"game {record.game.id} seq {entry.seq}: its journaled draws do not fit the "
                f"command ({exc})") from exc
        state = outcome.state
        yield entry, state, list(outcome.events)


def replay_state(record: GameRecord, until_seq: int | None = None,
                 start: tuple[int, GameState] | None = None) -> GameState:
    """The game state after replaying entries up to and including `until_seq` (all if None),
    from `start` (`(seq, state after it)`, a snapshot) when given."""
    state: GameState | None = None if start is None else start[1]
    for _entry, after, _events in replay_steps(record, until_seq, start):
        state = after
    assert state is not None
    return state


class GameSession:
    """One game in play: its state, its dice and its journal."""

    def __init__(self, journal: Journal, record: GameRecord, state: GameState,
                 dice: AnyFairDice) -> None:
        """Use `GameSession.new` or `GameSession.resume`; this wires the parts together."""
        self.journal = journal
        self.game_id = record.game.id
        self._record = record
        self._state = state
        self._dice = dice
        physical = bool(record.game.house_rules.get("physical_dice", False))
        self._physical = PhysicalDice(dice) if physical else None
        self._recorder = RecordingSource(self._physical or dice)
        self._next_seq = record.entries[-1].seq + 1
        self._status = record.game.status
        self._card_draw_seqs: set[int] = set()
        # seqs up to this one were not replayed on resume (a snapshot): their card draws are
        # learnt by replay if an undo reaches them
        self._card_draws_known_after = -1
        # (seq, events) of the trailing active entries, oldest first, contiguous
        self._recent: deque[tuple[int, list[Any]]] = deque()

    # -- creating and resuming -------------------------------------------------------------

    @classmethod
    def new(cls, journal: Journal, variant: str, players: Sequence[str],
            house_rules: HouseRules | dict[str, Any] | None = None,
            dice: AnyFairDice | None = None, faces: Sequence[int] | None = None
            ) -> GameSession:
        """Start and journal a new game. `dice` defaults to fresh `FairDice` (version 2;
        tests inject a seeded one, or `FairDiceV1` for an old-style game); `faces` are typed
        dice for setup rolls in a physical-dice game."""
        rules = house_rules_of(variant, house_rules)
        fair = dice if dice is not None else FairDice()
        physical = PhysicalDice(fair) if rules.physical_dice else None
        recorder = RecordingSource(physical or fair)
        if physical is not None:
            _load_faces(physical, faces)
        elif faces:
            raise RuleError("dice_not_typed",
                            "This table rolls electronic dice; typed dice are not used.")
        try:
            outcome = new_game(variant, list(players), rules, recorder)
            if physical is not None:
                _check_faces_used(physical)
        except DiceEntryError as exc:
            tie = _first_roll_tie(list(players), recorder.take_draws())
            if exc.code == "dice_needed" and tie:
                raise RuleError("dice_needed", tie) from exc
            raise RuleError(exc.code, exc.message) from exc
        entry = {"type": "new_game", "variant": variant, "players": list(players),
                 "house_rules": rules.to_dict(), "rules_version": rules_version(variant)}
        draws = recorder.take_draws()
        game_id = journal.create_game(variant, list(players), rules.to_dict(), fair.commitment,
                                      fair.reveal(), entry, draws, fair.journal_position)
        log.info("event=session.new game=%d variant=%s players=%s commitment=%s",
                 game_id, variant, ",".join(players), fair.commitment)
        session = cls(journal, journal.load(game_id), outcome.state, fair)
        session._card_draw_seqs = _card_draws(0, outcome.events)
        session._recent.append((0, list(outcome.events)))
        return session

    @classmethod
    def resume(cls, journal: Journal, game_id: int, log_entries: int = 0) -> GameSession:
        """Rebuild a game from its journal (a torn tail is logged and set aside).

        The replay starts from the latest snapshot before the last `log_entries` active
        entries (at most `log_entries + SNAPSHOT_EVERY - 1` commands), so `recent_events`
        has their events at once (0: from the latest snapshot).

        Raises `JournalCorrupt` (and marks the game `corrupt`, rows untouched) when a bad
        row has good rows after it: that is not a torn write, so the host decides.
        """
        started = time.perf_counter()
        record = journal.load(game_id, repair=True)
        at_most = None
        if log_entries > 0:
            active = record.active_entries()
            at_most = active[-log_entries].seq - 1 if len(active) > log_entries else -1
        start = _latest_snapshot(journal, record, at_most)
        state: GameState | None = None if start is None else start[1]
        card_draws: set[int] = set()
        recent: deque[tuple[int, list[Any]]] = deque(maxlen=LOG_KEPT)
        for entry, after, events in replay_steps(record, start=start):
            card_draws |= _card_draws(entry.seq, events)
            recent.append((entry.seq, events))
            state = after
        assert state is not None
        dice = _resumed_dice(record, journal.secret_seed(game_id))
        log.info("event=session.resumed game=%d entries=%d torn_at=%s snapshot=%s ms=%.1f",
                 game_id, len(record.entries), record.torn_at,
                 "none" if start is None else start[0], (time.perf_counter() - started) * 1000)
        session = cls(journal, record, state, dice)
        session._card_draw_seqs = card_draws
        session._card_draws_known_after = -1 if start is None else start[0]
        session._recent = deque(recent)
        if state.winner is not None and session.status == "running":
            journal.finish(game_id)
            session._status = "finished"
            log.warning("event=session.finished_on_resume game=%d winner=%s", game_id,
                        state.winner)
        return session

    @classmethod
    def resume_unfinished(cls, journal: Journal) -> list[GameSession]:
        """Resume every game still running in the journal (service start); a corrupt game is
        logged and left out (marked `corrupt`), so the others and new games still run."""
        sessions = []
        for game_id in journal.game_ids("running"):
            try:
                sessions.append(cls.resume(journal, game_id))
            except JournalCorrupt as exc:
                log.error("event=session.not_resumed game=%d seq=%d reason=corrupt",
                          exc.game_id, exc.seq)
        return sessions

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current game state. Read it; never change it."""
        return self._state

    @property
    def commitment(self) -> str:
        """SHA-256 (hex) of the secret dice seed, published at game start."""
        return self._dice.commitment

    @property
    def dice_position(self) -> tuple[int, ...]:
        """Where this game's dice stream stands, undone draws included: `(block, offset)`
        (version 2) or `(counter,)` (version 1). It only ever moves forward."""
        return self._dice.position

    @property
    def last_seq(self) -> int:
        """Seq of the last journaled entry (0 = the new_game entry)."""
        return self._next_seq - 1

    @property
    def status(self) -> str:
        """The game's journal status: running, finished or abandoned."""
        return self._status

    # -- playing ---------------------------------------------------------------------------

    def submit(self, command: Command | dict[str, Any],
               faces: Sequence[int] | None = None) -> tuple[int, list[Any]]:
        """Apply, journal (durably), then return `(seq, events)`.

        Raises `RuleError` for an illegal command (or wrong typed dice); then nothing
        changes and nothing is journaled.
        """
        if isinstance(command, dict):
            command = command_from_dict(command)
        if self.status != "running":
            raise RuleError("game_over", "This game is over; start a new one.")
        position_before = self._dice.position
        snapshot = None
        if self._physical is not None:
            _load_faces(self._physical, faces)
            snapshot = self._state.copy()
        elif faces:
            raise RuleError("dice_not_typed",
                            "This table rolls electronic dice; typed dice are not used.")
        try:
            outcome = apply(self._state, command, self._recorder)
            if self._physical is not None:
                _check_faces_used(self._physical)
            draws = self._recorder.take_draws()
            seq = self._next_seq
            won = outcome.state.winner is not None
            dice_at = self._dice.journal_position
            self.journal.append(self.game_id, seq, command.to_dict(), draws, finished=won,
                                dice_at=dice_at)
        except RuleError:
            self._rewind(position_before, snapshot, rebuild=False)
            raise
        except DiceEntryError as exc:
            self._rewind(position_before, snapshot, rebuild=snapshot is None)
            raise RuleError(exc.code, exc.message) from exc
        except BaseException:
            self._rewind(position_before, snapshot, rebuild=snapshot is None)
            raise
        self._next_seq = seq + 1
        self._record.entries.append(Entry(seq, command.to_dict(), draws, "", dice_at=dice_at))
        self._state = outcome.state
        self._card_draw_seqs |= _card_draws(seq, outcome.events)
        self._recent.append((seq, list(outcome.events)))
        while len(self._recent) > LOG_KEPT:
            self._recent.popleft()
        if seq % SNAPSHOT_EVERY == 0:
            self._save_snapshot(seq)
        if won:
            self._status = "finished"
            log.info("event=session.finished game=%d winner=%s seed_revealed=yes",
                     self.game_id, self._state.winner)
        return seq, list(outcome.events)

    def _save_snapshot(self, seq: int) -> None:
        """Keep the state after `seq` in the journal; a failure only costs a longer resume."""
        try:
            self.journal.save_snapshot(self.game_id, seq, self._state.to_dict())
        except (sqlite3.Error, JournalError) as exc:
            log.warning("event=session.snapshot_failed game=%d seq=%d error=%s", self.game_id,
                        seq, exc)

    def _rewind(self, position: tuple[int, ...], snapshot: GameState | None,
                rebuild: bool) -> None:
        """Undo a failed submit: no draws kept, dice position back, state as before."""
        self._recorder.take_draws()
        if self._physical is not None:
            self._physical.clear()
        self._dice.position = position
        if snapshot is not None:
            self._state = snapshot
        elif rebuild:
            self._state = replay_state(self._record)

    def undo(self, count: int = 1, override: bool = False) -> list[int]:
        """Revert the last `count` commands by replay (from the latest snapshot before them,
        so late in a long game it costs at most `SNAPSHOT_EVERY` commands); return the
        undone seqs.

        Refuses (`undo_across_roll`) when an undone command drew anything from the dice
        (a roll, or a shuffle: re-shuffling is re-rolling too), and (`undo_across_draw`)
        when it handed a player a hidden card, unless the host sets `override`.
        Undone rows stay in the journal, marked undone; the dice stream never
        goes back, so whatever is rolled after an override is a fresh roll.
        """
        if count < 1:
            raise RuleError("bad_undo", "Undo needs a number of commands, at least 1.")
        if self.status != "running":
            raise RuleError("game_over", "This game is over and its dice are revealed; "
                                         "it cannot be undone.")
        active = [e for e in self._record.active_entries() if e.seq > 0]
        if count > len(active):
            left = len(active)
            raise RuleError("undo_nothing", "Nothing can be undone yet in this game."
                            if not left else f"Only {left} command{'s' if left > 1 else ''} "
                            "can be undone in this game.")
        undone = active[-count:]
        if not override and any(e.draws for e in undone):
            raise RuleError("undo_across_roll",
                            "Dice were rolled (or cards shuffled) since then; undoing would "
                            "mean rolling again. Only the host can override this.")
        if any(e.seq <= self._card_draws_known_after for e in undone):
            # resumed from a snapshot at or after an undone command: learn what the rows
            # from the latest snapshot before them drew
            start = _latest_snapshot(self.journal, self._record, undone[0].seq - 1)
            for entry, _state, events in replay_steps(self._record, start=start):
                self._card_draw_seqs |= _card_draws(entry.seq, events)
            self._card_draws_known_after = -1 if start is None else start[0]
        if not override and any(e.seq in self._card_draw_seqs for e in undone):
            raise RuleError("undo_across_draw",
                            "A card was drawn since then and its owner has seen it; undoing "
                            "would mean drawing again. Only the host can override this.")
        for entry in undone:
            entry.undone = True
        try:
            # the latest snapshot before the undone commands holds what replaying every
            # entry up to it gives (an undo reaching back over a snapshot drops it)
            start = _latest_snapshot(self.journal, self._record)
            state = None if start is None else start[1]
            replayed: list[tuple[int, list[Any]]] = []
            for entry, after, events in replay_steps(self._record, start=start):
                replayed.append((entry.seq, events))
                state = after
            assert state is not None
            self.journal.mark_undone(self.game_id, [e.seq for e in undone])
        except BaseException:
            for entry in undone:
                entry.undone = False
            raise
        self._state = state
        gone = {e.seq for e in undone}
        while self._recent and self._recent[-1][0] in gone:
            self._recent.pop()
        if len(replayed) > len(self._recent):  # the replay reached further back: keep it
            self._recent = deque(replayed[-LOG_KEPT:])
        log.info("event=session.undo game=%d seqs=%s override=%s", self.game_id,
                 ",".join(str(e.seq) for e in undone), "yes" if override else "no")
        return [e.seq for e in undone]

    def recent_events(self, count: int) -> list[tuple[int, list[Any]]]:
        """`(seq, events)` of the game's last `count` active entries, oldest first (all of
        them in a shorter game): what the rules said as each was applied. Kept in memory
        for the last `LOG_KEPT`; older ones are replayed from the latest snapshot before
        them (at most `SNAPSHOT_EVERY` commands more than asked for), never the whole game."""
        wanted = min(count, len(self._record.active_entries()))
        if len(self._recent) < wanted:
            self._recent.extendleft(reversed(self.events_between(
                self._record.active_entries()[-wanted].seq,
                self._recent[0][0] - 1 if self._recent else self.last_seq)))
        return list(self._recent)[-wanted:] if wanted else []

    def last_command(self) -> dict[str, Any] | None:
        """The command of the game's last active entry (None before the first command)."""
        active = self._record.active_entries()
        return dict(active[-1].command) if active and active[-1].seq > 0 else None

    def events_between(self, first: int, last: int) -> list[tuple[int, list[Any]]]:
        """`(seq, events)` of the active entries with seqs `first`..`last`, oldest first,
        from memory when kept, else replayed from the latest snapshot before `first`."""
        if self._recent and self._recent[0][0] <= first:
            return [(seq, events) for seq, events in self._recent if first <= seq <= last]
        start = _latest_snapshot(self.journal, self._record, first - 1) if first > 0 else None
        return [(entry.seq, events) for entry, _state, events
                in replay_steps(self._record, until_seq=last, start=start)
                if entry.seq >= first]

    def end(self, status: str = "abandoned") -> None:
        """The host ends the game (finished or abandoned); the dice seed may then be revealed."""
        self.journal.set_status(self.game_id, status)
        self._status = status
        log.info("event=session.ended game=%d status=%s", self.game_id, status)

    def reveal_seed(self) -> str:
        """Reveal the dice seed (hex). Only once the game is over."""
        if self.status == "running":
            raise RuleError("game_running",
                            "The dice seed is revealed only after the game has ended.")
        return self.journal.reveal(self.game_id)


def _latest_snapshot(journal: Journal, record: GameRecord, at_most: int | None = None
                     ) -> tuple[int, GameState] | None:
    """`(seq, state)` of the latest usable snapshot of the game's active entries (at or
    before seq `at_most` if given), or None."""
    active = record.active_entries()
    last = active[-1].seq if at_most is None else min(at_most, active[-1].seq)
    found = journal.latest_snapshot(record.game.id, last)
    if found is None:
        return None
    seq, data = found
    try:
        # The session types a game's state as GameState whatever its game (as Outcome did
        # before it was generic); a Strike game's is a StrikeState.
        state: GameState = state_from_dict(data)
        if state.variant != record.game.variant:
            raise ValueError(f"a snapshot of a {state.variant} game")
        return seq, state
    except (KeyError, TypeError, ValueError) as exc:
        log.warning("event=session.bad_snapshot game=%d seq=%d error=%s action=replay_all",
                    record.game.id, seq, exc)
        return None


def _resumed_dice(record: GameRecord, seed_hex: str) -> AnyFairDice:
    """The game's dice where its journal left them (derivation version from the commitment):
    version 2 at the last row's recorded position, version 1 at the number of draws."""
    physical = bool(record.game.house_rules.get("physical_dice", False))
    version = dice_version_of(record.game.commitment)
    if version == 1:
        counter = fair_draw_count((d for e in record.entries for d in e.draws), physical)
        return fair_dice(seed_hex, 1, (counter,))
    position = record.entries[-1].dice_at
    if position is not None:
        return fair_dice(seed_hex, version, position)
    log.warning("event=session.dice_position_missing game=%d seq=%d action=rederive",
                record.game.id, record.entries[-1].seq)
    dice = fair_dice(seed_hex, version)
    follow_draws(dice, (d for e in record.entries for d in e.draws), physical)
    return dice


def _first_roll_tie(players: list[str], draws: list[list[Any]]) -> str | None:
    """The sentence for a tied first-player roll of typed dice, or None if none tied.

    Mirrors `rules.setup.roll_for_first`: tied highest players re-roll among themselves.
    """
    if not draws:
        return None  # nobody has rolled yet: no tie to name
    contenders = players
    typed: list[int] = []
    for kind, *rest in draws:
        if kind != "d" or len(rest[0]) != len(contenders):
            return None
        faces = rest[0]
        typed.extend(faces)
        best = max(faces)
        contenders = [p for p, f in zip(contenders, faces) if f == best]
    if len(contenders) < 2:
        return None
    return (f"{' and '.join(contenders)} tied for first; send the {len(typed)} dice typed so "
            f"far ({', '.join(map(str, typed))}) followed by a re-roll of one die each for "
            f"{', '.join(contenders)}, in that order.")


def _card_draws(seq: int, events: Sequence[Any]) -> set[int]:
    """{seq} when the events hand someone a hidden card, else an empty set."""
    return {seq} if any(e.type in CARD_DRAW_EVENTS for e in events) else set()


def _load_faces(physical: PhysicalDice, faces: Sequence[int] | None) -> None:
    physical.clear()
    try:
        physical.enter(faces or ())
    except DiceEntryError as exc:
        raise RuleError(exc.code, exc.message) from exc


def _check_faces_used(physical: PhysicalDice) -> None:
    left = physical.pending
    if left:
        physical.clear()
        raise DiceEntryError("dice_left_over",
                             f"{len(left)} typed dice were not needed; type only the dice rolled.")
