"""The host's actions on the table: one small function per action, with typed parameters.

`HOST_ACTIONS` maps each action's name to its `HostAction`: a parser that turns the web's
untyped parameters into the action's own frozen dataclass (raising `CommandRejected` with
a stable code for bad input) and a function that runs it on the core (loop thread only).
Actions that need a running game say so (`needs_game`): without one they are refused with
`no_game` before their parameters are read.

- new_game (`NewGame`): `variant` (any of the rules' variants, RISK Strike included),
  `players` (colours in seat order; counts as the variant allows), `house_rules` (the
  variant's own set, as a dict), for physical dice `faces` (the typed faces of the setup
  rolls), `seat_tokens` (colour -> token of each new seat) and `computers` (colour ->
  level: seats the Pi plays from the start), journaled with the new game and the end of
  the old one in one transaction.
- undo (`Undo`): `count` commands (from 1), `override` (the host may undo past a roll).
- pause / resume (`Pause`): journaled, so a restart keeps a paused game paused.
- end_game: ends the running game and reveals the dice seed.
- seat_tokens (`SeatTokens`): `tokens` (colour -> token), journaled for the running game
  (a seat reissued).
- computer (`ComputerSettings`, issue 16, journaled): `seats` {colour: "easy"|"normal"|
  "hard", or null to give the seat back to a phone}, `paused` (the computer stops, the
  game does not), `confirm_after_s` (button boards: go on after this long without
  Confirm; 0 waits for Confirm), `trust_lights` (one held step per computer turn, issue 32).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pi_app.computer.seats import ComputerSeats
from pi_app.dice import FairDice
from pi_app.journal import Journal
from pi_app.rules import RuleError
from pi_app.session import GameSession
from pi_app.table.computer_play import ComputerPlay
from pi_app.table.effects import Effects
from pi_app.table.gestures import EMPTY, Selection
from pi_app.table.publishing import opening_events
from pi_app.table.timers import ReactionWindowTimer
from pi_app.table_api import CommandRejected

log = logging.getLogger("riskboard.table")


class HostedTable(Protocol):
    """What the host's actions use of the table (`TableCore`): the journal and the dice of a
    new game, the session and its seats, the pause, the selection, the light effects, the
    reaction window, the computer's play, and publishing (`after_undo` for an undo)."""

    journal: Journal
    session: GameSession | None
    computers: ComputerSeats
    computer: ComputerPlay
    selection: Selection
    paused: bool
    revision: int
    fx: Effects
    window: ReactionWindowTimer

    def dice(self) -> FairDice: ...

    def clock(self) -> float: ...

    def clear_refusal(self) -> None: ...

    def after_undo(self, seqs: list[int], by: str) -> None: ...

    def publish(self, events: list[dict[str, Any]], *, state_changed: bool,
                reset: bool = False) -> int: ...


def seat_tokens_of(value: Any, players: Sequence[str] | None) -> dict[str, str]:
    """`value` as colour -> token, one token per player (of `players` when given)."""
    if (not isinstance(value, Mapping) or not value
            or not all(isinstance(k, str) and isinstance(v, str) and v
                       for k, v in value.items())
            or (players is not None and set(value) != set(players))):
        raise CommandRejected("bad_seat_tokens", "Give one seat token per player.", 400)
    return dict(value)


@dataclass(frozen=True)
class NewGame:
    """A new game's parameters, checked."""

    variant: str
    players: tuple[str, ...]
    house_rules: dict[str, Any]
    faces: Any
    seat_tokens: dict[str, str] | None
    computers: ComputerSeats

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> NewGame:
        """Check the web's parameters (bad ones: `CommandRejected`, 400)."""
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
            tokens = seat_tokens_of(tokens, players)
        try:
            computers = ComputerSeats().configure({"seats": params.get("computers") or {}},
                                                  list(players))
        except ValueError as exc:
            raise CommandRejected("bad_computer", str(exc), 400) from None
        return cls(variant, tuple(players), dict(house_rules), params.get("faces"), tokens,
                   computers)


def new_game(core: HostedTable, p: NewGame) -> dict[str, Any]:
    """Start a new game, ending the running one, in one journal transaction."""
    old = core.session if core.session is not None and core.session.status == "running" \
        else None
    journal = core.journal
    try:
        # One transaction: a crash leaves the old game running and no new one, or the
        # new game with its seats and the old one ended, never two running games.
        with journal.atomic():
            session = GameSession.new(journal, p.variant, list(p.players), dict(p.house_rules),
                                      dice=core.dice(), faces=p.faces)
            if old is not None:
                journal.set_status(old.game_id, "abandoned")
            if p.seat_tokens is not None:
                journal.set_seat_tokens(session.game_id, p.seat_tokens)
            if p.computers.levels:
                journal.set_computer_seats(session.game_id, p.computers.to_journal())
    except (RuleError, ValueError) as exc:
        code = getattr(exc, "code", "bad_house_rules")
        raise CommandRejected(code, getattr(exc, "message", str(exc)), 400) from None
    if old is not None:
        log.info("event=table.replaced game=%d by_game=%d", old.game_id, session.game_id)
    core.session = session
    core.computers = p.computers
    core.selection = EMPTY
    core.fx.restart(session.state.current_player, core.clock())
    core.clear_refusal()
    core.paused = False
    core.window.timer = None
    core.publish(opening_events(session), state_changed=True, reset=True)
    return {"game_id": session.game_id, "commitment": session.commitment}


