"""The computer players' room sees the game only as a seat may (issue 34.2).

`pi_app/computer/` imports the rules (`pi_app.rules`, which also read the map and decks
from `pi_app/data`), the dice (`pi_app.dice`), the redacted view (`pi_app.redaction`), its
own modules and the standard library: nothing of the table, the web, the journal, the
session or the hardware. A player that reached into the table could see more than its
seat's view, and the house would have an arrow running back up (table -> computer ->
table): the bot that drives a whole table with touches and presses is the table's
(`pi_app.table.autoplay`).

Every import counts: one inside a function and one under `if TYPE_CHECKING:` too (a type
from the table is still the table's machinery named in the room).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import pi_app.computer

HOME = Path(pi_app.computer.__file__).parent
ALLOWED = ("pi_app.computer", "pi_app.rules", "pi_app.dice", "pi_app.redaction")


def imported_modules(source: str, package: str) -> set[str]:
    """Every module `source` imports, anywhere in it, as an absolute dotted name (a
    relative import resolved against `package`, the importing module's package)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.add(".".join([*base, *([node.module] if node.module else [])]))
            elif node.module:
                found.add(node.module)
    return found


def allowed(module: str) -> bool:
    """Whether the computer's room may import `module`."""
    top = module.split(".")[0]
    if top == "__future__" or (top in sys.stdlib_module_names and top != "pi_app"):
        return True
    return any(module == a or module.startswith(a + ".") for a in ALLOWED)


def reaches(path: Path) -> list[str]:
    """The modules `path` imports that the computer's room may not."""
    package = "pi_app.computer"
    return sorted(m for m in imported_modules(path.read_text(encoding="utf-8"), package)
                  if not allowed(m))


MODULES = sorted(HOME.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_the_computer_imports_only_the_rules_the_dice_and_the_redacted_view(path):
    assert reaches(path) == [], (
        f"{path.relative_to(HOME.parent.parent)} reaches outside the computer's room; "
        "a bot that drives a table belongs to pi_app/table")


def test_the_home_has_its_players():
    assert {p.stem for p in MODULES} >= {"player", "seats", "strategy", "view"}


def test_the_check_sees_every_way_into_the_table():
    source = ("from __future__ import annotations\n"
              "import json\n"
              "from typing import TYPE_CHECKING\n"
              "from pi_app.rules import GameState\n"
              "from pi_app.redaction import redact\n"
              "from . import strategy\n"
              "from .view import board_state_from_view\n"
              "if TYPE_CHECKING:\n    from pi_app.table_api import Viewer\n"
              "def f():\n    from pi_app.table.gestures import Touch\n"
              "    import pi_app.web.api\n    import flask\n"
              "    from ..session import GameSession\n")
    found = imported_modules(source, "pi_app.computer")
    assert {"pi_app.computer", "pi_app.computer.view"} <= found
    assert sorted(m for m in found if not allowed(m)) == [
        "flask", "pi_app.session", "pi_app.table.gestures", "pi_app.table_api",
        "pi_app.web.api"]
