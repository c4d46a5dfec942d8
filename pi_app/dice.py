"""Sources of chance for the rules engine: every die and every shuffle comes from here.

The rules never import `random`; they take a `RandomSource`. Production games use
`FairDice` (committed, revealable seed); tests and simulations use `SeededSource`;
`RecordingSource` captures every draw a command used so the journal can replay it with
`ReplaySource`, which needs no random generator at all. `PhysicalDice` takes faces typed by
players (house rule) and leaves shuffles to a fair source.

How `FairDice` derives every draw (so anyone can check a game with their own script):

- The seed is 32 secret bytes from `os.urandom`. The commitment published at game start is
  `hashlib.sha256(seed).hexdigest()`. After the game the seed is revealed as hex.
- A counter starts at 0 and counts *draws*: every single die is one draw and every `below(n)`
  call is one draw (a roll of 3 dice uses counters k, k+1, k+2).
- Block `(counter, attempt)` = `HMAC-SHA256(key=seed, msg=counter.to_bytes(8, "big") +
  attempt.to_bytes(4, "big"))`, 32 bytes; attempt starts at 0.
- A die: scan the bytes of block (counter, 0), then (counter, 1), ...; the first byte `b` with
  `b < 252` gives the face `b % 6 + 1` (252 = 42 * 6, so every face is exactly 1/6).
- `below(n)`: for attempt 0, 1, ...: `x = int.from_bytes(block(counter, attempt), "big")`;
  if `x < (2**256 // n) * n` the value is `x % n` (exactly uniform), else try the next attempt.
- Journal draws are replayed in order (`["d", faces]` = that many dice, `["u", n, v]` = one
  `below(n)`); `verify_draws` recomputes each from the seed and reports the first mismatch.
  In a physical-dice game the `"d"` draws were typed by players and use no counter.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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

    _FACES = (1, 2, 3, 4, 5, 6)
    _BATCH = 512  # never change it: with `below` interleaved it fixes the sequence

    def __init__(self, seed: int | str = 0) -> None:
        self._random = random.Random(seed)
        self._buffer: tuple[int, ...] = ()
        self._next = 0

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll `count` dice from the seeded generator.

        Faces are drawn in batches (simulations roll millions of dice); the sequence is
        still a pure function of the seed. The buffer is a tuple so a roll is one slice.
        """
        start = self._next
        end = start + count
        buffer = self._buffer
        if end > len(buffer):
            buffer = self._buffer = buffer[start:] + tuple(
                self._random.choices(self._FACES, k=self._BATCH))
            start, end = 0, count
        self._next = end
        return buffer[start:end]

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


SEED_BYTES = 32
_DIE_LIMIT = 252  # largest multiple of 6 not above 256


def commitment_of(seed: bytes) -> str:
    """Return the public commitment to a seed: the hex SHA-256 of its bytes."""
    return hashlib.sha256(seed).hexdigest()


class FairDice:
    """Provably fair production dice: a committed secret seed, HMAC-SHA256 per draw.

    See the module docstring for the exact derivation. `counter` is the number of draws
    already made with this seed, so a resumed game keeps rolling the same stream.
    """

    def __init__(self, seed: bytes | None = None, counter: int = 0) -> None:
        if seed is None:
            seed = os.urandom(SEED_BYTES)
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a fair-dice seed must be {SEED_BYTES} bytes, got {len(seed)}")
        if counter < 0:
            raise ValueError(f"the draw counter cannot be negative, got {counter}")
        self._seed = bytes(seed)
        self.counter = counter
        self.commitment = commitment_of(self._seed)

    @classmethod
    def from_hex(cls, seed_hex: str, counter: int = 0) -> FairDice:
        """Build dice from a hex seed (as revealed or stored in the journal)."""
        return cls(bytes.fromhex(seed_hex), counter)

    def _block(self, attempt: int) -> bytes:
        message = self.counter.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        return hmac.new(self._seed, message, hashlib.sha256).digest()

    def _die(self) -> int:
        attempt = 0
        while True:
            for byte in self._block(attempt):
                if byte < _DIE_LIMIT:
                    self.counter += 1
                    return byte % 6 + 1
            attempt += 1

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll `count` dice, one counter step per die."""
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        return tuple(self._die() for _ in range(count))

    def below(self, n: int) -> int:
        """Return an exactly uniform integer in [0, n), one counter step."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (2**256 // n) * n
        attempt = 0
        while True:
            x = int.from_bytes(self._block(attempt), "big")
            if x < limit:
                self.counter += 1
                return x % n
            attempt += 1

    def reveal(self) -> str:
        """Return the secret seed as hex (only once the game is over)."""
        return self._seed.hex()


