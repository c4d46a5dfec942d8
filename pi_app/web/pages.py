"""The HTML pages: table view, my view, host view, dice page, virtual board.

Pages are static shells; all behaviour is in static JS files (the CSP forbids inline
scripts) that read the JSON API and the event stream.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from flask import Blueprint, Response, abort, render_template

pages = Blueprint("pages", __name__)


@pages.get("/")
def table_view():
    """The table view: the map and public game state, for anyone at the table."""
    return render_template("table.html", page="table", title="Table")


@pages.get("/me")
def my_view():
    """A player's own view; the seat token arrives in the URL fragment (#t=...)."""
    return render_template("table.html", page="me", title="My seat")


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


@pages.get("/i18n/<lang>.json")
def words(lang: str):
    """One language's catalogue of the pages' words (pi_app/web/i18n/<lang>.json)."""
    if lang not in LANGUAGES:
        abort(404)
    response = Response(catalogue_text(lang), mimetype="application/json")
    response.headers["Cache-Control"] = "public, max-age=300"
    return response
