"""The table in rooms (issue 22.1), held like the rules package's layers (tests/rules):

    pieces (wiring, gestures, strike_gestures, lights, palette, swells, tracking,
      miswired, awaiting, decisions)
    → the game-kind seam (kinds): the ONLY module that asks "board game or RISK Strike?"
    → the core's rooms (effects, publishing, seat_rights, board_inputs, timers,
      computer_play, host_actions, undo_rights, game_facts), which never name the core:
      each says what it uses of it as a small Protocol of its own (issue 35.2), which
      `TableCore` meets
    → the core (core)
    → the assembled table (loop, service, painter, sim, rig, starting), and autoplay,
      the bot that drives an assembled table with touches and presses (issue 34.2).

Every import counts (one inside a function, and one under `if TYPE_CHECKING:`: a type of
the core named in a room is an arrow back up all the same); a module may import its own
layer or lower ones; no circle (tests/test_import_layers.py holds the whole house so).
Outside the seam no module of the table or of the web calls `is_strike`, compares anything
with `STRIKE` / "strike" or a variable named for a variant with a variant's name, and the
core stays under 400 lines. Nor do the session, the redaction, the computer players or the
command line (issue 35.1): they ask the game's flags (`pi_app.rules.game_info`), never its
name, and compare no string with a variant's name at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rules.test_layers import find_circle, import_graph

import pi_app.cli
import pi_app.computer
import pi_app.table
import pi_app.web
from pi_app.rules import VARIANT_NAMES

TABLE_DIR = Path(pi_app.table.__file__).parent
WEB_DIR = Path(pi_app.web.__file__).parent
APP_DIR = TABLE_DIR.parent
# Callers outside the table and the web that must not ask which game it is either; here no
# string is compared with a variant's name (a table phase may be called "allied").
NAME_FREE = [APP_DIR / "session.py", APP_DIR / "redaction.py",
             *sorted(Path(pi_app.computer.__file__).parent.glob("*.py")),
             *sorted(Path(pi_app.cli.__file__).parent.glob("*.py"))]
PACKAGE = "pi_app.table"
SEAM = "kinds"
CORE_MAX_LINES = 400

PIECES, SEAM_LAYER, ROOMS, CORE, ASSEMBLED = range(5)
LAYER_NAMES = ("pieces", "game-kind seam", "core's rooms", "core", "assembled table")
LAYERS: dict[str, int] = {
    "": PIECES,
    **dict.fromkeys(["wiring", "gestures", "strike_gestures", "lights", "palette", "swells",
                     "tracking", "miswired", "awaiting", "decisions", "aims"], PIECES),
    SEAM: SEAM_LAYER,
    **dict.fromkeys(["effects", "publishing", "seat_rights", "board_inputs", "timers",
                     "computer_play", "host_actions", "undo_rights", "game_facts"], ROOMS),
    "core": CORE,
    **dict.fromkeys(["loop", "service", "painter", "sim", "rig", "starting", "autoplay"],
                    ASSEMBLED),
    # the bring-up mode at the edge of the assembled table (issue 25)
    **dict.fromkeys(["bringup_mode", "bringup_desk", "bringup_lines", "profile_reload"],
                    ASSEMBLED),
}

GRAPH = import_graph(TABLE_DIR, PACKAGE, typing_too=True)


def test_every_table_module_has_a_layer():
    assert [n for n in GRAPH if n not in LAYERS] == [], \
        f"give these modules a layer in {Path(__file__).name}"


@pytest.mark.parametrize("name", sorted(GRAPH), ids=lambda n: n or "__init__")
def test_table_imports_point_down_the_layers(name):
    upward = [f"{t} ({LAYER_NAMES[LAYERS[t]]})" for t in sorted(GRAPH[name])
              if LAYERS[t] > LAYERS[name]]
    assert upward == [], f"{name} ({LAYER_NAMES[LAYERS[name]]}) imports upward: {upward}"


def test_the_table_has_no_import_circle():
    assert find_circle(GRAPH) is None, " -> ".join(find_circle(GRAPH) or [])


def game_kind_questions(source: str, names: tuple[str, ...] = ("strike",)) -> list[int]:
    """Lines that ask which game it is: a use of `is_strike`, a comparison with the name
    `STRIKE` or the string "strike" (any of `names`, also inside a tuple, list or set), or
    a comparison of something named for a variant with any variant's name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name | ast.Attribute | ast.alias):
            name = (node.id if isinstance(node, ast.Name) else
                    node.attr if isinstance(node, ast.Attribute) else node.name)
            if name == "is_strike":
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            about_variant = any("variant" in ast.unparse(side).lower() for side in sides)
            for side in sides:
                items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
                for item in items:
                    if (isinstance(item, ast.Name | ast.Attribute)
                            and getattr(item, "id", getattr(item, "attr", None)) == "STRIKE") \
                            or (isinstance(item, ast.Constant) and item.value in names) \
                            or (isinstance(item, ast.Constant) and about_variant
                                and item.value in VARIANT_NAMES):
                        lines.append(node.lineno)
    return sorted(set(lines))


def modules_asking() -> dict[str, list[int]]:
    found = {}
    for directory in (TABLE_DIR, WEB_DIR):
        for path in sorted(directory.glob("*.py")):
            if directory == TABLE_DIR and path.stem == SEAM:
                continue
            lines = game_kind_questions(path.read_text(encoding="utf-8"))
            if lines:
                found[str(path.relative_to(APP_DIR.parent))] = lines
    for path in NAME_FREE:
        lines = game_kind_questions(path.read_text(encoding="utf-8"), VARIANT_NAMES)
        if lines:
            found[str(path.relative_to(APP_DIR.parent))] = lines
    return found


def test_only_the_seam_asks_which_game_it_is():
    assert modules_asking() == {}


def test_the_check_finds_every_way_of_asking():
    source = ("from pi_app.rules import is_strike\n"
              "a = is_strike(state)\n"
              "b = state.variant == STRIKE\n"
              "c = rules.STRIKE != v\n"
              "d = 'strike' == variant\n"
              "e = state.variant == 'classic'\n"
              "f = args.variant in ('two-player', 'allied')\n"
              "g = chosen in ('two-player', 'allied')\n"
              "h = state.phase == 'allied'\n"
              "i = game_info(state.variant).card_game\n")
    assert game_kind_questions(source) == [1, 2, 3, 4, 5, 6, 7]
    assert game_kind_questions(source, VARIANT_NAMES) == [1, 2, 3, 4, 5, 6, 7, 8, 9]


def test_the_check_reads_the_session_the_redaction_the_computers_and_the_cli():
    names = {path.name for path in NAME_FREE}
    assert {"session.py", "redaction.py", "matches.py", "player.py", "seats.py",
            "simulate.py", "serve.py"} <= names


def test_the_seam_is_where_the_question_is_asked():
    assert game_kind_questions((TABLE_DIR / f"{SEAM}.py").read_text(encoding="utf-8"))


def test_the_core_stays_small():
    lines = len((TABLE_DIR / "core.py").read_text(encoding="utf-8").splitlines())
    assert lines < CORE_MAX_LINES, f"core.py has {lines} lines; move a room out"
