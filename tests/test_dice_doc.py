"""pi_app/DICE.md's worked vectors are checked twice, so the document cannot rot: each
```dice-vector block must be exactly what the independent derivation in `dice_reference`
(stdlib hmac, written from the docstring) renders for its version, seed and draws, and
`pi_app.dice` must give the same results and end at the same position.

Regenerate a block's text with
``python tests/test_dice_doc.py VERSION SEED_HEX "d3 d2 u52 ..."``.
"""

from __future__ import annotations

import hashlib
import re
import sys
from pathlib import Path

import pytest
from dice_reference import v1_stream, v2_block, v2_stream

from pi_app.dice import commitment_of, fair_dice

DOC = Path(__file__).resolve().parents[1] / "pi_app" / "DICE.md"
BLOCK = re.compile(r"```dice-vector\n(.*?)```", re.S)


def parse_ops(text: str) -> list[tuple[str, int]]:
    """"d3 u52" -> [("d", 3), ("u", 52)]."""
    return [(word[0], int(word[1:])) for word in text.split()]


def render(version: int, seed_hex: str, draws: str) -> str:
    """The block text for these draws, computed by the reference derivation only."""
    seed = bytes.fromhex(seed_hex)
    ops = parse_ops(draws)
    stream = v2_stream if version == 2 else v1_stream
    results, end = stream(seed, ops)
    digest = hashlib.sha256(seed).hexdigest()
    lines = [f"version:    {version}", f"seed:       {seed_hex}", f"draws:      {draws}",
             f"commitment: {'v2:' if version == 2 else ''}{digest}"]
    if version == 2:
        for index in range(end[0] + (1 if end[1] else 0)):
            data = v2_block(seed, index).hex()
            lines.append(f"block {index}:    " + " ".join(data[i:i + 16] for i in range(0, 64, 16)))
    for k, ((kind, n), result) in enumerate(zip(ops, results)):
        _, at = stream(seed, ops[:k])
        where = f"({at[0]}, {at[1]})" if version == 2 else f"counter {at}"
        shown = " ".join(map(str, result)) if kind == "d" else str(result)
        lines.append(f"{kind}{n:<4} at {where:<12} -> {shown}")
    lines.append(f"end:        {f'({end[0]}, {end[1]})' if version == 2 else f'counter {end}'}")
    return "\n".join(lines) + "\n"


def blocks() -> list[str]:
    return BLOCK.findall(DOC.read_text())


def header(block: str) -> tuple[int, str, str]:
    version, seed, draws = (line.split(":", 1)[1].strip() for line in block.splitlines()[:3])
    return int(version), seed, draws


def test_the_document_has_vectors_of_both_versions() -> None:
    versions = [header(b)[0] for b in blocks()]
    assert versions.count(1) >= 1 and versions.count(2) >= 2


@pytest.mark.parametrize("block", blocks(), ids=lambda b: "v{}-{}".format(*header(b)[:2]))
def test_each_vector_matches_the_reference_derivation(block: str) -> None:
    assert block == render(*header(block))


@pytest.mark.parametrize("block", blocks(), ids=lambda b: "v{}-{}".format(*header(b)[:2]))
def test_the_dice_module_gives_each_vector(block: str) -> None:
    version, seed_hex, draws = header(block)
    dice = fair_dice(seed_hex, version)
    assert dice.commitment == commitment_of(bytes.fromhex(seed_hex), version)
    assert f"commitment: {dice.commitment}\n" in block
    for kind, n in parse_ops(draws):
        result = dice.roll(n) if kind == "d" else dice.below(n)
        shown = " ".join(map(str, result)) if kind == "d" else str(result)
        assert re.search(rf"^{kind}{n} +at .* -> {shown}$", block, re.M), (kind, n, shown)
    end = (f"({dice.position[0]}, {dice.position[1]})" if version == 2
           else f"counter {dice.position[0]}")
    assert block.endswith(f"end:        {end}\n")


if __name__ == "__main__":
    print(render(int(sys.argv[1]), sys.argv[2], sys.argv[3]), end="")
