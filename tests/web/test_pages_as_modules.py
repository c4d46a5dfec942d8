"""The pages as a room of their own (issue 32.7): every page script is an ES module (no
global, no classic script), and no page file grows past 400 lines (ESLint's max-lines says
the same in `make jscheck`; this holds it where node is not installed)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "pi_app" / "web" / "static"
TEMPLATES = ROOT / "pi_app" / "web" / "templates"
MOST_LINES = 400  # issue 32.7's aim (table.js had 715)
SCRIPT = re.compile(r"<script\b([^>]*)>")


def classic_scripts(html: str) -> list[str]:
    """A template's script tags that run as classic scripts (not modules, not JSON data)."""
    return [attrs for attrs in SCRIPT.findall(html)
            if 'type="module"' not in attrs and 'type="application/json"' not in attrs]


def test_the_check_finds_a_classic_script():
    before = '<script src="{{ url_for(\'static\', filename=\'common.js\') }}"></script>'
    assert classic_scripts(before) != []
    assert classic_scripts('<script type="module" src="x.js"></script>'
                           '<script type="application/json" id="rb-words">{}</script>') == []


def test_every_page_script_is_a_module():
    found = {t.name: s for t in sorted(TEMPLATES.glob("*.html"))
             if (s := classic_scripts(t.read_text("utf-8")))}
    assert found == {}
    globals_ = {s.name for s in STATIC.glob("*.js")
                if re.search(r"\bwindow\.RB\b|^const RB\b", s.read_text("utf-8"), re.M)}
    assert globals_ == set()


def test_no_page_file_is_over_400_lines():
    sizes = {s.name: n for s in sorted(STATIC.glob("*.js"))
             if (n := len(s.read_text("utf-8").splitlines())) > MOST_LINES}
    assert sizes == {}
