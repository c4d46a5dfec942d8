"""What the bring-up core hears and what it answers: plain, immutable values.

Inputs are raw sensor events by Pico channel (a button's press and release, an NFC tag
arriving and leaving with its UID), a control button's press by BCM GPIO line, and the
maker's phone answers. Outputs are a `View` (the LED frame to show, logical RGB per LED
index, and the prompt as a message key with parameters) and an `Outcome` (accepted, or
refused with a stable code). No English words: pages translate the `bringup.*` keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

Rgb = tuple[int, int, int]


@dataclass(frozen=True)
class Press:
    """A push button went down on sensor `channel`."""

    channel: int


@dataclass(frozen=True)
class Release:
    """A push button came up on sensor `channel`."""

    channel: int


@dataclass(frozen=True)
class TagArrived:
    """An NFC tag with `uid` (hex) came onto the reader on sensor `channel`."""

    channel: int
    uid: str


@dataclass(frozen=True)
class TagLeft:
    """The NFC tag `uid` left the reader on sensor `channel`."""

    channel: int
    uid: str


@dataclass(frozen=True)
class ControlPress:
    """A control button wired to BCM GPIO `gpio` was pressed."""

    gpio: int


@dataclass(frozen=True)
class Answer:
    """The maker's answer on the phone: `what` (e.g. "confirm", "count", "colour", "pick",
    "more", "less", "done", "skip", "undo", "status") and its value, if any."""

    what: str
    value: Any = None


Event = Press | Release | TagArrived | TagLeft | ControlPress | Answer


@dataclass(frozen=True)
class Prompt:
    """A sentence for the maker: a `bringup.*` message key and its parameters."""

    key: str
    params: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @staticmethod
    def of(key: str, **params: Any) -> Prompt:
        """A prompt with these parameters."""
        return Prompt(key, MappingProxyType(dict(params)))


@dataclass(frozen=True)
class View:
    """What the board and the phone show now: the step, the LED frame (logical RGB per
    LED index, dark LEDs (0, 0, 0)), the prompt, a notice beside it (the power check while
    the chain is counted) and the live view of the last sensor events: (what, channel,
    territory or None), what being press, release, tag_arrived or tag_left."""

    step: str
    frame: tuple[Rgb, ...]
    prompt: Prompt
    notice: Prompt | None = None
    live: tuple[tuple[str, int, str | None], ...] = ()


@dataclass(frozen=True)
class Outcome:
    """The answer to one event: accepted, or refused with a stable `code` (a message key
    `bringup.refused.<code>` with `params`); a refused event changed nothing."""

    accepted: bool
    code: str | None = None
    params: MappingProxyType[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @staticmethod
    def refused(code: str, **params: Any) -> Outcome:
        """A refusal with its code and parameters."""
        return Outcome(False, code, MappingProxyType(dict(params)))


ACCEPTED = Outcome(True)
