"""The web's side of the game-kind seam (issue 22.1): the pages ask the snapshot's
`table.kind` ("board" or "strike", `pi_app.table.kinds`) whether the game is RISK Strike,
never a variant's name, so a new variant of either kind needs no page change."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "static"
# `variant === "strike"`, `variant != 'strike'`, `"strike" === state.variant`, ...
BY_VARIANT = re.compile(r"""variant\s*[!=]==?\s*["']strike["']|["']strike["']\s*[!=]==?\s*"""
                        r"""[\w.]*variant\b""")


def variant_checks(text: str) -> list[str]:
    """The lines of a script that ask a variant's name whether the game is Strike."""
    return [line.strip() for line in text.splitlines() if BY_VARIANT.search(line)]


def test_the_check_finds_what_it_looks_for():
    found = variant_checks('const a = state.variant === "strike";\n'
                           "if ('strike' !== state.variant) go();\n"
                           'const b = state.table.kind === "strike";\n')
    assert len(found) == 2 and all("variant" in line for line in found)


def test_no_page_script_asks_the_variant_name_whether_the_game_is_strike():
    scripts = sorted(STATIC.glob("*.js"))
    assert len(scripts) >= 5, STATIC
    asking = {s.name: variant_checks(s.read_text("utf-8")) for s in scripts}
    assert {name: lines for name, lines in asking.items() if lines} == {}


def test_the_pages_ask_the_tables_kind():
    """kinds.js, for every page (issue 32.7)."""
    assert 'table.kind === "strike"' in (STATIC / "kinds.js").read_text("utf-8")


# ----- issue 32.7: the game's kind asked in one place ----------------------------------------
# A branch on the game's kind: reading the table's kind, comparing with a kind's name, asking
# "is it Strike?" by a function, or comparing one kind (module) with another. Calling a kind
# module's own function (`view.kind.render(view)`) is not one: the kind answers for itself.
KIND_BRANCH = re.compile(
    r"""\btable\.kind\b|["']strike["']\s*[!=]==|[!=]==\s*["']strike["']"""
    r"""|\b(?:isStrike|strikeState|isStrikeGame)\s*\(|(?<![.\w])kind\s*[!=]==|[!=]==\s*kind\b""")
MOST_KIND_BRANCHES = 3  # issue 32.7's aim (24 places before it)


def kind_branches(text: str) -> list[str]:
    """The code lines of a script that branch on the game's kind (comments left out)."""
    code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    lines = (line.split("//", 1)[0].strip() for line in code.splitlines())
    return [line for line in lines if KIND_BRANCH.search(line)]


def test_the_kind_count_finds_each_way_of_asking():
    before = ('const strikeState = (s) => !!(s && s.table && s.table.kind === "strike");\n'
              "  const own = isStrike() ? S.describe(ev) : V.describe(ev);\n"
              '  if (badgesFor !== "strike") { badgesFor = "strike"; map.relabel(); }\n'
              '    const kind = isStrike() ? "strike" : "board";\n'
              "    if (kind === controlsFor) return;\n"
              "/* the table's kind (`table.kind`) */\n")
    assert len(kind_branches(before)) == 5
    assert kind_branches("  view.kind.render(view);\n  const k = kindOf(state);\n") == []


def test_the_pages_ask_the_games_kind_in_one_place():
    branches = {s.name: found for s in sorted(STATIC.glob("*.js"))
                if (found := kind_branches(s.read_text("utf-8")))}
    assert sum(map(len, branches.values())) <= MOST_KIND_BRANCHES, branches
    assert set(branches) <= {"kinds.js"}, branches
