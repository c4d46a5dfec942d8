"""Sources of chance for the rules engine: every die and every shuffle comes from here.

The rules never import `random`; they take a `RandomSource`. Production games use
`FairDice` (committed, revealable seed); tests and simulations use `SeededSource`;
`RecordingSource` captures every draw a command used so the journal can replay it with
`ReplaySource`, which needs no random generator at all.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class RandomSource(Protocol):
    """What the rules engine needs from chance: six-sided dice and uniform integers."""

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll `count` six-sided dice; each face is 1..6."""
        ...

    def below(self, n: int) -> int:
        """Return a uniform integer in [0, n), n >= 1 (used for shuffles)."""
        ...


class ReplayMismatch(ValueError):
    """A replayed draw does not match what the caller asked for (or the draws ran out)."""


class SeededSource:
    """Deterministic chance for tests and simulations (not for real games)."""

    def __init__(self, seed: int | str = 0) -> None:
        self._random = random.Random(seed)

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll `count` dice from the seeded generator."""
        randint = self._random.randint
        return tuple(randint(1, 6) for _ in range(count))

    def below(self, n: int) -> int:
        """Return a seeded uniform integer in [0, n)."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        return self._random.randrange(n)


class RecordingSource:
    """Wraps a source and records every draw as JSON-ready data for the journal.

    Items of `draws`: `["d", [faces...]]` for a roll, `["u", n, value]` for `below`.
    """

    def __init__(self, inner: RandomSource) -> None:
        self.inner = inner
        self.draws: list[list[Any]] = []

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll through the inner source and record the faces."""
        faces = self.inner.roll(count)
        self.draws.append(["d", list(faces)])
        return faces

    def below(self, n: int) -> int:
        """Draw through the inner source and record n and the value."""
        value = self.inner.below(n)
        self.draws.append(["u", n, value])
        return value

    def take_draws(self) -> list[list[Any]]:
        """Return the draws recorded so far and start a fresh record."""
        draws, self.draws = self.draws, []
        return draws


class ReplaySource:
    """Replays recorded draws in order, refusing any call that differs from the record."""

    def __init__(self, draws: list[list[Any]]) -> None:
        self._draws = draws
        self._next = 0

    @property
    def exhausted(self) -> bool:
        """True once every recorded draw has been used."""
        return self._next >= len(self._draws)

    def _take(self, what: str) -> list[Any]:
        if self.exhausted:
            raise ReplayMismatch(f"replay asked for {what} but the recorded draws are used up")
        draw = self._draws[self._next]
        self._next += 1
        return draw

    def roll(self, count: int) -> tuple[int, ...]:
        """Return the next recorded roll, which must be a roll of `count` dice."""
        draw = self._take(f"a roll of {count} dice")
        if draw[0] != "d" or len(draw[1]) != count:
            raise ReplayMismatch(f"replay asked for a roll of {count} dice, record has {draw!r}")
        return tuple(draw[1])

    def below(self, n: int) -> int:
        """Return the next recorded uniform draw, which must have the same n."""
        draw = self._take(f"a draw below {n}")
        if draw[0] != "u" or draw[1] != n:
            raise ReplayMismatch(f"replay asked for a draw below {n}, record has {draw!r}")
        return int(draw[2])
