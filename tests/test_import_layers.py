"""The whole house's imports point down its layers, and no two modules import each other
round a circle (issue 35.2). Counted from the code's own imports, as the rooms' layer tests
do inside a room (tests/rules, tests/table, tests/computer: `test_layers.py`).

The graph holds every module of `pi_app`, `firmware_bridge` and `hardware`. An arrow runs
from a module to each of those modules it names in an import, wherever the import stands:

- at module level, and inside a function (a lazy import hides a circle, it does not remove
  it: the arrow is there the moment the function runs);
- under `if TYPE_CHECKING:` too. Such an import never runs, but a type named there is still
  the other room's machinery written into this one: a part that annotates its argument as
  `TableCore` knows the core. A part names what it needs as a small `Protocol` of its own.
  The one exception is the rules' typing-only circle (ALLOWED_TYPING_CIRCLE): Classic's steps
  annotate the `Variant` whose hooks call them;
- `importlib.resources.files("pkg")` with a literal name, which imports `pkg` to read its
  files (how `hardware.profiles` reads the map's territory ids in `pi_app/data`, a folder of
  data files with no code); a module reading its own package's files is no arrow.

`from pkg import name` is an arrow to `pkg.name` when that is a module, else to `pkg`. The
parent packages Python runs first (importing `pi_app.web.api` runs `pi_app/web/__init__.py`)
are not arrows of the importer: they would put every module of a package in one circle
with its `__init__`, which imports its parts.

The layers, lowest first (LAYERS): a module may import its own layer or lower ones. Inside
a layer, the rooms' own tests keep their order (the rules' steps below their variants, the
table's parts below its core); here the circle check sees every room at once.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from rules.test_purity import _type_checking_blocks

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("pi_app", "firmware_bridge", "hardware")
DATA_PACKAGES = ("pi_app.data",)  # folders of data files, read with importlib.resources

MODULE, FUNCTION, TYPING = "module", "function", "typing"

# (layer, the modules in it): "x" is module x; "x.*" is x and every module below it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("data and foundations", ("pi_app", "pi_app.data", "pi_app.version", "pi_app.dice",
                              "pi_app.storage", "pi_app.systemd_notify", "pi_app.web_port")),
    # the hardware knows nothing of the game: its board profiles read the map's territory
    # ids and the colours from the data files, never from the rules
    ("hardware", ("hardware.*",)),
    ("the frame codec", ("firmware_bridge.protocol",)),
    ("the Pico's firmware", ("firmware_bridge.firmware.*",)),
    # the Pi's side; the Pico never imports it (messages: the Pi's message table;
    # thread_names: the kernel's names of the link's, the emulator's and the table's threads)
    ("the bridge's host side", ("firmware_bridge", "firmware_bridge.messages",
                                "firmware_bridge.thread_names", "firmware_bridge.host_core",
                                "firmware_bridge.link", "firmware_bridge.emulator")),
    ("rules", ("pi_app.rules.*",)),
    ("journal, session and redaction", ("pi_app.journal", "pi_app.session",
                                        "pi_app.redaction")),
    ("computer players, settings and bring-up", ("pi_app.computer.*", "pi_app.config",
                                                 "pi_app.board_match", "pi_app.boot_config",
                                                 "pi_app.bringup.*")),
    ("the table's door", ("pi_app.table_api",)),
    ("table", ("pi_app.table.*",)),
    ("self-checks", ("pi_app.checks",)),
    ("the web's pieces", ("pi_app.web.errors", "pi_app.web.limits", "pi_app.web.seats",
                          "pi_app.web.own_addresses", "pi_app.web.security",
                          "pi_app.web.serve", "pi_app.web.variants", "pi_app.web.dice_stats",
                          "pi_app.web.table_card")),
    ("the web's request context", ("pi_app.web.context",)),
    ("the API blueprint", ("pi_app.web.api", "pi_app.web.virtual_frames")),
    ("routes on it and the other blueprints", ("pi_app.web.stream", "pi_app.web.seat_codes",
                                               "pi_app.web.host", "pi_app.web.pages",
                                               "pi_app.web.bringup")),
    ("the web app", ("pi_app.web",)),
    ("command line", ("pi_app.cli.*", "pi_app.__main__")),
)
LAYER_NAMES = tuple(name for name, _ in LAYERS)

# The rules' typing-only circle, allowed by issue 35: Classic's steps, setup and queries name
# the `Variant` (variants.base) in annotations; variants.base calls them.
ALLOWED_TYPING_CIRCLE = frozenset({
    ("pi_app.rules.steps", "pi_app.rules.variants.base"),
    ("pi_app.rules.setup", "pi_app.rules.variants.base"),
    ("pi_app.rules.queries", "pi_app.rules.variants.base"),
})

Graph = dict[str, dict[str, set[str]]]  # module -> {imported module: kinds of the import}


def module_names(root: Path, packages: Iterable[str],
                 data_packages: Iterable[str] = ()) -> dict[str, Path]:
    """{dotted name: file} of every module below `root` in `packages` (a data package: its
    folder)."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    for package in data_packages:
        found[package] = root.joinpath(*package.split("."))
    return found


