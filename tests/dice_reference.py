"""The fair-dice derivations written apart from `pi_app.dice`, straight from its docstring
(stdlib `hmac`, no shared code): the tests and pi_app/DICE.md's vectors check the module against
these."""

from __future__ import annotations

import hashlib
import hmac


def v1_stream(seed: bytes, ops: list[tuple[str, int]]) -> tuple[list, int]:
    """Version 1: draw `ops` (("d", count) or ("u", n)) from counter 0; (results, counter)."""
    counter, results = 0, []

    def block(attempt: int) -> bytes:
        msg = counter.to_bytes(8, "big") + attempt.to_bytes(4, "big")
        return hmac.new(seed, msg, hashlib.sha256).digest()

    for kind, n in ops:
        if kind == "d":
            faces = []
            for _ in range(n):
                attempt, face = 0, None
                while face is None:
                    face = next((b % 6 + 1 for b in block(attempt) if b < 252), None)
                    attempt += 1
                faces.append(face)
                counter += 1
            results.append(faces)
        else:
            attempt = 0
            while (x := int.from_bytes(block(attempt), "big")) >= (2**256 // n) * n:
                attempt += 1
            results.append(x % n)
            counter += 1
    return results, counter


def v2_block(seed: bytes, index: int) -> bytes:
    """Version 2's block `index`: HMAC-SHA256(seed, index as 8 big-endian bytes)."""
    return hmac.new(seed, index.to_bytes(8, "big"), hashlib.sha256).digest()


def v2_stream(seed: bytes, ops: list[tuple[str, int]]) -> tuple[list, tuple[int, int]]:
    """Version 2: draw `ops` from position (0, 0); (results, final (block, offset))."""
    block, offset, results = 0, 0, []
    for kind, n in ops:
        if kind == "d":
            faces = []
            while len(faces) < n:
                byte = v2_block(seed, block)[offset]
                offset += 1
                if offset == 32:
                    block, offset = block + 1, 0
                if byte < 252:
                    faces.append(byte % 6 + 1)
            results.append(faces)
        else:
            if offset:
                block, offset = block + 1, 0
            while (x := int.from_bytes(v2_block(seed, block), "big")) >= (2**256 // n) * n:
                block += 1
            block += 1
            results.append(x % n)
    return results, (block, offset)
