"""Every refusal a player can be given, by the board's gestures, the table loop or the web
API, has words in each page language: `error.<code>` in pi_app/web/i18n/{en,ko,ja,fr}.json,
not empty. The pages word a refusal by its code (`RB.errorText`) and fall back to the
server's English sentence when the key is missing, so a missing key shows English on a
Korean, Japanese or French phone.

The codes are read from the source (each literal code given to `_refuse`, `Refusal`,
`RuleError`, `ApiError`, `CommandRejected` and `PinVerdict`), so a new refusal without words
fails here; a code handed on from another error (`exc.code`) must come from one of those."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from pi_app.rules.errors import ERROR_CODES
from pi_app.rules.strike import STRIKE_ERROR_CODES
from pi_app.web.pages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "pi_app"
WORDS = {lang: json.loads((APP / "web" / "i18n" / f"{lang}.json").read_text("utf-8"))
         for lang in LANGUAGES}

# the call that carries a refusal code, and the position of the code among its arguments
CODE_ARGUMENT = {"_refuse": 1, "Refusal": 0, "RuleError": 0, "ApiError": 1,
                 "CommandRejected": 0, "PinVerdict": 2}
# the board's gestures for the map games, and what the table loop refuses on its own
CLASSIC_BOARD = ["table/gestures.py", "table/core.py", "table/computer_play.py",
                 "table/undo_rights.py"]
# codes handed on from an error already counted (its own literal code is read where raised)
HANDED_ON = {"exc.code", "verdict.code", "bad.code", "code"}


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


def refusal_calls(path: Path) -> list[tuple[str, ast.expr | None, int]]:
    """(called name, its code argument, line) of each refusal-carrying call in `path`."""
    calls = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call) and (name := _called(node)) in CODE_ARGUMENT:
            at = CODE_ARGUMENT[name]
            given = node.args[at] if len(node.args) > at else next(
                (k.value for k in node.keywords if k.arg == "code"), None)
            calls.append((name, given, node.lineno))
    return calls


def literal_codes(paths: list[Path], names: set[str] | None = None) -> set[str]:
    """Each code written out as a string in a refusal call of `paths` (of `names` only)."""
    return {given.value for path in paths for name, given, _ in refusal_calls(path)
            if (names is None or name in names)
            and isinstance(given, ast.Constant) and isinstance(given.value, str)}


def missing_words(codes: set[str]) -> dict[str, list[str]]:
    """Per language, the codes whose `error.<code>` is absent or blank."""
    return {lang: sorted(c for c in codes if not str(words.get(f"error.{c}", "")).strip())
            for lang, words in WORDS.items()}


def test_every_refusal_of_the_boards_gestures_and_the_table_loop_has_words():
    codes = literal_codes([APP / name for name in CLASSIC_BOARD], {"_refuse", "Refusal"})
    # the scan must see the gestures' refusals, or it would pass on nothing
    assert {"not_your_turn", "choose_source_first", "not_adjacent", "touch_to_place",
            "computer_turn", "undo_not_yours", "no_game", "paused"} <= codes
    assert len(codes) >= 20
    assert missing_words(codes) == {lang: [] for lang in LANGUAGES}


def test_every_refusal_of_the_strike_boards_gestures_has_words():
    codes = literal_codes([APP / "table" / "strike_gestures.py"], {"_refuse"})
    assert {"draw_first", "deploy_first", "touch_your_side", "roll_or_stop"} <= codes
    assert missing_words(codes) == {lang: [] for lang in LANGUAGES}


# Codes the Strike board gives with its own meaning: a continent, where the map games' words
# speak of territories (Classic's not_connected is a fortify with no chain of territories).
STRIKE_MEANING = ("choose_attack", "not_connected")


def test_a_code_the_strike_board_means_otherwise_has_its_own_words():
    assert set(STRIKE_MEANING) <= literal_codes([APP / "table" / "strike_gestures.py"],
                                                {"_refuse"})
    assert missing_words({f"strike.{code}" for code in STRIKE_MEANING}) == \
        {lang: [] for lang in LANGUAGES}
    for lang, words in WORDS.items():
        for code in STRIKE_MEANING:
            assert words[f"error.strike.{code}"] != words[f"error.{code}"], (lang, code)


def test_every_refusal_of_the_rules_the_table_and_the_web_api_has_words():
    sources = sorted(APP.rglob("*.py"))
    codes = literal_codes(sources, {"RuleError", "ApiError", "CommandRejected", "PinVerdict"})
    codes |= set(ERROR_CODES) | set(STRIKE_ERROR_CODES)
    assert {"seat_taken", "rate_limited", "not_your_seat", "computer_seat", "window_open",
            "must_trade_cards"} <= codes
    assert len(codes) >= 100
    assert missing_words(codes) == {lang: [] for lang in LANGUAGES}


def test_every_refusal_code_not_written_out_is_handed_on_from_one_that_is():
    """A code computed at the call (not a string) would escape the two tests above."""
    unread = [(str(path.relative_to(ROOT)), line, ast.unparse(given))
              for path in sorted(APP.rglob("*.py"))
              for name, given, line in refusal_calls(path)
              if name != "_refuse" or path.name in ("gestures.py", "strike_gestures.py")
              if given is not None and not isinstance(given, ast.Constant)
              and ast.unparse(given) not in HANDED_ON]
    assert unread == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_refusal_word_is_a_sentence_not_its_key(lang):
    """A catalogue that held the key as its own words ("error.not_adjacent") is not worded."""
    words = WORDS[lang]
    codes = literal_codes([APP / name for name in CLASSIC_BOARD], {"_refuse", "Refusal"})
    echoed = sorted(c for c in codes
                    if str(words.get(f"error.{c}", "")).strip() in (c, f"error.{c}"))
    assert echoed == []