class DiceEntryError(ValueError):
    """Typed physical dice were invalid, missing or left over; `code` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def validate_faces(faces: Iterable[Any]) -> tuple[int, ...]:
    """Check faces typed by players: a list of integers 1..6; return them as a tuple."""
    if not isinstance(faces, (list, tuple)):
        raise DiceEntryError("bad_die", "Type the dice as a list of faces 1 to 6, "
                                        f"e.g. [6, 4, 1]; got {faces!r}.")
    checked = []
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise DiceEntryError("bad_die", f"A die shows 1 to 6; {face!r} is not a die face.")
        checked.append(face)
    return tuple(checked)


class PhysicalDice:
    """House-rule dice: faces typed by players; shuffles still come from a fair source.

    Load the faces for the next command with `enter(faces)`; `roll(count)` takes them in
    order and raises `DiceEntryError("dice_needed", ...)` if too few were typed.
    """

    def __init__(self, shuffler: RandomSource) -> None:
        self.shuffler = shuffler
        self._pending: list[int] = []

    def enter(self, faces: Iterable[Any]) -> None:
        """Queue typed faces (validated 1..6) for the next rolls."""
        self._pending.extend(validate_faces(faces))

    @property
    def pending(self) -> tuple[int, ...]:
        """Faces typed but not used yet."""
        return tuple(self._pending)

    def clear(self) -> None:
        """Forget faces typed but not used."""
        self._pending.clear()

    def roll(self, count: int) -> tuple[int, ...]:
        """Take the next `count` typed faces."""
        if count > len(self._pending):
            raise DiceEntryError(
                "dice_needed",
                f"Roll your {count} dice and type them in; {len(self._pending)} typed so far.",
            )
        faces, self._pending = self._pending[:count], self._pending[count:]
        return tuple(faces)

    def below(self, n: int) -> int:
        """Shuffles are not done with physical dice: ask the fair source."""
        return self.shuffler.below(n)


def fair_draw_count(draws: Iterable[Sequence[Any]], physical_dice: bool = False) -> int:
    """Return how many FairDice counter steps these journal draws used.

    A die is one step, a `below` one step; typed physical dice use none.
    """
    steps = 0
    for draw in draws:
        if draw[0] == "d":
            steps += 0 if physical_dice else len(draw[1])
        else:
            steps += 1
    return steps


@dataclass(frozen=True)
class DiceMismatch:
    """The first journal draw the revealed seed does not reproduce."""

    seq: int
    index: int
    claimed: list[Any]
    derived: list[Any]

    def sentence(self) -> str:
        """Describe the mismatch for a person."""
        return (
            f"command seq {self.seq}, draw {self.index}: the journal has {self.claimed}, "
            f"the revealed seed gives {self.derived}"
        )


def verify_draws(
    seed: bytes,
    draws_by_seq: Iterable[tuple[int, Sequence[Sequence[Any]]]],
    physical_dice: bool = False,
) -> tuple[int, DiceMismatch | None]:
    """Recompute every journal draw from the seed, in order.

    `draws_by_seq` yields `(seq, draws)` for every journal row in seq order (undone rows
    included: their draws were made). Returns `(draws_checked, first_mismatch_or_None)`.
    """
    checked, mismatches = verify_all_draws(seed, draws_by_seq, physical_dice, limit=1)
    return checked, (mismatches[0] if mismatches else None)


def verify_all_draws(
    seed: bytes,
    draws_by_seq: Iterable[tuple[int, Sequence[Sequence[Any]]]],
    physical_dice: bool = False,
    limit: int | None = None,
) -> tuple[int, list[DiceMismatch]]:
    """Like `verify_draws`, but go on after a mismatch: returns `(draws_matched,
    mismatches)`, at most `limit` of them.

    A draw of the right shape but wrong value uses the same counter steps as the true one,
    so the rows after it are still checked. A malformed draw (its shape, hence its counter
    steps, unknown) ends the check there.
    """
    dice = FairDice(seed)
    checked = 0
    found: list[DiceMismatch] = []
    for seq, draws in draws_by_seq:
        if not isinstance(draws, (list, tuple)):
            found.append(DiceMismatch(seq, 0, [draws], ["?", "not a list of draws"]))
            return checked, found
        for index, draw in enumerate(draws):
            kind = draw[0] if isinstance(draw, (list, tuple)) and draw else None
            if kind == "d" and len(draw) == 2 and _faces_list(draw[1]):
                if physical_dice:
                    continue
                derived: list[Any] = ["d", list(dice.roll(len(draw[1])))]
            elif kind == "u" and len(draw) == 3 and isinstance(draw[1], int) and draw[1] >= 1:
                derived = ["u", draw[1], dice.below(draw[1])]
            else:
                shown = list(draw) if isinstance(draw, (list, tuple)) else [draw]
                found.append(DiceMismatch(seq, index, shown, ["?", "not a draw"]))
                return checked, found
            if list(draw) != derived:
                found.append(DiceMismatch(seq, index, list(draw), derived))
                if limit is not None and len(found) >= limit:
                    return checked, found
            else:
                checked += 1
    return checked, found


def _faces_list(value: Any) -> bool:
    """True when a journaled roll holds a non-empty list of integer faces."""
    return (isinstance(value, list) and bool(value)
            and all(type(f) is int for f in value))
