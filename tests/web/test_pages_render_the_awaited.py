"""The pages render what the table waits for; none works it out again (issue 32.1).

The table computes, in Python, what it waits for: whose hand, which step, what each page
says (`table.waits`, `pi_app.table.awaiting`). A page that decides by itself whom or what
the table awaits is a defect: it said "Yellow · claiming territories" while the table held
Green's claim until Confirm (the silent waits), and "your turn: draw 2 cards" after the host
had ended the game. This static check holds the page scripts to rendering: none reads whose
decision is pending (`pending.player`), Strike's `waiting_for`, the winner of the state, or
compares a seat with whose turn it is or who commands the Allied Army; the helpers that
derived it (computerHold, cardDuty, mySentence, Strike's banner and stateSentence) are gone.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "static"
DECIDING = {
    "whose decision is pending": re.compile(r"\bpending\.player\b"),
    "whom Strike waits for": re.compile(r"\bwaiting_for\b"),
    "whether the game is won": re.compile(r"\b(?:state|s)\.winner\b"),
    "a seat against whose turn it is": re.compile(
        r"current_player\s*[!=]==|[!=]==\s*[\w.]*current_player\b"),
    "a seat against who commands": re.compile(r"commander\s*[!=]==|[!=]==\s*[\w.]*commander\b"),
    "a page's own idea of what is awaited": re.compile(
        r"\b(?:computerHold|cardDuty|mySentence|stateSentence|awaitedAny)\b"
        r"|function\s+(?:awaited|banner|question)\s*\("),
    # issue 32.7: the engine's decision is the table's `decide`, the step its `step`, when a
    # turn moves on its `mark`; no page reads them from the raw state
    "the engine's pending decision": re.compile(r"\b(?:state|s)\.pending\b"),
    "whose turn it is": re.compile(r"\b(?:state|s)\.current_player\b"),
    "the phase as the step": re.compile(
        r"\b(?:state|s)\.phase\s*[!=]==|[!=]==\s*(?:state|s)\.phase\b"
        r"|\.includes\(\s*(?:state|s)\.phase\s*\)"),
    # what two tapped territories may be (attack, fortify, with how many dice or armies) is
    # the table's `aims`: no page works out an attack's dice or "all but one" from the armies
    "the armies a seat may move or roll": re.compile(
        r"armies\[[^\]]+\](?:\s*\|\|\s*\d+\s*\))?\s*-\s*1\b"),
}
# lines that read like a decision but are not one (none since issue 32.7)
ALLOWED: set[tuple[str, str]] = set()


def deciding_lines(name: str, text: str) -> list[tuple[str, str]]:
    """(what it decides, the line) for each line of a script that decides what is awaited."""
    found = []
    for line in text.splitlines():
        code = line.split("//", 1)[0].strip()
        if not code or code.startswith(("/*", "*")) or (name, code) in ALLOWED:
            continue
        found.extend((what, code) for what, pattern in DECIDING.items()
                     if pattern.search(code))
    return found


def test_the_check_finds_a_page_deciding_what_is_awaited():
    before = (  # variants.js and table.js before issue 32
        "export function computerHold(state) {\n"
        "  const waits = state.pending ? [state.pending.player] : [state.current_player];\n"
        "function awaited() { return state.pending ? state.pending.player"
        " : state.current_player; }\n"
        "  if (state.winner) return null;\n"
        "  if (!state.winner && (state.waiting_for || []).includes(me)) mine = true;\n"
        "    if (d.allied_turn.commander === me) return t('state.allied_attack');\n"
        "  const row = RB.el('tr', { class: p === state.current_player ? 'current' : '' });\n"
        # table.js before issue 32.7
        "  const pend = state.pending;\n"
        "  const mark = state ? `${state.turn}:${state.current_player}:${state.phase}` : null;\n"
        "    if (state.phase === 'fortify') {\n"
        # aim.js and my-view.js before the table's aims
        "  const most = (state.armies[pick[0]] || 1) - 1;\n"
        "    else send({ type: 'attack', dice: Math.min(3, (s.armies[source] || 1) - 1) });\n")
    found = {what for what, _ in deciding_lines("x.js", before)}
    assert found == set(DECIDING)
    after = ("  const w = waits(state);\n"
             "  b.dataset.phase = state.phase;\n"
             "    if (waits(view.state).step === 'fortify') send(command);\n"
             "  if (w.status === 'over') RB.sayIn(b, w.says.banner, w);\n"
             "    case 'game_won': return t('log.game_won', { player: who(ev.winner) });\n")
    assert deciding_lines("x.js", after) == []


def test_no_page_decides_what_the_table_waits_for():
    scripts = sorted(STATIC.glob("*.js"))
    assert {"table.js", "virtual.js", "variants.js", "strike.js", "host.js", "my-view.js",
            "board-view.js", "aim.js"} <= {s.name for s in scripts}
    deciding = {s.name: lines for s in scripts
                if (lines := deciding_lines(s.name, s.read_text("utf-8")))}
    assert deciding == {}


def test_the_pages_render_the_tables_sentences():
    """The banner, /virtual's line and My view's sentence are the table's `says`, and My
    view's question and its buttons the table's `decide`."""
    text = {s.name: s.read_text("utf-8") for s in STATIC.glob("*.js")}
    assert "w.says.banner" in text["board-view.js"] and "w.says.banner" in text["strike-kind.js"]
    assert "says.seat" in text["my-view.js"] and "w.decide" in text["my-view.js"]
    assert "w.says.line" in text["virtual.js"]
    assert "export function say(sentence)" in text["saying.js"]
