"""The catalogues read as a player of each language says things (issue 14 item 6), beyond
what test_i18n checks (same keys, same placeholders): the politeness level and the one word
per game term that pi_app/web/i18n/GLOSSARY.md records, and sentences that stay grammatical
whatever territory, colour or army name fills a placeholder."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "ko", "ja", "fr")}
COLOURS = ("black", "blue", "green", "pink", "red", "yellow")
# placeholders that hold a territory, continent or army name (not a player's colour)
NAMES = r"\{(?:to|from|territory|army|defender|continent)\}"


def test_korean_speaks_the_friendly_haeyo_style():
    # 해요체 (…어요/…세요), never the formal 합니다체 of a manual
    formal = {k: v for k, v in WORDS["ko"].items() if re.search(r"(습|합|입|됩)니(다|까)", v)}
    assert formal == {}


def test_korean_particles_never_show_both_forms_after_a_name():
    # "{to}을(를)" reads like a form to fill in; sentences use particles that fit any name
    # (에, 에서, 의, 에게) or none
    double = re.compile(r"\}(?:이\(가\)|가\(이\)|을\(를\)|를\(을\)|은\(는\)|는\(은\)"
                        r"|\(으\)로|와\(과\)|과\(와\))")
    both = {k: v for k, v in WORDS["ko"].items() if double.search(v)}
    assert both == {}


@pytest.mark.parametrize("lang", ["en", "ko", "ja"])
def test_a_destroy_mission_names_the_colour_as_the_seat_is_named(lang):
    words = WORDS[lang]
    wrong = [c for c in COLOURS if words[f"mission.destroy-{c}"].count(words[f"colour.{c}"]) < 2]
    assert wrong == []


def test_japanese_has_one_word_for_territory_and_for_phone():
    # 領域 (the seed 003's word), スマホ (what a Japanese player calls the phone in hand)
    assert [k for k, v in WORDS["ja"].items() if "領土" in v or "電話" in v] == []


def test_english_capitalises_a_colour_as_a_name_everywhere():
    # "Destroy all Red armies", "Red's turn": a seat's colour is its name (issue 23.9)
    assert all(WORDS["en"][f"colour.{c}"] == c.title() for c in COLOURS)
    lower = re.compile(r"\b(?:" + "|".join(COLOURS) + r")\b")
    assert {k: v for k, v in WORDS["en"].items() if lower.search(v)} == {}


def test_japanese_card_symbols_are_the_words_of_the_japanese_rules():
    # seed 003, the Japanese edition's rules, says "歩兵、騎馬、砲台の絵" (not 騎兵/砲兵), as
    # the glossary quotes it
    symbols = [WORDS["ja"][f"card.{s}"] for s in ("infantry", "cavalry", "artillery")]
    assert symbols == ["歩兵", "騎馬", "砲台"]
    assert '003 ("歩兵、騎馬、砲台の絵")' in (I18N / "GLOSSARY.md").read_text("utf-8")


def test_japanese_counts_armies_in_one_word():
    # a count of armies is "3兵" (GLOSSARY: seed 003's "1兵"); 軍隊 is a colour's whole force
    # and 部隊 a Strike troop card, never a count
    counted = {k: v for k, v in WORDS["ja"].items()
               if re.search(r"(?:\{n\}|\d)\s*(?:軍隊|軍|部隊(?!カード)|ユニット)", v)}
    assert counted == {}
    assert "{n}兵" in WORDS["ja"]["banner.to_place"]


def test_japanese_sentences_are_polite():
    polite = re.compile(r"(ます|です|ません|ました|さい)。$")
    plain = [k for k, v in WORDS["ja"].items()
             if k.startswith(("error.", "hint.")) and not polite.search(v)]
    assert plain == []


def test_french_never_puts_an_article_or_elision_before_a_name():
    # "en {territory}" gives "en Japon", "de {army}" gives "de Armée alliée": such names
    # follow a colon, an arrow or stand in parentheses instead
    before = re.compile(r"(?i)\b(?:de|du|des|en|au|aux|depuis|le|la|les|sur|à|vers|l'armée)\s+"
                        + NAMES)
    wrong = {k: v for k, v in WORDS["fr"].items() if before.search(v)}
    assert wrong == {}


def test_french_counts_regiments_as_the_french_edition_does():
    # the edition counts "régiments"; "armée" is a colour's whole force ("les armées bleues")
    counted = {k: v for k, v in WORDS["fr"].items() if re.search(r"(?:\{n\}|\b\d+) armées?\b", v)}
    assert counted == {}


def test_french_says_vous_as_the_french_rule_book_does():
    tu = {k: v for k, v in WORDS["fr"].items() if re.search(r"(?i)\b(?:tu|ton|ta|tes|toi)\b", v)}
    assert tu == {}


def test_the_pages_join_words_with_a_colon_only_through_the_catalogue():
    # "Vert : …", "緑：…": a label and its value are joined as each language writes it
    # (list.labelled, vboard.refusal_to, host.seat_caption), never by ": " in a page's code
    static = I18N.parent / "static"
    joined = {f"{path.name}:{number}": line.strip()
              for path in sorted(static.glob("*.js"))
              for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
              if re.search(r"\}: \$\{", line)}
    assert joined == {}
    assert WORDS["fr"]["list.labelled"] == "{label} : {value}"
    assert WORDS["ja"]["list.labelled"] == "{label}：{value}"


# ASCII punctuation a Japanese sentence never uses (issue 32.6): Japanese has 、。：；（）！？
ASCII_IN_JAPANESE = re.compile(r"[,;:!?()]|～")
# kept on purpose: a literal of the dice's format ("v2:") and a formula ("p =")
JAPANESE_LITERALS = {"dicepage.commitment": "「v2:」", "dicepage.df": "p ="}


def test_japanese_writes_japanese_punctuation_only():
    slips = {k: v for k, v in WORDS["ja"].items()
             if ASCII_IN_JAPANESE.search(re.sub(r"\{\w+\}", "", v).replace(
                 JAPANESE_LITERALS.get(k, "\0"), ""))}
    assert slips == {}


def test_french_puts_one_space_before_double_punctuation_everywhere():
    # the French catalogue's one choice (a plain space before : ; ? !, as phones wrap it),
    # held everywhere but in a literal of the dice's format ("v2:")
    slips = {k: v for k, v in WORDS["fr"].items()
             if re.search(r"[^\s][:;?!]", re.sub(r"https?://\S+|« v2: »", "", v))}
    assert slips == {}


@pytest.mark.parametrize("lang", ["en", "ko", "ja", "fr"])
def test_every_language_says_how_it_joins_steps_and_items(lang):
    # the table's lists ({list, join}) are joined by the catalogue's words, never the page's
    assert {"list.steps", "list.comma", "list.separator"} <= set(WORDS[lang])
    if lang == "ja":
        assert not ASCII_IN_JAPANESE.search("".join(
            WORDS["ja"][f"list.{k}"] for k in ("steps", "comma", "separator")))


def test_the_pages_join_the_tables_lists_only_through_the_catalogue():
    saying = (I18N.parent / "static" / "saying.js").read_text("utf-8")
    literal = re.findall(r"""join\((?:"[^"]+"|'[^']+')\)|JOINS\s*=""", saying)
    assert literal == []
