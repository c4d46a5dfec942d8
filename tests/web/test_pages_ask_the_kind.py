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
    text = "\n".join(s.read_text("utf-8") for s in STATIC.glob("*.js"))
    # table.js and virtual.js (variants.js no longer asks: what the table waits for comes
    # from the table, `table.waits`, test_pages_render_the_awaited.py)
    assert text.count('table.kind === "strike"') >= 2
