"""The rules are pure: no module under pi_app/rules imports I/O, clock, randomness, threads,
the web, serial or hardware (STYLE / COMMON: "Rules code is pure").

The one allowed read is the data files through `importlib.resources` (board.py); that is why
`importlib` is allowed while `os`, `pathlib` and `open()` are not. `pi_app.dice` may be imported
only under `if TYPE_CHECKING:` (for the RandomSource protocol), since a runtime import would
give the rules a randomness source of their own.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pi_app.rules

FORBIDDEN = {"flask", "serial", "sqlite3", "time", "random", "datetime", "threading", "socket",
             "gpiozero", "rpi_ws281x", "hardware", "firmware_bridge", "os", "pathlib",
             "subprocess", "io", "secrets", "urllib", "http", "shutil", "tempfile", "asyncio"}
RULES_DIR = Path(pi_app.rules.__file__).parent
MODULES = sorted(RULES_DIR.rglob("*.py"))


def _type_checking_blocks(tree: ast.AST) -> set[int]:
    """Ids of import nodes inside `if TYPE_CHECKING:` blocks."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                for sub in ast.walk(child):
                    inside.add(id(sub))
    return inside


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """(module name, only for type checking) for every import in the file, nested ones too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_blocks(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in typing_only) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.module, id(node) in typing_only))
    return found


def test_the_scan_sees_every_rules_module_including_strike_and_variants():
    names = {p.relative_to(RULES_DIR).as_posix() for p in MODULES}
    assert {"engine.py", "board.py", "strike/engine.py", "strike/tactics.py",
            "variants/mission.py"} <= names


def test_the_scan_finds_a_forbidden_import_when_there_is_one(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from typing import TYPE_CHECKING\nimport json\n"
                      "def f():\n    import time\n    from os import path\n"
                      "if TYPE_CHECKING:\n    from pi_app.dice import RandomSource\n")
    assert sorted(imports_of(sample)) == sorted([("typing", False), ("json", False),
                                                 ("time", False), ("os", False),
                                                 ("pi_app.dice", True)])


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES_DIR).as_posix())
def test_rules_modules_import_nothing_impure(path):
    for module, typing_only in imports_of(path):
        top = module.split(".")[0]
        assert top not in FORBIDDEN, f"{path.name} imports {module}"
        if module.startswith("pi_app.") and not module.startswith("pi_app.rules"):
            assert module == "pi_app.dice" and typing_only, \
                f"{path.name} imports {module} at run time"


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES_DIR).as_posix())
def test_rules_modules_never_open_files(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Name) and n.func.id in ("open", "exec", "eval")]
    assert not calls, f"{path.name} calls {calls[0].func.id}()"  # type: ignore[attr-defined]
