"""Computer seats at the real table: which seats the Pi plays, and the pace it plays at.

The table loop (`pi_app.table.loop.TableCore`) owns a `ComputerSeats`. When the game
waits for a computer seat, the loop asks it for the seat's command (`decide`), decided from
that seat's redacted view only, and submits it through the same journaled path as a
phone's command, announced first (`announcement`: one public event with the sentence the
log shows, "Yellow (computer) attacks Ukraine from Ural with 3 dice").

The humans copy its moves onto the board one held step at a time, not move by move: the
computer plays a whole phase (`gather`: its placements; then its attacks, move-ins and
fortify; the claims and setup placements of consecutive computer seats together; with the
host's `trust_lights` its whole turn) and then holds that step (`Hold`: its moves, its
placements per territory, the territories to copy, lit in their owners' colours). The
step waits until the humans have moved the pieces: on a board with NFC markers until board
tracking says the board matches (claims and conquests; army counts need Confirm), on a
button board until someone presses Confirm, or, if the host set one, until
`confirm_after_s` seconds pass. It waits even when the turn has passed to another seat.
Decisions the game needs at once (its defence dice, its move-in after a conquest) never
wait and ask no one.

The host's settings are a host action journaled with the game (`to_journal` /
`from_journal`): the seats and their levels, `paused` (the computer stops; the game does
not), `confirm_after_s` and `trust_lights`.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pi_app.computer.player import ComputerPlayer
from pi_app.redaction import redact
from pi_app.rules import Command, game_info, load_map
from pi_app.rules.board import load_roster
from pi_app.rules.state import ATTACK, CLAIM, FORTIFY, SETUP_PLACE

LEVELS = ("easy", "normal", "hard")
SETTINGS_KEY = ""  # the journal row holding the settings, beside one row per seat
BOARD = load_map()
_VERBS_WITHOUT_PIECES = {"end_attack", "end_turn", "choose_defence", "trade_cards", "pick_hq"}
_PLACING = ("place", "place_neutral")
_COUNTS = (*_PLACING, "fortify", "move_in")  # army counts, which no marker shows
SETUP_PHASES = (CLAIM, SETUP_PLACE)


def colour_name(colour: str) -> str:
    """A seat colour as players read it ("yellow" -> "Yellow")."""
    return colour.replace("-", " ").capitalize()


def _place(territory: str) -> str:
    return BOARD.names.get(territory, territory)


def describe(command: dict[str, Any]) -> str:
    """The sentence every phone shows for a computer's command (hidden parts left out)."""
    who = f"{colour_name(command['player'])} (computer)"
    kind = command.get("type")
    if kind == "attack":
        return (f"{who} attacks {_place(command['target'])} from "
                f"{_place(command['source'])} with {command['dice']} dice")
    if kind == "blitz":  # said before it runs: it may stop before the target falls
        return f"{who} blitzes {_place(command['target'])} from {_place(command['source'])}"
    if kind in ("place", "place_neutral"):
        n = command.get("count", 1)
        whose = "neutral " if kind == "place_neutral" else ""
        return (f"{who} places {n} {whose}{'army' if n == 1 else 'armies'} on "
                f"{_place(command['territory'])}")
    if kind == "claim":
        return f"{who} claims {_place(command['territory'])}"
    if kind == "move_in":
        return f"{who} moves {command['count']} armies in"
    if kind == "fortify":
        return (f"{who} moves {command['count']} armies from {_place(command['source'])} "
                f"to {_place(command['target'])}")
    if kind == "trade_cards":
        return f"{who} trades a set of cards"
    if kind == "choose_defence":
        return f"{who} defends with {command['dice']} dice"
    if kind == "pick_hq":
        return f"{who} has picked its headquarters"
    if kind == "end_attack":
        return f"{who} stops attacking"
    if kind == "end_turn":
        return f"{who} ends its turn"
    return f"{who} plays {str(kind).replace('_', ' ')}"


def public_command(command: dict[str, Any]) -> dict[str, Any]:
    """The command as the announcement shows it: a Capital HQ pick keeps no territory."""
    if command.get("type") == "pick_hq":
        return {"type": "pick_hq", "player": command["player"]}
    return dict(command)


@dataclass(frozen=True)
class Before:
    """What a computer's command is about to change, read before it is played: the phase
    it is played in and each territory it moves pieces on, with that territory's owner and
    armies then (`before_move`)."""

    phase: str
    places: tuple[str, ...]
    look: Mapping[str, tuple[str | None, int]]


def before_move(command: dict[str, Any], state: Any) -> Before:
    """The `Before` of `command` in `state` (no places: a command without pieces to move,
    such as a card trade, a defence or the end of a phase)."""
    kind = command.get("type")
    if kind in _VERBS_WITHOUT_PIECES or str(kind).startswith("strike_"):
        places: tuple[str, ...] = ()
    elif kind == "move_in" and state.pending is not None:
        places = (str(state.pending["from"]), str(state.pending["to"]))
    else:
        places = tuple(command[k] for k in ("source", "target", "territory") if k in command)
    look = {t: (state.owner.get(t), int(state.armies.get(t, 0))) for t in places}
    return Before(str(state.phase), places, look)