def _in_functions(tree: ast.AST) -> set[int]:
    """Ids of the nodes inside a function's body."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inside.update(id(sub) for sub in ast.walk(node) if sub is not node)
    return inside


def _named(node: ast.AST, importer: str, is_package: bool, modules: Iterable[str]
           ) -> list[str]:
    """The dotted names an import statement or a `resources.files("pkg")` call names
    (`from pkg import x`: pkg.x when that is one of `modules`, else pkg)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parts = importer.split(".") if is_package else importer.split(".")[:-1]
            parts = parts[:len(parts) - node.level + 1]
            base = ".".join([*parts, *([node.module] if node.module else [])])
        return [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base
                for a in node.names]
    if (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("resources.files")
            and node.args and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        return [node.args[0].value]
    return []


def import_graph(root: Path, packages: Iterable[str] = PACKAGES,
                 data_packages: Iterable[str] = DATA_PACKAGES) -> Graph:
    """Every module's arrows to the modules of `packages` it imports, with how (`MODULE`,
    `FUNCTION`, `TYPING`; see the module docstring)."""
    modules = module_names(root, packages, data_packages)
    graph: Graph = {}
    for name, path in modules.items():
        graph[name] = {}
        if path.suffix != ".py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only, in_functions = _type_checking_blocks(tree), _in_functions(tree)
        for node in ast.walk(tree):
            named = _named(node, name, path.name == "__init__.py", modules)
            kind = (TYPING if id(node) in typing_only
                    else FUNCTION if id(node) in in_functions else MODULE)
            if isinstance(node, ast.Call):  # its own package's files: no arrow, as below
                named = [t for t in named if not name.startswith(t + ".")]
            for target in named:
                while target and target not in modules:  # `import a.b.c`: the module a.b.c
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].setdefault(target, set()).add(kind)
    return graph


def layer_of(module: str) -> int:
    """The index of `module`'s layer in LAYERS; KeyError when no layer or several hold it."""
    found = [i for i, (_, members) in enumerate(LAYERS) for member in members
             if module == member.removesuffix(".*")
             or (member.endswith(".*") and module.startswith(member[:-1]))]
    if len(found) != 1:
        raise KeyError(f"{module} is in {len(found)} layers")
    return found[0]


def upward_imports(graph: Graph, module: str) -> list[str]:
    """The modules `module` imports from a layer above its own."""
    own = layer_of(module)
    return sorted(t for t in graph[module] if layer_of(t) > own)


def circles(graph: Graph, ignored: frozenset[tuple[str, str]] = frozenset()
            ) -> list[list[str]]:
    """The import circles of `graph` (its strongly connected components of more than one
    module, each sorted), leaving out the arrows in `ignored`."""
    arrows = {m: sorted(t for t in targets if (m, t) not in ignored and t in graph)
              for m, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in arrows[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(arrows)))
    try:
        for node in sorted(arrows):
            if node not in index:
                visit(node)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(found)


GRAPH = import_graph(ROOT)


def test_every_module_has_one_layer():
    unplaced = []
    for module in sorted(GRAPH):
        try:
            layer_of(module)
        except KeyError as exc:
            unplaced.append(str(exc))
    assert unplaced == [], f"give each module one layer in {Path(__file__).name}: {unplaced}"


