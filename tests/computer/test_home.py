"""The players that play by themselves live in one home, `pi_app.computer` (issue 22.3),
outside the pure rules package. The hands that drive a whole table with touches and
presses (`SimHands`, `pi_app.table.autoplay`) are the table's (issue 34.2)."""

from __future__ import annotations

import ast
from pathlib import Path

import pi_app
import pi_app.computer

PI_APP = Path(pi_app.__file__).parent
HOME = Path(pi_app.computer.__file__).parent


def _classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]


def test_every_automatic_player_lives_in_the_computer_package():
    homes = {}
    for path in sorted(PI_APP.rglob("*.py")):
        for name in _classes(path):
            if name.endswith("Bot") or name in ("ComputerPlayer", "Strategist"):
                homes[name] = path.parent
    assert set(homes) >= {"SimpleBot", "StrikeBot", "ComputerPlayer", "Strategist"}
    assert {name: home for name, home in homes.items() if home != HOME} == {}


def test_the_hands_that_drive_a_table_live_with_the_table():
    homes = {path.relative_to(PI_APP.parent).as_posix() for path in PI_APP.rglob("*.py")
             if "SimHands" in _classes(path)}
    assert homes == {"pi_app/table/autoplay.py"}


def test_no_module_outside_the_home_names_the_old_places():
    old = ("pi_app.bots", "pi_app.rules.strike.bot", "pi_app.rules.strike.simulate",
           "pi_app.computer.autoplay")
    named = {}
    for root in (PI_APP, PI_APP.parent / "tests", PI_APP.parent / "bench",
                 PI_APP.parent / "tools"):
        for path in sorted(root.rglob("*.py")):
            if "node_modules" in path.parts or ".venv" in path.parts:
                continue
            source = path.read_text(encoding="utf-8")
            if not any(name in source for name in old):
                continue  # an import names its module in full: nothing to parse for
            tree = ast.parse(source)
            # an old place named only as the fallback of a failed import measures an
            # older tree (bench scripts' "before" runs): allowed
            fallbacks = {id(n) for handler in ast.walk(tree)
                         if isinstance(handler, ast.ExceptHandler)
                         for n in ast.walk(handler)}
            for node in ast.walk(tree):
                if id(node) in fallbacks:
                    continue
                if isinstance(node, ast.ImportFrom) and node.module in old:
                    named[str(path)] = node.module
                elif isinstance(node, ast.Import):
                    named.update({str(path): a.name for a in node.names if a.name in old})
    assert named == {}
