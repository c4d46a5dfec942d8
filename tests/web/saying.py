"""The table's sentences (`table.waits`, `pi_app.table.awaiting`) in a language's words, as
the pages' `say` (saying.js) words them, by the contract the awaiting module documents:
a sentence is a catalogue key and its parameters; a parameter is a number or plain text, or
a typed value (a colour, colours, a territory, a continent, a catalogue word, a nested
sentence, or a list of sentences). The browser tests read a page and compare it with this."""

from __future__ import annotations

from typing import Any

from .test_browser_game_night import catalogue, say


def value(lang: str, v: Any) -> Any:
    """One parameter in `lang`'s words (numbers stay numbers: `key.one` when n is 1)."""
    words = catalogue(lang)
    if v is None:
        return ""
    if not isinstance(v, dict):
        return v
    if "key" in v:
        return words_of(lang, v)
    if "colour" in v:
        return "" if v["colour"] is None else words.get(f"colour.{v['colour']}", v["colour"])
    if "colours" in v:
        return words["list.separator"].join(words.get(f"colour.{p}", p)
                                            for p in v["colours"]) or "–"
    if "territory" in v:
        return words.get(f"territory.{v['territory']}", v["territory"]) if v["territory"] else ""
    if "continent" in v:
        return words.get(f"continent.{v['continent']}", v["continent"])
    if "word" in v:
        return words.get(f"{v['word']}.{v['of']}", str(v["of"]).replace("_", " "))
    if "list" in v:
        sep = words.get(f"list.{v.get('join')}", words["list.separator"])
        return sep.join(str(value(lang, x)) for x in v["list"])
    raise AssertionError(f"a parameter the pages cannot word: {v}")


def words_of(lang: str, sentence: dict[str, Any]) -> str:
    """A sentence of the table in `lang`."""
    if "key" not in sentence:
        return str(value(lang, sentence))
    params = {k: value(lang, v) for k, v in (sentence.get("params") or {}).items()}
    return say(lang, sentence["key"], **params)
