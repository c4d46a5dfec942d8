"""The HTML pages: table view, my view, host view, dice page, virtual board.

Pages are shells; all behaviour is in static JS files (the CSP forbids inline scripts) that
read the JSON API and the event stream. So that a slow phone's first render waits for no
request beyond the page itself, every page carries the words of its language (the phone's
`riskboard.lang` cookie, set by the page when a language is picked, else its
Accept-Language) and the table pages the map, as inert JSON data blocks
(`<script type="application/json">`, which the CSP does not run) that language.js and
table.js read in place of `/i18n/<lang>.json` and `/api/map`. The table pages and the virtual
board also come with the map itself drawn (`map_svg`): the tiles, continents and sea lanes in
the page's words, unpainted, so the first paint already holds the board and map.js only
colours it.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

from flask import Blueprint, Response, abort, has_request_context, render_template, request
from markupsafe import Markup, escape

pages = Blueprint("pages", __name__)

LANG_COOKIE = "riskboard.lang"


@pages.get("/")
def table_view():
    """The table view: the map and public game state, for anyone at the table."""
    return render_template("table.html", page="table", title="Table", map_json=map_json(),
                           map_svg=map_svg(page_language()), stream="public")


@pages.get("/me")
def my_view():
    """A player's own view; the seat token arrives in the URL fragment (#t=...)."""
    return render_template("table.html", page="me", title="My seat", map_json=map_json(),
                           map_svg=map_svg(page_language()), stream="private")


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
    return render_template("virtual.html", page="virtual", title="Virtual board",
                           map_svg=map_svg(page_language()))


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


# the map's drawing units: its viewBox, and a tile's size (map.js reads them from the drawing)
MAP_W, MAP_H, TILE_W, TILE_H = 1000, 535, 78, 46
CONTINENT_FILL = {
    "north-america": "#fff3d6", "south-america": "#ffe1d6", "europe": "#dde8ff",
    "africa": "#f6e6c8", "asia": "#dff3e0", "australia": "#f3ddf3",
}


def _tag(name: str, attrs: dict[str, object], inner: str = "") -> str:
    """An element's markup; an empty SVG shape closes itself (`<rect .../>`, as SVG in HTML
    allows)."""
    written = "".join(f' {k}="{escape(str(v))}"' for k, v in attrs.items())
    if not inner and name in ("rect", "path"):
        return f"<{name}{written}/>"
    return f"<{name}{written}>{inner}</{name}>"


@lru_cache(maxsize=len(LANGUAGES))
def map_svg(lang: str) -> Markup:
    """The map as map.js takes it over (`drawMap`), drawn from `/api/map`'s layout in `lang`'s
    words: continents with their names and bonuses, sea lanes (the Pacific one wraps around
    the edge), and 42 unpainted tiles with their short labels (the virtual board's LED glow
    behind a tile is added by map.js where it is drawn); then the zoom buttons, the
    zoom note and the text alternative's (closed, filled by map.js) list. Public and static:
    nothing of any game."""
    from pi_app.web.api import board_map

    layout = board_map()
    words = json.loads(catalogue_text(lang))

    def word(key: str, fallback: str) -> str:
        return words.get(key, fallback)

    pos = {t["id"]: t for t in layout["territories"]}
    tw, th = TILE_W, TILE_H
    backs, labels, tiles = [], [], []
    for c in layout["continents"]:
        ts = [pos[tid] for tid in c["territories"]]
        x0 = min(t["x"] for t in ts) - tw // 2 - 8
        x1 = max(t["x"] for t in ts) + tw // 2 + 8
        y0 = min(t["y"] for t in ts) - th // 2 - 8
        y1 = max(t["y"] for t in ts) + th // 2 + 24
        backs.append(_tag("rect", {"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0,
                                   "rx": 18, "fill": CONTINENT_FILL.get(c["id"], "#eee"),
                                   "class": "continent"}))
        right = c["id"] == "asia"  # Asia's lower left corner lies over Africa
        name = word(f"continent.{c['id']}", c["id"])
        labels.append(_tag("text", {"x": x1 - 8 if right else x0 + 8, "y": y1 - 6,
                                    "class": "continent-label", "data-id": c["id"],
                                    "text-anchor": "end" if right else "start"},
                           escape(f"{name} +{c['bonus']}")))
    # the sea lanes in one path and the land borders in another, a segment each: two shapes
    # for a slow phone to lay out and paint instead of 84 lines (a dash pattern restarts at
    # each segment, as it did at each line)
    land: list[str] = []
    sea: list[str] = []
    for a, b in layout["edges"]:
        p, q = pos[a], pos[b]
        if abs(p["x"] - q["x"]) > MAP_W / 2:
            west, east = (p, q) if p["x"] < q["x"] else (q, p)
            sea.append(f"M{west['x']} {west['y']}H0")
            sea.append(f"M{east['x']} {east['y']}H{MAP_W}")
        else:
            (sea if p["continent"] != q["continent"] else land).append(
                f"M{p['x']} {p['y']}L{q['x']} {q['y']}")
    lines = [_tag("path", {"d": "".join(land), "class": "edge"}),
             _tag("path", {"d": "".join(sea), "class": "edge sea"})]
    for t in layout["territories"]:
        abbr = word(f"abbr.{t['id']}", t["id"])
        name = word(f"territory.{t['id']}", t["id"])
        text = _tag("text", {"class": "tile-text"},
                    _tag("tspan", {"x": tw // 2, "y": 13, "class": "abbr"}, escape(abbr))
                    + " " + _tag("tspan", {"x": tw // 2, "y": 39, "class": "count"}))
        # the owners, counts, inks and full accessible names come with map.js's first paint
        tiles.append(_tag("g", {
            "class": "tile", "data-id": t["id"], "tabindex": 0, "role": "button",
            "transform": f"translate({t['x'] - tw // 2},{t['y'] - th // 2})",
            "aria-label": f"{abbr} · {name}"},
            _tag("rect", {"width": tw, "height": th, "rx": 10, "class": "land",
                            "fill": "#d0d4da"})
            + text))
    svg = _tag("svg", {"viewBox": f"0 0 {MAP_W} {MAP_H}", "class": "worldmap", "role": "group",
                       "preserveAspectRatio": "xMidYMid meet", "data-lang": lang,
                       "aria-label": word("map.label", "map")},
               _tag("g", {"class": "continents"}, "".join(backs))
               + _tag("g", {"class": "continent-labels", "aria-hidden": "true"}, "".join(labels))
               + _tag("g", {"class": "edges", "aria-hidden": "true"}, "".join(lines))
               + "".join(tiles))

    def zoom(kind: str, key: str, face: str, disabled: bool) -> str:
        label = word(key, kind)
        attrs: dict[str, object] = {"type": "button", "class": f"zoom-{kind}", "data-zoom": kind,
                                    "aria-label": label, "title": label}
        if disabled:
            attrs["disabled"] = ""
        return _tag("button", attrs, face)

    tools = _tag("div", {"class": "map-tools"},
                 _tag("div", {"class": "zoom-controls"},
                      zoom("in", "map.zoom_in", "+", False) + zoom("out", "map.zoom_out", "−", True)
                      + zoom("reset", "map.zoom_reset", "⤢", True))
                 + _tag("p", {"class": "zoom-note small"}, escape(word("map.zoom_note", "")))
                 + _tag("details", {"class": "map-list"},
                        _tag("summary", {}, escape(word("map.list", "")))
                        + _tag("div", {"class": "map-list-body"})))
    return Markup(_tag("div", {"class": "map-frame", "data-scale": "1.00"}, svg) + tools)