def test_the_graph_sees_every_package():
    assert {"pi_app.table.core", "pi_app.web.api", "hardware.profiles",
            "firmware_bridge.firmware.core", "pi_app.rules.strike.engine"} <= set(GRAPH)


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_imports_point_down_the_layers(module):
    upward = [f"{t} ({LAYER_NAMES[layer_of(t)]}; {'/'.join(sorted(GRAPH[module][t]))})"
              for t in upward_imports(GRAPH, module)]
    assert upward == [], (f"{module} ({LAYER_NAMES[layer_of(module)]}) imports from a "
                          f"higher layer: {upward}")


def test_no_import_circle_but_the_rules_typing_only_one():
    assert circles(GRAPH, ALLOWED_TYPING_CIRCLE) == []


def test_the_allowed_circle_is_there_and_typing_only():
    """The allowance names real arrows that never run: once the rules' circle is gone, it
    is to be removed from here."""
    assert {(a, b): GRAPH[a].get(b) for a, b in ALLOWED_TYPING_CIRCLE} == {
        arrow: {TYPING} for arrow in ALLOWED_TYPING_CIRCLE}
    assert circles(GRAPH) == [["pi_app.rules.queries", "pi_app.rules.setup",
                               "pi_app.rules.steps", "pi_app.rules.variants.base"]]


def test_hardware_and_the_bridge_import_no_code_of_pi_app():
    """Below the game: their only arrow into pi_app is to its data files."""
    reaching = {m: sorted(t for t in targets if t.startswith("pi_app") and t != "pi_app.data")
                for m, targets in GRAPH.items()
                if m.startswith(("hardware", "firmware_bridge"))}
    assert {m: t for m, t in reaching.items() if t} == {}


# --- the check itself ----------------------------------------------------------------------

def _toy(tmp_path: Path, files: dict[str, str]) -> Graph:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "toy" / "data").mkdir(exist_ok=True)
    return import_graph(tmp_path, ["toy"], ["toy.data"])


def test_the_check_sees_every_kind_of_import(tmp_path):
    graph = _toy(tmp_path, {
        "toy/__init__.py": "",
        "toy/core.py": "from toy.parts import Part\nimport toy.shared.names\n",
        "toy/parts.py": ("from typing import TYPE_CHECKING\n"
                         "if TYPE_CHECKING:\n    from toy.core import Core\n"
                         "def f():\n    from toy import shared\n"
                         "    from importlib import resources\n"
                         "    return resources.files('toy.data')\n"),
        "toy/shared/__init__.py": "from .names import NAME\n",
        "toy/shared/names.py": "from . import NAME\nNAME = 1\n",
    })
    assert graph["toy.core"] == {"toy.parts": {MODULE}, "toy.shared.names": {MODULE}}
    assert graph["toy.parts"] == {"toy.core": {TYPING}, "toy.shared": {FUNCTION},
                                  "toy.data": {FUNCTION}}
    assert graph["toy.shared"] == {"toy.shared.names": {MODULE}}
    assert graph["toy.shared.names"] == {"toy.shared": {MODULE}}
    assert circles(graph) == [["toy.core", "toy.parts"], ["toy.shared", "toy.shared.names"]]
    assert circles(graph, frozenset({("toy.parts", "toy.core")})) == [
        ["toy.shared", "toy.shared.names"]]


def test_the_check_sees_an_upward_import_without_a_circle(monkeypatch):
    toy_layers = (("low", ("toy.low",)), ("high", ("toy.high.*",)))
    monkeypatch.setattr(sys.modules[__name__], "LAYERS", toy_layers)
    graph: Graph = {"toy.low": {"toy.high.part": {FUNCTION}}, "toy.high": {},
                    "toy.high.part": {"toy.low": {MODULE}, "toy.high": {MODULE}}}
    assert layer_of("toy.high") == layer_of("toy.high.part") == 1
    assert upward_imports(graph, "toy.low") == ["toy.high.part"]
    assert upward_imports(graph, "toy.high.part") == []
    with pytest.raises(KeyError):
        layer_of("toy.elsewhere")


def summary(graph: Graph) -> str:
    """The circles and the upward arrows of `graph`, one a line (`python
    tests/test_import_layers.py [root]` prints them for a tree)."""
    lines = [f"circle of {len(c)}: {' '.join(c)}" for c in circles(graph)]
    for module in sorted(graph):
        try:
            lines += [f"upward: {module} -> {t} ({'/'.join(sorted(graph[module][t]))})"
                      for t in upward_imports(graph, module)]
        except KeyError as exc:
            lines.append(f"no layer: {exc}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(summary(import_graph(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)))
