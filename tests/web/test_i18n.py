"""The pages' language catalogues (pi_app/web/i18n/<lang>.json): English, Korean, Japanese
and French hold the same keys with the same placeholders, and they cover every word the
pages ask for: each refusal code, variant, colour, mission, tactics card, territory and
continent, and every key the scripts and templates name."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest

from pi_app.rules.errors import ERROR_CODES
from pi_app.web import create_app
from pi_app.web.pages import LANGUAGES
from pi_app.web.variants import variant_catalogue

WEB = Path(__file__).resolve().parents[2] / "pi_app" / "web"
DATA = WEB.parent / "data"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text("utf-8"))


CATALOGUES = {lang: catalogue(lang) for lang in LANGUAGES}
ENGLISH = CATALOGUES["en"]


def test_the_four_languages_of_the_rule_books_are_served():
    assert set(LANGUAGES) == {"en", "ko", "ja", "fr"}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_key_exists_in_every_language(lang):
    words = CATALOGUES[lang]
    assert sorted(set(ENGLISH) - set(words)) == [], f"{lang} lacks these keys"
    assert sorted(set(words) - set(ENGLISH)) == [], f"{lang} has keys English lacks"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_placeholder_matches_the_english_one(lang):
    wrong = {key: (PLACEHOLDER.findall(ENGLISH[key]), PLACEHOLDER.findall(text))
             for key, text in CATALOGUES[lang].items()
             if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(ENGLISH[key]))}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sentence_is_empty(lang):
    assert [k for k, v in CATALOGUES[lang].items() if not v.strip()] == []


@pytest.mark.parametrize("lang", ["ko", "ja"])
def test_korean_and_japanese_names_are_written_in_their_own_script(lang):
    latin = [k for k, v in CATALOGUES[lang].items()
             if k.startswith(("territory.", "continent.", "colour.", "mission."))
             and re.search(r"[A-Za-z]{3,}", PLACEHOLDER.sub("", v))]
    assert latin == []


def test_every_refusal_code_has_a_sentence():
    missing = [code for code in ERROR_CODES if f"error.{code}" not in ENGLISH]
    assert missing == []


def test_every_game_word_of_the_data_files_has_a_sentence():
    board = json.loads((DATA / "map.json").read_text("utf-8"))
    missions = json.loads((DATA / "missions.json").read_text("utf-8"))
    strike = json.loads((DATA / "strike.json").read_text("utf-8"))
    players = json.loads((DATA / "players.json").read_text("utf-8"))
    keys = [f"territory.{t['id']}" for t in board["territories"]]
    keys += [f"abbr.{t['id']}" for t in board["territories"]]
    keys += [f"continent.{c['id']}" for c in board["continents"]]
    keys += [f"mission.{card['id']}" for deck in missions["decks"].values()
             for card in deck["cards"]]
    keys += [f"tactic.{card['id']}" for card in strike["tactics"]]
    keys += [f"colour.{c}" for c in [*players["colours"], "neutral", "allied"]]
    keys += [f"variant.{v['id']}" for v in variant_catalogue()["variants"]]
    assert [k for k in keys if k not in ENGLISH] == []


def test_every_key_the_pages_name_is_in_the_catalogue():
    named = set()
    for script in (WEB / "static").glob("*.js"):
        named |= set(re.findall(r"\bt\(\s*\"([a-z_0-9.-]+)\"", script.read_text("utf-8")))
    for template in (WEB / "templates").glob("*.html"):
        named |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([a-z_0-9.-]+)"',
                                template.read_text("utf-8")))
    assert len(named) > 100
    assert sorted(named - set(ENGLISH)) == []


def test_the_catalogue_is_served_per_language_and_nothing_else(tmp_path, served_table):
    client = create_app(served_table(), host_pin="13572468",
                        data_dir=tmp_path / "d").test_client()
    answer = client.get("/i18n/ko.json")
    assert answer.status_code == 200
    assert answer.get_json()["territory.japan"] == "일본"
    assert client.get("/i18n/de.json").status_code == 404
    assert client.get("/i18n/..%2Fapi.json").status_code == 404


def test_a_key_missing_in_a_language_is_served_in_english(tmp_path, monkeypatch):
    pages = importlib.import_module("pi_app.web.pages")  # the package exports the blueprint
    pages.catalogue_text.cache_clear()
    real = json.loads

    def without_japan(text, *args, **kwargs):
        words = real(text, *args, **kwargs)
        if words.get("territory.japan") == "日本":
            del words["territory.japan"]
        return words

    monkeypatch.setattr(pages.json, "loads", without_japan)
    try:
        served = real(pages.catalogue_text("ja"))
    finally:
        pages.catalogue_text.cache_clear()
    assert served["territory.japan"] == "Japan"
    assert served["territory.china"] == "中国"