def _stage(phase: str, trust_lights: bool) -> str:
    """The part of the game one held step gathers: each setup phase; the placing of a
    turn, then its attacks and fortify (with `trust_lights`, the whole turn)."""
    if phase in SETUP_PHASES:
        return phase
    if trust_lights:
        return "turn"
    return "attack" if phase in (ATTACK, FORTIFY) else phase


@dataclass
class Hold:
    """One step the humans copy onto the board: the computer's moves of a whole phase.

    While the computer plays the phase the hold gathers its moves (`add`); once the phase
    is over it waits (`since` set) until Confirm, the board or the host's time releases it.
    For the claims and setup placements of consecutive computer seats one hold gathers the
    moves of each of them."""

    player: str  # the seat whose phase it gathers (the first, for a gathered setup step)
    stage: str  # `_stage` of the phase it gathers
    turn: int
    moves: list[dict[str, Any]] = field(default_factory=list)  # public commands, in order
    before: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    since: float | None = None  # when it began to wait (None: still gathering)

    @property
    def waiting(self) -> bool:
        """The phase is over: the table waits for the humans to copy it."""
        return self.since is not None

    @property
    def territories(self) -> tuple[str, ...]:
        """Every territory the step moved pieces on, in the order it first did."""
        return tuple(self.before)

    @property
    def command(self) -> dict[str, Any]:
        """The step's last move."""
        return self.moves[-1]

    @property
    def players(self) -> list[str]:
        """The seats whose moves the step holds, in order."""
        return list(dict.fromkeys(m["player"] for m in self.moves))

    @property
    def count(self) -> int | None:
        """Armies the step placed, all seats together (None: it placed none)."""
        counts = [int(m.get("count", 1)) for m in self.moves if m["type"] in _PLACING]
        return sum(counts) if counts else None

    def placed(self) -> list[dict[str, Any]]:
        """The step's placements added up per seat and territory, in the order first
        placed: [{"player", "territory", "n"}]."""
        parts: dict[tuple[str, str], int] = {}
        for move in self.moves:
            if move["type"] in _PLACING:
                key = (move["player"], move["territory"])
                parts[key] = parts.get(key, 0) + int(move.get("count", 1))
        return [{"player": p, "territory": t, "n": n} for (p, t), n in parts.items()]

    def add(self, command: dict[str, Any], before: Before) -> None:
        """Gather a move the computer played (`before`: read before it was played)."""
        self.moves.append(public_command(command))
        for territory in before.places:
            self.before.setdefault(territory, before.look[territory])

    def changes(self, state: Any) -> tuple[tuple[str, int], ...]:
        """Each territory to copy with the pieces of its owner's colour the step put on it
        (0: it only took pieces away)."""
        out = []
        for territory, (owner, armies) in self.before.items():
            now = int(state.armies.get(territory, 0))
            added = now - armies if state.owner.get(territory) == owner else now
            out.append((territory, max(0, added)))
        return tuple(out)

    def markers_show_it(self) -> bool:
        """Whether an NFC board's markers show the whole step (claims and conquests, no
        army counts)."""
        return not any(m["type"] in _COUNTS for m in self.moves)


