"""The shared modules must run unchanged on MicroPython: check the constructs it lacks.

No MicroPython interpreter is installed here, so this is a static check of the source:
only modules MicroPython has, no annotations, no dataclasses, no f-strings, no keyword
arguments to int.to_bytes/from_bytes, no bytes.hex(sep).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "firmware_bridge"
# Every file flashed to the Pico (firmware_bridge/firmware/README.md lists the same ones).
SHARED = [ROOT / "protocol.py"] + [
    ROOT / "firmware" / f"{name}.py"
    for name in ("core", "main", "sensors", "nfc", "leds", "board_config")]
# MicroPython's own modules (rp2 port) and the firmware's modules beside each other.
ALLOWED_IMPORTS = {"struct", "os", "random", "typing", "time", "sys", "select", "gc", "errno",
                   "machine", "micropython", "rp2", "array", "protocol", "core", "main",
                   "sensors", "nfc", "leds", "board_config", "firmware_bridge"}


MICROPYTHON_DECORATORS = {"rp2.asm_pio", "micropython.native", "micropython.viper",
                          "micropython.asm_thumb"}


def allowed_decorator(node: ast.expr) -> bool:
    """property/staticmethod/classmethod, or one of MicroPython's code emitters."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id in ("property", "staticmethod", "classmethod")
    return ast.unparse(node) in MICROPYTHON_DECORATORS


def problems(path: Path) -> list[str]:
    """Constructs in ``path`` that MicroPython would reject or lacks."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Import | ast.ImportFrom):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                a.name for a in node.names]
            for name in names:
                if name.split(".")[0] not in ALLOWED_IMPORTS:
                    found.append(f"{where} imports {name}")
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                found.append(f"{where} uses __future__")
        elif isinstance(node, ast.AnnAssign):
            found.append(f"{where} annotated assignment")
        elif isinstance(node, ast.FunctionDef):
            args = node.args
            if node.returns is not None or any(
                    a.annotation is not None for a in args.args + args.kwonlyargs):
                found.append(f"{where} annotated function {node.name}")
            if not all(allowed_decorator(d) for d in node.decorator_list):
                found.append(f"{where} decorator on {node.name}")
        elif isinstance(node, ast.JoinedStr):
            found.append(f"{where} f-string")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("to_bytes", "from_bytes") and node.keywords:
                found.append(f"{where} keyword arguments to {node.func.attr}")
            if node.func.attr == "hex" and node.args:
                found.append(f"{where} bytes.hex(sep)")
        elif isinstance(node, ast.Name) and node.id == "dataclass":
            found.append(f"{where} dataclass")
        elif isinstance(node, ast.MatchValue | ast.NamedExpr):
            found.append(f"{where} match/walrus")
    return found


@pytest.mark.parametrize("path", SHARED, ids=lambda p: p.name)
def test_pico_module_uses_only_what_micropython_has(path: Path) -> None:
    assert problems(path) == []


def test_the_checker_catches_what_it_looks_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import json\nfrom dataclasses import dataclass\n"
                   "def f(x: int) -> int:\n    return x.to_bytes(2, byteorder='big')\n"
                   "y: int = 1\nz = f'{y=}'\n"
                   "@functools.cache\ndef g():\n    pass\n")
    found = problems(bad)
    assert len(found) == 7, found
