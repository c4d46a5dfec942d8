"""Imports inside `pi_app/rules` point one way, down the layers (docs/STYLE.md, "Our own house"):

    data (errors, events, commands, state, board, cards, battle, odds, house rules)
    → Classic's steps, taking the variant as a parameter (steps, setup, queries)
    → the variants (variants.base and one module per variant; RISK Strike's engine beside them)
    → engine.apply / legal / the registry (variants/__init__) / games, which resolve the variant
    → the package's face (pi_app.rules, pi_app.rules.strike).

Every import counts, also one inside a function (a lazy import hides a circle, it does not
remove it); only imports under `if TYPE_CHECKING:` are left out, since they never run. A
module may import its own layer or lower ones, never a higher one, and the whole graph has
no circle. A new module must be given its layer here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pi_app.rules

from .test_purity import _type_checking_blocks

RULES_DIR = Path(pi_app.rules.__file__).parent
PACKAGE = "pi_app.rules"

DATA, STEPS, VARIANTS, DISPATCH, FACE = range(5)
LAYER_NAMES = ("data", "Classic's steps", "variants", "engine/legal/registry", "face")
LAYERS: dict[str, int] = {
    **dict.fromkeys(["errors", "events", "commands", "state", "board", "cards", "battle",
                     "odds", "house_rules"], DATA),
    **dict.fromkeys(["steps", "setup", "queries"], STEPS),
    **dict.fromkeys(["variants.base", "variants.classic", "variants.third_army",
                     "variants.mission", "variants.capital", "variants.two_player",
                     "variants.allied"], VARIANTS),
    **dict.fromkeys(["engine", "legal", "variants", "games"], DISPATCH),
    "": FACE,
}
STRIKE_FACE = "strike"  # RISK Strike's own face; its modules sit with the variants


def module_name(path: Path, root: Path) -> str:
    """The dotted name of `path` below `root` ("" for root's __init__)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer_of(name: str) -> int:
    """The layer of module `name` (relative to pi_app.rules); KeyError if it has none."""
    if name == STRIKE_FACE:
        return DISPATCH
    if name.startswith(STRIKE_FACE + "."):
        return VARIANTS
    return LAYERS[name]


def import_graph(root: Path, package: str, typing_too: bool = False) -> dict[str, set[str]]:
    """{module: modules of the package it imports when it runs}, names relative to
    `package`; with `typing_too`, also those it imports under `if TYPE_CHECKING:`.
    `from pkg import name` counts as importing `pkg.name` when that is a module, else
    `pkg` itself."""
    modules = {module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = set() if typing_too else _type_checking_blocks(tree)
        found: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [f"{node.module}.{alias.name}" for alias in node.names]
                targets = [t if _relative(t, package) in modules else node.module
                           for t in targets]
            for target in targets:
                relative = _relative(target, package)
                if relative is not None and relative in modules and relative != name:
                    found.add(relative)
        graph[name] = found
    return graph


def _relative(dotted: str, package: str) -> str | None:
    if dotted == package:
        return ""
    if dotted.startswith(package + "."):
        return dotted[len(package) + 1:]
    return None


def find_circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of `graph` as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            if nxt not in state:
                circle = visit(nxt)
                if circle:
                    return circle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            circle = visit(start)
            if circle:
                return circle
    return None


GRAPH = import_graph(RULES_DIR, PACKAGE)


def test_every_rules_module_has_a_layer():
    unplaced = [name for name in GRAPH if not _has_layer(name)]
    assert unplaced == [], f"give these modules a layer in {Path(__file__).name}: {unplaced}"


def _has_layer(name: str) -> bool:
    try:
        layer_of(name)
    except KeyError:
        return False
    return True


def upward_imports(name: str, graph: dict[str, set[str]]) -> list[str]:
    """The modules `name` imports from a layer above its own."""
    own = layer_of(name)
    return [target for target in sorted(graph[name]) if layer_of(target) > own]


@pytest.mark.parametrize("name", sorted(GRAPH), ids=lambda n: n or "__init__")
def test_imports_point_down_the_layers(name):
    upward = [f"{target or PACKAGE} ({LAYER_NAMES[layer_of(target)]})"
              for target in upward_imports(name, GRAPH)]
    assert upward == [], (f"{name or PACKAGE} ({LAYER_NAMES[layer_of(name)]}) imports from "
                          f"a higher layer: {upward}")


def test_the_rules_package_has_no_import_circle():
    assert find_circle(GRAPH) is None, " -> ".join(find_circle(GRAPH) or [])


def test_the_check_finds_a_circle_hidden_in_a_function(tmp_path):
    pkg = tmp_path / "toy"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "engine.py").write_text("from toy.variants import get_variant\n")
    (pkg / "variants.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from toy.state import State\n"
        "def get_variant():\n    from toy import engine\n    return engine\n")
    (pkg / "state.py").write_text("from toy.variants import get_variant\n")
    graph = import_graph(pkg, "toy")
    assert graph["variants"] == {"engine"}  # the TYPE_CHECKING import does not run
    assert find_circle(graph) == ["engine", "variants", "engine"]
    del graph["engine"]
    assert find_circle({k: v - {"engine"} for k, v in graph.items()}) is None


def test_the_check_sees_an_upward_import_without_a_circle():
    graph = {"state": {"errors", "engine"}, "engine": set(), "errors": set(),
             "steps": {"variants.capital"}, "variants.capital": {"errors"}}
    assert find_circle(graph) is None
    assert upward_imports("state", graph) == ["engine"]
    assert upward_imports("steps", graph) == ["variants.capital"]
    assert upward_imports("variants.capital", graph) == []