@dataclass
class ComputerSeats:
    """The seats the Pi plays in the running game, its settings and the step it holds."""

    levels: dict[str, str] = field(default_factory=dict)
    paused: bool = False
    confirm_after_s: float = 0.0  # button boards: go on after this long without Confirm
    trust_lights: bool = False  # one held step per computer turn (the host trusts the lights)
    hold: Hold | None = None
    _players: dict[str, ComputerPlayer] = field(default_factory=dict)

    # --- the host's settings ----------------------------------------------------------
    @classmethod
    def from_journal(cls, rows: dict[str, str]) -> ComputerSeats:
        """Settings as `Journal.computer_seats` gives them back."""
        settings = json.loads(rows.get(SETTINGS_KEY) or "{}")
        return cls({p: level for p, level in rows.items() if p != SETTINGS_KEY},
                   bool(settings.get("paused", False)),
                   float(settings.get("confirm_after_s", 0.0)),
                   bool(settings.get("trust_lights", False)))

    def to_journal(self) -> dict[str, str]:
        """Rows for `Journal.set_computer_seats`."""
        settings = {"paused": self.paused, "confirm_after_s": self.confirm_after_s,
                    "trust_lights": self.trust_lights}
        return {**self.levels, SETTINGS_KEY: json.dumps(settings, sort_keys=True)}

    def configure(self, params: dict[str, Any], players: list[str]) -> ComputerSeats:
        """The settings after the host action `computer` with `params` (raises ValueError
        with a sentence): `seats` {colour: level or null (a human seat again)}, `paused`,
        `confirm_after_s` (0 to 600), `trust_lights` (one Confirm per computer turn)."""
        levels = dict(self.levels)
        seats = params.get("seats", {})
        if not isinstance(seats, dict):
            raise ValueError("Give the computer seats as colour: level.")
        for colour, level in seats.items():
            if colour not in players:
                raise ValueError(f"There is no {colour} seat in this game.")
            if level is None:
                levels.pop(colour, None)
            elif level in LEVELS:
                levels[colour] = level
            else:
                raise ValueError(f"A computer plays easy, normal or hard, not {level!r}.")
        paused = params.get("paused", self.paused)
        if not isinstance(paused, bool):
            raise ValueError("paused is true or false.")
        wait = params.get("confirm_after_s", self.confirm_after_s)
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 <= wait <= 600:
            raise ValueError("confirm_after_s is a number of seconds from 0 to 600.")
        trust = params.get("trust_lights", self.trust_lights)
        if not isinstance(trust, bool):
            raise ValueError("trust_lights is true or false.")
        hold = self.hold
        if hold is not None and not set(hold.players) <= set(levels):
            hold = None  # a seat given back to a phone: its player copies their own moves
        return ComputerSeats(levels, paused, float(wait), trust, hold)

    def public(self) -> dict[str, Any]:
        """What every page may know: who is a computer, at what level, the host's settings,
        and the step the table waits for the humans to copy (`holding`, None while none
        waits: its seat, the territories to copy, its moves as `public_command` gives them,
        the armies it placed (`count`) and its placements per territory (`placed`))."""
        hold = self.waiting()
        return {"seats": dict(self.levels), "paused": self.paused,
                "confirm_after_s": self.confirm_after_s, "trust_lights": self.trust_lights,
                "holding": None if hold is None else {
                    "player": hold.player, "players": hold.players,
                    "territories": list(hold.territories), "moves": list(hold.moves),
                    "count": hold.count, "placed": hold.placed()}}

    # --- playing ------------------------------------------------------------------------
    def to_play(self, state: Any, awaited: list[str]) -> str | None:
        """The computer seat the game waits for now, if any (and the computer may act)."""
        if self.paused or state is None or state.winner is not None:
            return None
        for seat in awaited:
            if seat in self.levels:
                return seat
        return None

    def waiting(self) -> Hold | None:
        """The held step the table waits for the humans to copy (None while the computer
        still plays its phase, or is paused)."""
        hold = self.hold
        return hold if hold is not None and hold.waiting and not self.paused else None

    def must_wait(self, state: Any) -> bool:
        """True when its next decision waits for the humans to copy its held step, False
        when the game needs it now (a defence, a move-in) or it still plays its phase."""
        if self.waiting() is None:
            return False
        return game_info(state.variant).card_game or state.pending is None

    def decide(self, state: Any, seat: str) -> Command:
        """The command `seat` plays now, decided from its redacted view only."""
        player = self._players.get(seat)
        if player is None or player.level != self.levels[seat]:
            player = self._players[seat] = ComputerPlayer(self.levels[seat])
        return player.decide(redact(state, seat))

    def announcement(self, command: dict[str, Any]) -> dict[str, Any]:
        """The public event announcing `command` before it is played."""
        return {"type": "computer_move", "player": command["player"],
                "level": self.levels.get(command["player"]),
                "command": public_command(command), "text": describe(command)}

    def gather(self, command: dict[str, Any], before: Before, state: Any, now: float) -> None:
        """After the computer played `command` (`before`: read before it was played; `state`
        after it): gather its pieces into the step being played, and make that step wait
        for the humans once its phase is over (see `_stage`; the setup's phases go on
        while the next seat is a computer seat too)."""
        hold = self.hold
        if before.places and (hold is None or not hold.waiting):
            if hold is None:
                hold = self.hold = Hold(command["player"],
                                        _stage(before.phase, self.trust_lights), int(state.turn))
            hold.add(command, before)
        if hold is not None and not hold.waiting and self._stage_over(hold, state):
            hold.since = now

    def _stage_over(self, hold: Hold, state: Any) -> bool:
        if state.winner is not None:
            return True
        if hold.stage in SETUP_PHASES:
            nxt = state.pending["player"] if state.pending else state.current_player
            return state.phase != hold.stage or nxt not in self.levels
        if state.current_player != hold.player or int(state.turn) != hold.turn:
            return True  # the turn passed
        return _stage(str(state.phase), self.trust_lights) != hold.stage

    def release_due(self, now: float, nfc: bool, board_matches: bool) -> bool:
        """Whether the held step is done: NFC boards when the board matches (and the step
        holds no army counts), button boards after `confirm_after_s` (when set); Confirm
        releases any board (`ComputerPlay.on_input`)."""
        hold = self.waiting()
        if hold is None:
            return True
        if nfc and board_matches and hold.markers_show_it():
            return True  # a conquest or a claim shows in the markers' colours
        return self.confirm_after_s > 0 and now >= self._since() + self.confirm_after_s

    def next_release(self) -> float | None:
        """When a held step releases by itself (None: only Confirm or the board)."""
        if self.waiting() is None or self.confirm_after_s <= 0:
            return None
        return self._since() + self.confirm_after_s

    def _since(self) -> float:
        assert self.hold is not None and self.hold.since is not None
        return self.hold.since


def default_levels(players: list[str], level: str = "normal") -> dict[str, str]:
    """Every seat a computer (`serve --sim --autoplay`)."""
    roster = set(load_roster().colours)
    return {p: level for p in players if p in roster}
