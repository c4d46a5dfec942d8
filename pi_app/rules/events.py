"""Events a command caused, and the Outcome of applying a command.

Events are cheap: a type string plus a dict of JSON-ready fields.
"""

from __future__ import annotations

from typing import Any, Generic, Protocol, TypeVar


class _Phased(Protocol):
    """A game state of either engine, as far as an `Outcome` needs it."""

    phase: str


StateT = TypeVar("StateT", bound=_Phased)


class Event:
    """Something that happened, e.g. `battle`, `conquered`, `eliminated`, `game_won`."""

    __slots__ = ("data", "type")

    def __init__(self, type: str, data: dict[str, Any] | None = None, /,
                 **fields: Any) -> None:
        self.type = type
        self.data = fields if data is None else (data | fields if fields else data)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: {"type": ..., **fields} (dice tuples become lists)."""
        out: dict[str, Any] = {"type": self.type}
        for key, value in self.data.items():
            out[key] = list(value) if type(value) is tuple else value
        return out

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and other.type == self.type and other.data == self.data

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r})"


class Outcome(Generic[StateT]):
    """The result of `new_game` or `apply`: the state after, and the events caused.

    `Outcome[GameState]` from the board engine, `Outcome[StrikeState]` from RISK Strike's."""

    __slots__ = ("events", "state")

    def __init__(self, state: StateT, events: list[Event]) -> None:
        self.state = state
        self.events = events

    def __repr__(self) -> str:
        return f"Outcome(phase={self.state.phase!r}, events={len(self.events)})"
