"""Typed commands, one per player intent. Each names the acting player (a colour id).

`cmd.to_dict()` gives {"type": ..., fields...}; `command_from_dict(d)` builds one back or
raises RuleError("bad_command") naming the problem.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, ClassVar

from pi_app.rules.errors import RuleError


@dataclass(frozen=True, slots=True)
class Command:
    """Base of every command: `player` is the colour id of who acts."""

    type: ClassVar[str] = "command"
    player: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form with a "type" key."""
        data: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class Claim(Command):
    """Setup (claim method): put 1 army on an unclaimed territory."""

    type: ClassVar[str] = "claim"
    territory: str


@dataclass(frozen=True, slots=True)
class Place(Command):
    """Place armies from your reserve on your territory (setup: exactly 1 at a time)."""

    type: ClassVar[str] = "place"
    territory: str
    count: int = 1


@dataclass(frozen=True, slots=True)
class TradeCards(Command):
    """Trade a set of 3 cards from your hand for armies."""

    type: ClassVar[str] = "trade_cards"
    cards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Attack(Command):
    """Attack `target` from `source` rolling `dice` attack dice."""

    type: ClassVar[str] = "attack"
    source: str
    target: str
    dice: int


@dataclass(frozen=True, slots=True)
class ChooseDefence(Command):
    """The defender's answer to a pending attack: how many defence dice to roll."""

    type: ClassVar[str] = "choose_defence"
    dice: int


@dataclass(frozen=True, slots=True)
class Blitz(Command):
    """Repeat maximum-dice rolls until `target` falls or `source` is down to `stop_at` armies.

    Both sides always roll the most dice allowed, even when the house rule lets the defender
    choose (a documented decision, see `pi_app.rules.engine`).
    """

    type: ClassVar[str] = "blitz"
    source: str
    target: str
    stop_at: int = 1


@dataclass(frozen=True, slots=True)
class MoveIn(Command):
    """After a conquest: move `count` armies into the conquered territory."""

    type: ClassVar[str] = "move_in"
    count: int


@dataclass(frozen=True, slots=True)
class EndAttack(Command):
    """Finish attacking and go to the fortify phase."""

    type: ClassVar[str] = "end_attack"


@dataclass(frozen=True, slots=True)
class Fortify(Command):
    """The one fortify move of the turn; it ends the turn."""

    type: ClassVar[str] = "fortify"
    source: str
    target: str
    count: int


@dataclass(frozen=True, slots=True)
class EndTurn(Command):
    """End the turn now (skipping attack and/or fortify)."""

    type: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class PickHQ(Command):
    """Capital RISK: secretly choose one of your territories as headquarters (any seat, any
    order; a pick may be changed until everyone has picked and they are revealed)."""

    type: ClassVar[str] = "pick_hq"
    territory: str


@dataclass(frozen=True, slots=True)
class PlaceNeutral(Command):
    """Two-player setup: put `count` of the third army's reserve (neutral, or the Allied
    Army with `allied_initial = "free"`) on one of its territories, as part of your placing
    turn."""

    type: ClassVar[str] = "place_neutral"
    territory: str
    count: int = 1


COMMAND_TYPES: dict[str, type[Command]] = {
    cls.type: cls
    for cls in (Claim, Place, TradeCards, Attack, ChooseDefence, Blitz, MoveIn, EndAttack,
                Fortify, EndTurn, PickHQ, PlaceNeutral)
}


def register_command(cls: type[Command]) -> type[Command]:
    """Add a variant's command class to the registry used by `command_from_dict`."""
    COMMAND_TYPES[cls.type] = cls
    return cls


def _field_value(annotation: str, value: Any) -> tuple[bool, Any]:
    """Whether `value` fits a command field annotated `annotation`, and the value to store."""
    if annotation.endswith(" | None"):
        if value is None:
            return True, None
        annotation = annotation[: -len(" | None")]
    if annotation == "str":
        return isinstance(value, str), value
    if annotation == "int":
        return isinstance(value, int) and not isinstance(value, bool), value
    if annotation == "tuple[str, ...]":
        ok = isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
        return ok, tuple(value) if ok else value
    raise AssertionError(f"unhandled field annotation {annotation}")  # pragma: no cover


def build_command(data: Any, types: dict[str, type[Command]]) -> Command:
    """Build a command of the registry `types` from its dict form, checking the type, the
    fields and their value types; a malformed one raises `bad_command` naming the problem."""
    if not isinstance(data, dict):
        raise RuleError("bad_command", "a command must be an object")
    kind = data.get("type")
    cls = types.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise RuleError("bad_command", f"unknown command type {kind!r}")
    values: dict[str, Any] = {}
    expected = {f.name: f for f in fields(cls)}
    for key in data:
        if key != "type" and key not in expected:
            raise RuleError("bad_command", f"{kind} has no field {key!r}")
    for name, f in expected.items():
        if name not in data:
            if f.default is not MISSING:
                continue
            raise RuleError("bad_command", f"{kind} is missing field {name!r}")
        ok, value = _field_value(str(f.type), data[name])
        if not ok:
            raise RuleError("bad_command", f"{kind}.{name} has a bad value {data[name]!r}")
        values[name] = value
    return cls(**values)


def command_from_dict(data: Any) -> Command:
    """Build a board-game command from its dict form (see `build_command`)."""
    return build_command(data, COMMAND_TYPES)
