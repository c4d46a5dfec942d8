"""Sources of chance for the rules engine: every die and every shuffle comes from here.

The rules never import `random`; they take a `RandomSource`. Production games use
`FairDice` (committed, revealable seed); tests and simulations use `SeededSource`;
`RecordingSource` captures every draw a command used so the journal can replay it with
`ReplaySource`, which needs no random generator at all. `PhysicalDice` takes faces typed by
players (house rule) and leaves shuffles to a fair source.

How the fair dice derive every draw (so anyone can check a game with their own script;
`pi_app/DICE.md` has worked vectors of both versions, checked by the tests):

- The seed is 32 secret bytes from `os.urandom`; the HMAC key is the seed. After the game
  the seed is revealed as hex.
- The commitment published at game start names the version: version 1 is
  `hashlib.sha256(seed).hexdigest()`, version 2 is `"v2:" + hashlib.sha256(seed).hexdigest()`.
  New games use version 2 (`FairDice`); games journaled under version 1 keep it
  (`FairDiceV1`), read from their commitment.
- Dice: a byte `b < 252` gives the face `b % 6 + 1` (252 = 42 * 6, so every face is exactly
  1/6); a byte `b >= 252` is dropped.
- `below(n)` (shuffles): a 32-byte block read as a big-endian integer `x`; if
  `x < (2**256 // n) * n` the value is `x % n` (exactly uniform), else the next block.

Version 2 (`FairDice`), many dice per block:

- Block `i` = `HMAC-SHA256(key=seed, msg=i.to_bytes(8, "big"))`, i = 0, 1, 2, ... The
  blocks' bytes, one after another, are the stream.
- The position is `(block, offset)`: `offset` bytes of block `block` are used. It starts at
  (0, 0). A die reads the next bytes of the stream until one is < 252 and ends just after
  it, written `(block + 1, 0)` when that was a block's last byte.
- `below(n)` starts at a fresh block: block `block` when `offset == 0`, else `block + 1`;
  it uses whole blocks and ends at `(the block after the accepted one, 0)`.
- The journal records the position after every row's draws (`dice_at`).

Version 1 (`FairDiceV1`), one block per draw:

- A counter starts at 0 and counts *draws*: every single die is one draw and every `below(n)`
  call is one draw (a roll of 3 dice uses counters k, k+1, k+2).
- Block `(counter, attempt)` = `HMAC-SHA256(key=seed, msg=counter.to_bytes(8, "big") +
  attempt.to_bytes(4, "big"))`, 32 bytes; attempt starts at 0.
- A die: scan the bytes of block (counter, 0), then (counter, 1), ...; the first byte
  `b < 252` gives the face.
- `below(n)`: blocks (counter, 0), (counter, 1), ... until one gives a value.
- The counter is the number of draws journaled, so no position is recorded.

Both: journal draws are replayed in order (`["d", faces]` = that many dice, `["u", n, v]` =
one `below(n)`); `verify_draws` recomputes each from the seed and reports the first
mismatch. In a physical-dice game the `"d"` draws were typed by players and use no stream.
Each version keys the HMAC once per game and copies the keyed state for every block.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import random
from collections.abc import Iterable, Mapping, Sequence
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
BLOCK_BYTES = 32  # one HMAC-SHA256 output
DICE_VERSION = 2  # what new games use
V2_PREFIX = "v2:"
# byte -> face for the accepted bytes (< 252); the rejected ones are deleted before mapping
_FACE_OF_BYTE = bytes(b % 6 + 1 if b < _DIE_LIMIT else 0 for b in range(256))
_REJECTED_BYTES = bytes(range(_DIE_LIMIT, 256))


def commitment_of(seed: bytes, version: int) -> str:
    """Return the public commitment to a seed and a derivation version.

    Version 1: the hex SHA-256 of the seed. Version 2: `"v2:"` then that hex, so the
    derivation the dice will follow is published with the seed's hash before any roll.
    """
    digest = hashlib.sha256(seed).hexdigest()
    if version == 1:
        return digest
    if version == 2:
        return V2_PREFIX + digest
    raise ValueError(f"unknown dice derivation version {version}")


def dice_version_of(commitment: str) -> int:
    """The derivation version a published commitment names (1 when it has no prefix)."""
    return 2 if commitment.startswith(V2_PREFIX) else 1


class FairDiceV1:
    """Fair dice of derivation version 1 (one HMAC block per draw): games journaled before
    version 2 resume, replay and verify with it. See the module docstring.

    `counter` is the number of draws already made with this seed, so a resumed game keeps
    rolling the same stream; `position` is `(counter,)`.
    """

    version = 1

    def __init__(self, seed: bytes | None = None, counter: int = 0) -> None:
        self._seed = _checked_seed(seed)
        if counter < 0:
            raise ValueError(f"the draw counter cannot be negative, got {counter}")
        self._mac = hmac.new(self._seed, digestmod=hashlib.sha256)  # keyed once per game
        self.counter = counter
        self.commitment = commitment_of(self._seed, 1)

    @classmethod
    def from_hex(cls, seed_hex: str, counter: int = 0) -> FairDiceV1:
        """Build dice from a hex seed (as revealed or stored in the journal)."""
        return cls(bytes.fromhex(seed_hex), counter)

    @property
    def position(self) -> tuple[int, ...]:
        """Where the stream stands: `(counter,)`."""
        return (self.counter,)

    @position.setter
    def position(self, value: tuple[int, ...]) -> None:
        (self.counter,) = value

    @property
    def journal_position(self) -> list[int] | None:
        """Version 1 journals no position (the counter is the number of draws journaled)."""
        return None

    def _block(self, attempt: int) -> bytes:
        mac = self._mac.copy()
        mac.update(self.counter.to_bytes(8, "big") + attempt.to_bytes(4, "big"))
        return mac.digest()

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


class FairDice:
    """Provably fair production dice (derivation version 2): a committed secret seed, many
    dice from each HMAC-SHA256 block. See the module docstring for the exact derivation.

    `position` is `(block, offset)`: the next block to derive and how many of its bytes are
    used, so a resumed game keeps rolling the same stream. The journal records it.
    """

    version = 2

    def __init__(self, seed: bytes | None = None,
                 position: Sequence[int] = (0, 0)) -> None:
        self._seed = _checked_seed(seed)
        self._mac = hmac.new(self._seed, digestmod=hashlib.sha256)  # keyed once per game
        self.commitment = commitment_of(self._seed, 2)
        # The current block's bytes and accepted faces; `_used` faces of it are rolled.
        # `_bytes` is empty while block `_block` is not derived yet (nothing used from it).
        self._block = 0
        self._bytes = b""
        self._faces: tuple[int, ...] = ()
        self._used = 0
        self.position = position

    @classmethod
    def from_hex(cls, seed_hex: str, position: Sequence[int] = (0, 0)
                 ) -> FairDice:
        """Build dice from a hex seed (as revealed or stored in the journal)."""
        return cls(bytes.fromhex(seed_hex), position)

    def _derive(self, block: int) -> bytes:
        mac = self._mac.copy()  # the keyed state, copied: the key is not hashed again
        mac.update(block.to_bytes(8, "big"))
        return mac.digest()

    def _load(self, block: int) -> None:
        self._block = block
        self._bytes = self._derive(block)
        self._faces = tuple(self._bytes.translate(_FACE_OF_BYTE, _REJECTED_BYTES))
        self._used = 0

    @property
    def position(self) -> tuple[int, int]:
        """`(block, offset)`: just after the last byte that gave a die (`(block + 1, 0)` when
        that was the block's last byte); after a `below`, the start of the next block."""
        if not self._used:
            return (self._block, 0)
        seen = 0
        for offset, byte in enumerate(self._bytes, 1):
            if byte < _DIE_LIMIT:
                seen += 1
                if seen == self._used:
                    if offset == BLOCK_BYTES:
                        return (self._block + 1, 0)
                    return (self._block, offset)
        raise AssertionError("more faces used than the block holds")

    @position.setter
    def position(self, value: Sequence[int]) -> None:
        block, offset = (int(v) for v in value)
        if block < 0 or not 0 <= offset < BLOCK_BYTES:
            raise ValueError(f"a dice position is (block >= 0, offset 0..31), got {value!r}")
        self._block, self._bytes, self._faces, self._used = block, b"", (), 0
        if offset:
            self._load(block)
            self._used = sum(1 for byte in self._bytes[:offset] if byte < _DIE_LIMIT)

    @property
    def journal_position(self) -> list[int] | None:
        """The position as the journal records it: `[block, offset]`."""
        return list(self.position)

    def roll(self, count: int) -> tuple[int, ...]:
        """Roll `count` dice: the next accepted bytes of the stream."""
        start = self._used
        end = start + count
        faces = self._faces
        if end <= len(faces) and count >= 0:
            self._used = end
            return faces[start:end]
        if count < 0:
            raise ValueError(f"cannot roll {count} dice")
        rolled = list(faces[start:])
        while len(rolled) < count:
            self._load(self._block + 1 if self._bytes else self._block)
            self._used = min(count - len(rolled), len(self._faces))
            rolled.extend(self._faces[:self._used])
        return tuple(rolled)

    def below(self, n: int) -> int:
        """Return an exactly uniform integer in [0, n): whole blocks, from the next fresh one."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        limit = (2**256 // n) * n
        block, offset = self.position
        if offset:
            block += 1
        while True:
            x = int.from_bytes(self._derive(block), "big")
            block += 1
            if x < limit:
                self.position = (block, 0)
                return x % n

    def reveal(self) -> str:
        """Return the secret seed as hex (only once the game is over)."""
        return self._seed.hex()


AnyFairDice = FairDice | FairDiceV1


def fair_dice(seed_hex: str, version: int, position: Sequence[int] | None = None
              ) -> AnyFairDice:
    """Dice of the given derivation version from a hex seed, at `position` (the start when
    None): `(counter,)` for version 1, `(block, offset)` for version 2."""
    if version == 1:
        return FairDiceV1.from_hex(seed_hex, position[0] if position else 0)
    if version == 2:
        return FairDice.from_hex(seed_hex, tuple(position) if position else (0, 0))
    raise ValueError(f"unknown dice derivation version {version}")


def _checked_seed(seed: bytes | None) -> bytes:
    if seed is None:
        seed = os.urandom(SEED_BYTES)
    if len(seed) != SEED_BYTES:
        raise ValueError(f"a fair-dice seed must be {SEED_BYTES} bytes, got {len(seed)}")
    return bytes(seed)


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
    """Return how many version-1 counter steps (`FairDiceV1`) these journal draws used.

    A die is one step, a `below` one step; typed physical dice use none.
    """
    steps = 0
    for draw in draws:
        if draw[0] == "d":
            steps += 0 if physical_dice else len(draw[1])
        else:
            steps += 1
    return steps


def follow_draws(dice: AnyFairDice, draws: Iterable[Sequence[Any]],
                 physical_dice: bool = False) -> None:
    """Move `dice` along the stream as these journal draws did (each roll and `below`
    drawn again and thrown away; typed physical dice use none)."""
    for draw in draws:
        if draw[0] == "d":
            if not physical_dice:
                dice.roll(len(draw[1]))
        else:
            dice.below(int(draw[1]))


@dataclass(frozen=True)
class DiceMismatch:
    """The first journal draw the revealed seed does not reproduce (or, version 2, a row's
    recorded stream position: `claimed`/`derived` are then `["at", block, offset]`)."""

    seq: int
    index: int
    claimed: list[Any]
    derived: list[Any]

    def sentence(self) -> str:
        """Describe the mismatch for a person."""
        if self.claimed[:1] == ["at"]:
            return (f"command seq {self.seq}: the journal records the dice stream at "
                    f"[block, byte] {self.claimed[1:]}, the revealed seed gives "
                    f"{self.derived[1:]}")
        return (
            f"command seq {self.seq}, draw {self.index}: the journal has {self.claimed}, "
            f"the revealed seed gives {self.derived}"
        )


def verify_draws(
    seed: bytes,
    draws_by_seq: Iterable[tuple[int, Sequence[Sequence[Any]]]],
    physical_dice: bool = False,
    *,
    version: int,
) -> tuple[int, DiceMismatch | None]:
    """Recompute every journal draw from the seed with derivation `version`, in order.

    `draws_by_seq` yields `(seq, draws)` for every journal row in seq order (undone rows
    included: their draws were made). Returns `(draws_checked, first_mismatch_or_None)`.
    """
    checked, mismatches = verify_all_draws(seed, draws_by_seq, physical_dice, limit=1,
                                           version=version)
    return checked, (mismatches[0] if mismatches else None)


def verify_all_draws(
    seed: bytes,
    draws_by_seq: Iterable[tuple[int, Sequence[Sequence[Any]]]],
    physical_dice: bool = False,
    limit: int | None = None,
    *,
    version: int,
    positions: Mapping[int, Any] | None = None,
) -> tuple[int, list[DiceMismatch]]:
    """Like `verify_draws`, but go on after a mismatch: returns `(draws_matched,
    mismatches)`, at most `limit` of them.

    A draw of the right shape but wrong value uses the same stream as the true one (the
    derivation follows the seed, not the record), so the rows after it are still checked. A
    malformed draw (its shape, hence what it used of the stream, unknown) ends the check
    there. With version 2, `positions` maps a seq to the `[block, offset]` its row records
    after its draws; each one is checked too (a row recording none is not a mismatch).
    """
    dice = fair_dice(seed.hex(), version)
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
        recorded = positions.get(seq) if positions and version == 2 else None
        if recorded is not None and list(recorded) != list(dice.position):
            claimed = list(recorded) if isinstance(recorded, (list, tuple)) else [recorded]
            found.append(DiceMismatch(seq, len(draws), ["at", *claimed],
                                      ["at", *dice.position]))
            if limit is not None and len(found) >= limit:
                return checked, found
    return checked, found


def _faces_list(value: Any) -> bool:
    """True when a journaled roll holds a non-empty list of integer faces."""
    return (isinstance(value, list) and bool(value)
            and all(type(f) is int for f in value))
