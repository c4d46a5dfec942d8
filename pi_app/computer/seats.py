"""Computer seats at the real table: which seats the Pi plays, and the pace it plays at.

The table loop (`pi_app.table.loop.TableCore`) owns a `ComputerSeats`. When the game
waits for a computer seat, the loop asks it for the seat's command (`decide`), decided from
that seat's redacted view only, and submits it through the same journaled path as a
phone's command. Each step is announced first (`announcement`: one public event with the
sentence every phone shows, "Yellow (computer) attacks Ukraine from Ural with 3 dice") and
lit on the board in the computer's colour with the "move pieces here" pattern (`lights`).
Then the computer holds until the humans have moved its pieces: on a board with NFC
markers until board tracking says the board matches (and the readings settled), on a
button board until someone presses Confirm, or, if the host set one, until
`confirm_after_s` seconds pass. Decisions the game needs at once (its defence dice, its
move-in after a conquest) never wait and ask no one.

The host's settings are a host action journaled with the game (`to_journal` /
`from_journal`): the seats and their levels, `paused` (the computer stops; the game does
not) and `confirm_after_s`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pi_app.computer.player import ComputerPlayer
from pi_app.redaction import redact
from pi_app.rules import Command, is_strike, load_map
from pi_app.rules.board import load_roster

LEVELS = ("easy", "normal", "hard")
SETTINGS_KEY = ""  # the journal row holding the settings, beside one row per seat
BOARD = load_map()
_VERBS_WITHOUT_PIECES = {"end_attack", "end_turn", "choose_defence", "trade_cards", "pick_hq"}


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
    if kind == "blitz":
        return (f"{who} attacks {_place(command['target'])} from "
                f"{_place(command['source'])} until it falls")
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


@dataclass
class Hold:
    """The step the computer waits on: the humans move its pieces, then it goes on."""

    player: str
    command: dict[str, Any]
    since: float
    territories: tuple[str, ...]
    count: int | None


@dataclass
class ComputerSeats:
    """The seats the Pi plays in the running game, its settings and the step it holds."""

    levels: dict[str, str] = field(default_factory=dict)
    paused: bool = False
    confirm_after_s: float = 0.0  # button boards: go on after this long without Confirm
    hold: Hold | None = None
    _players: dict[str, ComputerPlayer] = field(default_factory=dict)

    # --- the host's settings ----------------------------------------------------------
    @classmethod
    def from_journal(cls, rows: dict[str, str]) -> ComputerSeats:
        """Settings as `Journal.computer_seats` gives them back."""
        settings = json.loads(rows.get(SETTINGS_KEY) or "{}")
        return cls({p: level for p, level in rows.items() if p != SETTINGS_KEY},
                   bool(settings.get("paused", False)),
                   float(settings.get("confirm_after_s", 0.0)))

    def to_journal(self) -> dict[str, str]:
        """Rows for `Journal.set_computer_seats`."""
        settings = {"paused": self.paused, "confirm_after_s": self.confirm_after_s}
        return {**self.levels, SETTINGS_KEY: json.dumps(settings, sort_keys=True)}

    def configure(self, params: dict[str, Any], players: list[str]) -> ComputerSeats:
        """The settings after the host action `computer` with `params` (raises ValueError
        with a sentence): `seats` {colour: level or null (a human seat again)}, `paused`,
        `confirm_after_s` (0 to 600)."""
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
        hold = self.hold if self.hold is not None and self.hold.player in levels else None
        return ComputerSeats(levels, paused, float(wait), hold)

    def public(self) -> dict[str, Any]:
        """What every page may know: who is a computer, at what level, and whether it waits."""
        return {"seats": dict(self.levels), "paused": self.paused,
                "confirm_after_s": self.confirm_after_s,
                "holding": None if self.hold is None else {
                    "player": self.hold.player, "territories": list(self.hold.territories)}}

    # --- playing ------------------------------------------------------------------------
    def to_play(self, state: Any, awaited: list[str]) -> str | None:
        """The computer seat the game waits for now, if any (and the computer may act)."""
        if self.paused or state is None or state.winner is not None:
            return None
        for seat in awaited:
            if seat in self.levels:
                return seat
        return None

    def must_wait(self, state: Any) -> bool:
        """True when its next decision waits for the humans (its own turn's next step),
        False when the game needs it now (a defence, a move-in)."""
        if self.hold is None:
            return False
        return is_strike(state) or state.pending is None

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

    def held_step(self, command: dict[str, Any], now: float) -> Hold | None:
        """The hold a played command leaves (None: no pieces to move)."""
        kind = command.get("type")
        if kind in _VERBS_WITHOUT_PIECES or str(kind).startswith("strike_"):
            return None
        if kind == "move_in" and self.hold is not None:
            return Hold(command["player"], command, now, self.hold.territories,
                        command["count"])
        places = tuple(command[k] for k in ("source", "target", "territory") if k in command)
        count = command.get("count") if isinstance(command.get("count"), int) else None
        return Hold(command["player"], command, now, places, count)

    def release_due(self, now: float, nfc: bool, board_matches: bool) -> bool:
        """Whether the held step is done: NFC boards when the board matches, button boards
        after `confirm_after_s` (when set); Confirm releases any board (`release`)."""
        hold = self.hold
        if hold is None:
            return True
        if nfc and board_matches and hold.command.get("type") not in ("place", "fortify",
                                                                       "move_in"):
            return True  # a conquest or a claim shows in the markers' colours
        return self.confirm_after_s > 0 and now >= hold.since + self.confirm_after_s

    def next_release(self) -> float | None:
        """When a held step releases by itself (None: only Confirm or the board)."""
        if self.hold is None or self.confirm_after_s <= 0:
            return None
        return self.hold.since + self.confirm_after_s


def default_levels(players: list[str], level: str = "normal") -> dict[str, str]:
    """Every seat a computer (`serve --sim --autoplay`)."""
    roster = set(load_roster().colours)
    return {p: level for p in players if p in roster}
