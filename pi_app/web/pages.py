"""The HTML pages: table view, my view, host view, dice page, virtual board.

Pages are shells; all behaviour is in static JS files (the CSP forbids inline scripts) that
read the JSON API and the event stream. So that a slow phone's first render waits for no
request beyond the page itself, every page carries the words of its language (the phone's
`riskboard.lang` cookie, set by the page when a language is picked, else its
Accept-Language) and the table pages the map, as inert JSON data blocks
(`<script type="application/json">`, which the CSP does not run) that common.js and
table.js read in place of `/i18n/<lang>.json` and `/api/map`.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from flask import Blueprint, Response, abort, has_request_context, render_template, request

pages = Blueprint("pages", __name__)

LANG_COOKIE = "riskboard.lang"


@pages.get("/")
def table_view():
    """The table view: the map and public game state, for anyone at the table."""
    return render_template("table.html", page="table", title="Table", map_json=map_json(),
                           stream="public")


@pages.get("/me")
def my_view():
    """A player's own view; the seat token arrives in the URL fragment (#t=...)."""
    return render_template("table.html", page="me", title="My seat", map_json=map_json(),
                           stream="private")


@pages.get("/join")
def join_view():
    """Type a seat's short code (shown on the host page beside its QR code) to take the seat
    on a device that cannot scan; it then opens My view as the QR link would."""
    return render_template("join.html", page="join", title="Join")


@pages.get("/host")
def host_view():
    """The host console: new game, seat QR codes, undo, pause, end game, journal."""
    return render_template("host.html", page="host", title="Host")


@pages.get("/dice")
def dice_view():
    """Dice you can trust: counts, chi-square, luck, seed verification."""
    return render_template("dice.html", page="dice", title="Dice")


@pages.get("/virtual")
def virtual_view():
    """The virtual board (simulation): the whole board, territories, buttons and LEDs."""
    return render_template("virtual.html", page="virtual", title="Virtual board")


@pages.get("/openapi.yaml")
def openapi():
    """The API description for other clients."""
    text = resources.files("pi_app.web").joinpath("openapi.yaml").read_text("utf-8")
    return Response(text, mimetype="application/yaml")


LANGUAGES = ("en", "ko", "ja", "fr")


@lru_cache(maxsize=len(LANGUAGES))
def catalogue_text(lang: str) -> str:
    """One language's catalogue as served: its words over the English ones, so a key added
    in English first (tests/web/test_i18n.py asks for all four) reads in English meanwhile."""
    folder = resources.files("pi_app.web").joinpath("i18n")
    words = json.loads(folder.joinpath("en.json").read_text("utf-8"))
    if lang != "en":
        words.update(json.loads(folder.joinpath(f"{lang}.json").read_text("utf-8")))
    return json.dumps(words, ensure_ascii=False, separators=(",", ":"))


def page_language() -> str:
    """The language a page is sent in: the one this phone picked (its cookie), else the best
    of its Accept-Language, else English. The page still checks its own choice (kept in the
    browser) and asks for other words when they differ."""
    if not has_request_context():
        return "en"
    kept = request.cookies.get(LANG_COOKIE)
    if kept in LANGUAGES:
        return kept
    return request.accept_languages.best_match(LANGUAGES) or "en"


def inline_json(text: str) -> str:
    """JSON text made safe inside an HTML `<script type="application/json">` block: no
    `</script>`, comment opener or entity can end or change it (JSON reads the escapes back)."""
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


@lru_cache(maxsize=len(LANGUAGES))
def inline_words(lang: str) -> str:
    """One language's catalogue as the pages carry it inline."""
    return inline_json(catalogue_text(lang))


@lru_cache(maxsize=1)
def map_json() -> str:
    """The board layout (`/api/map`'s answer) as the table pages carry it inline."""
    from pi_app.web.api import board_map

    return inline_json(json.dumps(board_map(), ensure_ascii=False, separators=(",", ":")))


@pages.app_context_processor
def page_words() -> dict[str, str]:
    """Every page's language and its words, for base.html's inline catalogue."""
    lang = page_language()
    return {"page_lang": lang, "page_words": inline_words(lang)}


@pages.get("/i18n/<lang>.json")
def words(lang: str):
    """One language's catalogue of the pages' words (pi_app/web/i18n/<lang>.json)."""
    if lang not in LANGUAGES:
        abort(404)
    response = Response(catalogue_text(lang), mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