@dataclass(frozen=True)
class Undo:
    """How many commands the host takes back, and whether past a roll."""

    count: int = 1
    override: bool = False

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> Undo:
        """`count` a whole number from 1 (400 `bad_count` otherwise)."""
        count = params.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise CommandRejected("bad_count", "count must be a whole number from 1.", 400)
        return cls(count, bool(params.get("override", False)))


def undo(core: HostedTable, p: Undo) -> dict[str, Any]:
    """Take back `count` commands (journaled); published as the host's undo."""
    assert core.session is not None
    try:
        seqs = core.session.undo(p.count, override=p.override)
    except RuleError as exc:
        raise CommandRejected(exc.code, exc.message) from None
    core.after_undo(seqs, "host")
    return {"undone": seqs, "seq": core.revision}


@dataclass(frozen=True)
class Pause:
    """Pause (True) or resume (False) the game."""

    paused: bool


def pause(core: HostedTable, p: Pause) -> dict[str, Any]:
    """Journaled first (a restart keeps it); a resumed window gets its whole time again."""
    if core.session is not None:
        core.journal.set_paused(core.session.game_id, p.paused)
    core.paused = p.paused
    core.window.restart()
    core.publish([{"type": "paused" if p.paused else "resumed"}], state_changed=False)
    return {"paused": core.paused}


@dataclass(frozen=True)
class NoParams:
    """An action without parameters."""

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> NoParams:
        """Nothing to read."""
        return cls()


def end_game(core: HostedTable, p: NoParams) -> dict[str, Any]:
    """End the running game (abandoned) and reveal its dice seed."""
    session = core.session
    assert session is not None
    if session.status == "running":
        session.end("abandoned")
    seed = session.reveal_seed()
    core.publish([{"type": "seed_revealed", "seed": seed}], state_changed=True)
    return {"seed": seed, "game_id": session.game_id}


@dataclass(frozen=True)
class SeatTokens:
    """The running game's seat tokens (colour -> token)."""

    tokens: dict[str, str]

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> SeatTokens:
        """One non-empty token per colour (400 `bad_seat_tokens` otherwise)."""
        return cls(seat_tokens_of(params.get("tokens"), None))


def seat_tokens(core: HostedTable, p: SeatTokens) -> dict[str, Any]:
    """Journal the running game's seat tokens."""
    assert core.session is not None
    core.journal.set_seat_tokens(core.session.game_id, p.tokens)
    return {"game_id": core.session.game_id}


@dataclass(frozen=True)
class ComputerSettings:
    """The host's computer-seat settings as sent (checked by `ComputerSeats.configure`)."""

    settings: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, params: Mapping[str, Any]) -> ComputerSettings:
        """Kept whole: the seats check them against the game's players."""
        return cls(dict(params))


def computer(core: HostedTable, p: ComputerSettings) -> dict[str, Any]:
    """Set the computer seats (journaled)."""
    return core.computer.configure(p.settings)


@dataclass(frozen=True)
class HostAction:
    """One host action: its parameters' parser and its function."""

    parse: Callable[[Mapping[str, Any]], Any]
    run: Callable[[HostedTable, Any], dict[str, Any]]
    needs_game: bool = False


HOST_ACTIONS: dict[str, HostAction] = {
    "new_game": HostAction(NewGame.parse, new_game),
    "undo": HostAction(Undo.parse, undo, needs_game=True),
    "pause": HostAction(lambda _params: Pause(True), pause),
    "resume": HostAction(lambda _params: Pause(False), pause),
    "end_game": HostAction(NoParams.parse, end_game, needs_game=True),
    "seat_tokens": HostAction(SeatTokens.parse, seat_tokens, needs_game=True),
    "computer": HostAction(ComputerSettings.parse, computer),
}


def run_host_action(core: HostedTable, action: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Run the host's `action` with `params` on `core`. Raises `CommandRejected`."""
    entry = HOST_ACTIONS.get(action)
    if entry is None:
        raise CommandRejected("unknown_action", f"There is no host action {action!r}.", 400)
    if entry.needs_game and core.session is None:
        raise CommandRejected("no_game", "No game is running.")
    return entry.run(core, entry.parse(params))
