"""Issue 14's browser matrix: every page (table, My view, host locked and unlocked, /dice,
/virtual) in every language and every variant, at 360×640, 390×844 and 1366×768: no
sideways scroll, the whole map inside the window, no console error, no failed request,
and no serious or critical axe-core violation; a screenshot of each at phone size lands
in test-artifacts/web/matrix-<page>-<variant>-<lang>.png. And in every language, the
state sentence a player reads in each phase: defence (and the attacker waiting), move-in,
trade-down, eliminated, won (and the others told who won).

Cost is kept down by one browser context and one page object per page per language: the
variants are switched by driving the real table service behind the server (a new game, bot
play to a phase worth showing), each page reloads, and is checked at the three sizes by resizing.
axe runs every WCAG 2.1 A/AA rule in English (the structure changes with the variant) and,
in the other languages, the rules whose outcome can change with the words (`WORD_RULES`:
names, language, contrast of text that wraps or overflows, scrolling regions)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pi_app.table_api import Viewer
from pi_app.web import create_app
from pi_app.web.limits import StreamSlots
from pi_app.web.pages import LANGUAGES
from pi_app.web.serve import start_background

from .browsing import ARTIFACTS, PIN, serious_accessibility_problems
from .conftest import attack_needing_defence, play_until
from .real_table import ServedTable

pytestmark = pytest.mark.browser
SIZES = ({"width": 360, "height": 640}, {"width": 390, "height": 844},
         {"width": 1366, "height": 768})
PLAYERS = ("red", "blue", "green")
VARIANTS = {
    "classic": (PLAYERS, lambda s: s.phase == "attack"),
    "mission": (PLAYERS, lambda s: s.phase == "reinforce"),
    "capital": (PLAYERS, lambda s: s.phase == "hq_pick"),
    "two-player": (PLAYERS[:2], lambda s: s.phase == "setup_place"),
    "allied": (PLAYERS[:2], lambda s: s.phase == "allied"),
    "strike": (PLAYERS[:2], lambda s: True),
}
WORDS = {lang: json.loads((Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
                           / f"{lang}.json").read_text("utf-8")) for lang in LANGUAGES}
# axe rules whose outcome can change with the page's words alone (the DOM is the same)
WORD_RULES = [
    "aria-command-name", "aria-dialog-name", "aria-input-field-name", "aria-meter-name",
    "aria-progressbar-name", "aria-toggle-field-name", "aria-tooltip-name", "button-name",
    "color-contrast", "document-title", "empty-heading", "empty-table-header",
    "html-has-lang", "html-lang-valid", "html-xml-lang-mismatch", "image-alt",
    "input-button-name", "label", "link-name", "role-img-alt", "scrollable-region-focusable",
    "select-name", "svg-img-alt", "valid-lang",
]


class Watched:
    """One page of the matrix and the console errors and failed requests it caused."""

    def __init__(self, context, name: str, url: str, ready: str) -> None:
        self.name, self.url, self.ready = name, url, ready
        self.problems: list[str] = []
        self.page = context.new_page()
        self.page.on("console", lambda m: self.problems.append(f"console: {m.text}")
                     if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"error: {e}"))
        self.page.on("response", lambda r: self.problems.append(f"{r.status} {r.url}")
                     if r.status >= 400 else None)
        # a reload aborts what the page had in flight (its stream, a ticket): not its fault
        self.page.on("requestfailed", lambda r: self.problems.append(f"failed {r.url}")
                     if r.failure != "net::ERR_ABORTED" else None)
        self.page.goto(url)
        self.wait()

    def wait(self) -> None:
        self.page.wait_for_selector(self.ready)

    def leave(self) -> None:
        """Off the table while the bots play to the next variant's position: the page would
        draw each of their moves, and is loaded afresh after them anyway. It waits on a
        static file of the same origin (the context's scripts read its local storage, which
        about:blank denies)."""
        origin = "/".join(self.url.split("/")[:3])
        self.page.goto(f"{origin}/static/style.css")

    def reload(self) -> None:
        # the page in front: a background tab draws no frame until asked, and each resize
        # and screenshot would wait about a second for one
        self.page.bring_to_front()
        self.page.reload()
        self.wait()

    def back(self) -> None:
        """Load the page again after `leave` (in the same tab: its session storage, so the
        host's login, stays), in front like `reload`."""
        self.page.bring_to_front()
        self.page.goto(self.url)
        self.wait()


def check_sizes(page, name: str) -> None:
    """At each size: no sideways scroll, and the whole map (if the page has one) inside the
    window; the page ends at the phone size for its screenshot."""
    for size in (*SIZES[1:], SIZES[0]):
        page.set_viewport_size(size)
        page.wait_for_function("w => window.innerWidth === w", arg=size["width"])
        where = f"{name} at {size['width']}×{size['height']}"
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{where}: the page scrolls sideways ({width} px)"
        svg = page.locator("#map svg")
        if svg.count() and svg.is_visible():
            box = svg.bounding_box()
            assert box["x"] >= -0.5 and box["x"] + box["width"] <= size["width"] + 0.5, \
                f"{where}: map {box}"
            assert box["height"] <= size["height"], f"{where}: map taller than the window {box}"
    if page.locator("#map svg g.tile").count():
        spill = page.evaluate("""() => [...document.querySelectorAll('#map g.tile')]
            .filter((g) => g.querySelector('.abbr').getBBox().width
                           > g.querySelector('rect.land').getBBox().width)
            .map((g) => g.querySelector('.abbr').textContent)""")
        assert spill == [], f"{name}: names wider than their territory: {spill}"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One real table service behind one server; every seat has a token. Yields (table,
    app, server)."""
    table = ServedTable(tmp_path_factory.mktemp("matrix"), players=PLAYERS)
    app = create_app(table, host_pin=PIN, data_dir=tmp_path_factory.mktemp("d"),
                     join_rate=(1000.0, 1000), read_rate=(1000.0, 1000))
    app.extensions["riskboard"].seats.issue_all(list(PLAYERS))
    # every page here comes from one address, and a reload's old stream may linger a moment
    app.extensions["riskboard"].stream_slots = StreamSlots(100, 200)
    server = start_background(app)
    try:
        yield table, app, server
    finally:
        server.stop()
        table.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_in_every_variant_at_every_size(served, chromium, lang):
    table, app, server = served
    token = app.extensions["riskboard"].seats.tokens()["red"]
    ctx = chromium[1].new_context(viewport=SIZES[0])
    ctx.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}')")
    ready_lang = f"html[lang={lang}]"
    try:
        pages = [
            Watched(ctx, "me", f"{server.url}/me#t={token}",
                    f"{ready_lang} #state-sentence[data-ready]"),
            Watched(ctx, "table", f"{server.url}/", f"{ready_lang} #players tr[data-player]"),
            Watched(ctx, "host", f"{server.url}/host", f"{ready_lang} #login-btn"),
            Watched(ctx, "host-console", f"{server.url}/host", f"{ready_lang} #login-btn"),
            Watched(ctx, "dice", f"{server.url}/dice", f"{ready_lang} #conn.ok"),
            Watched(ctx, "virtual", f"{server.url}/virtual",
                    f"{ready_lang} body[data-seq] #map svg"),
        ]
        console = pages[3]
        console.page.fill("#pin", PIN)
        console.page.click("#login-btn")
        console.ready = f"{ready_lang} #console:not([hidden]) #seats figure"
        console.wait()
        # each seat named as the language addresses a player ("Rouge : …", "赤：…")
        captions = console.page.locator("#seats figcaption").all_text_contents()
        assert captions and all(any(
            caption == fill(WORDS[lang]["host.seat_caption"], player=WORDS[lang][f"colour.{c}"],
                            where=WORDS[lang][f"host.{where}"])
            for c in PLAYERS for where in ("waiting_phone", "on_phone")) for caption in captions
        ), captions
        for variant, (players, point) in VARIANTS.items():
            for watched in pages:
                watched.leave()
            table.host_action("new_game", {"variant": variant, "players": list(players)})
            play_until(table, point)
            for watched in pages:
                if watched.name == "host" and variant != "classic":
                    continue  # the locked host page shows nothing of the game: once is enough
                watched.back()
                name = f"{watched.name}-{variant}-{lang}"
                if watched.name == "host-console":
                    watched.page.select_option("#variant", variant)
                    watched.page.wait_for_selector(f"#house-rules-title:has-text("
                                                   f"'{WORDS[lang][f'variant.{variant}']}')")
                if watched.name == "me":
                    assert watched.page.locator("#state-sentence").inner_text() not in (
                        "", WORDS[lang]["state.loading"]), name
                check_sizes(watched.page, name)
                problems = serious_accessibility_problems(
                    watched.page, None if lang == "en" else WORD_RULES)
                assert problems == [], name
                watched.page.screenshot(path=str(ARTIFACTS / f"matrix-{name}.png"),
                                        full_page=True)
                assert watched.problems == [], f"{name}: {watched.problems}"
    finally:
        ctx.close()


# ----- the state sentence in each phase, in each language --------------------------------

def fill(text: str, **params) -> str:
    """A catalogue sentence with its {placeholders} filled, as RB.t fills them."""
    return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]), text)


def words(lang: str, key: str, **params) -> str:
    """What RB.t(key, params) shows: `key.one` when params.n is 1 and the catalogue has it."""
    if params.get("n") == 1 and f"{key}.one" in WORDS[lang]:
        key = f"{key}.one"
    return fill(WORDS[lang][key], **params)




@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_player_reads_the_state_of_each_phase_in_their_language(chromium, tmp_path,
                                                                     lang, served_table):
    table = served_table()
    app = create_app(table, host_pin=PIN, data_dir=tmp_path / "d", join_rate=(1000.0, 1000),
                     read_rate=(1000.0, 1000))
    app.extensions["riskboard"].seats.issue_all(list(PLAYERS))
    tokens = app.extensions["riskboard"].seats.tokens()
    server = start_background(app)
    colour = {p: WORDS[lang][f"colour.{p}"] for p in PLAYERS}
    phones: dict[str, Watched] = {}
    contexts = []
    try:
        for p in PLAYERS:  # a phone per seat, each its own storage
            ctx = chromium[1].new_context(viewport=SIZES[0])
            ctx.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}')")
            contexts.append(ctx)
            phones[p] = Watched(ctx, p, f"{server.url}/me#t={tokens[p]}",
                                f"html[lang={lang}] #state-sentence[data-ready]")

        def reads(player: str, text: str) -> None:
            phones[player].page.wait_for_function(
                "t => document.getElementById('state-sentence').textContent === t", arg=text)

        # defence: the defender is asked for dice, the attacker waits for them
        play_until(table, lambda s: attack_needing_defence(s) is not None)
        source, target = attack_needing_defence(table.state)
        attacker, defender = table.state.current_player, table.state.owner[target]
        table.submit({"type": "attack", "player": attacker, "source": source, "target": target,
                      "dice": 1}, Viewer("player", attacker))
        reads(defender, words(lang, "state.defend", n=table.state.pending.get("max_dice", 2)))
        reads(attacker, words(lang, "state.waiting", player=colour[defender],
                              what=WORDS[lang]["pending.defend"]))
        phones[defender].page.screenshot(path=str(ARTIFACTS / f"matrix-state-defend-{lang}.png"))
        # move-in after a conquest
        play_until(table, lambda s: bool(s.pending) and s.pending["kind"] == "move_in")
        mover = table.state.pending["player"]
        reads(mover, words(lang, "state.move_in",
                           to=WORDS[lang][f"territory.{table.state.pending['to']}"]))
        # trade-down: the state an elimination leaves (six cards and a decision)
        play_until(table, lambda s: s.phase == "attack" and not s.pending)
        player = table.state.current_player
        hand = table.state.hands[player]
        table.state.hands[player] = ["alaska", "peru", "china", "japan", "egypt", "wild-1"]
        table.state.pending = {"kind": "trade_down", "player": player}
        phones[player].reload()  # the phone reads the planted state afresh
        reads(player, words(lang, "state.trade_down"))
        table.state.pending = None
        table.state.hands[player] = hand
        # eliminated (by whom), then won, and the others told who won
        play_until(table, lambda s: bool(s.eliminated), limit=6000)
        gone = table.state.eliminated[0]
        by = next(e["by"] for entry in table.entries for e in entry["events"]
                  if e["type"] == "eliminated" and e["player"] == gone)
        reads(gone, words(lang, "state.eliminated_by", player=colour[by]))
        play_until(table, lambda s: s.winner is not None, limit=6000)
        winner = table.state.winner
        # ... with the revealed seed and the link to check the dice (issue 32.3)
        seed = table.loop.call(lambda core: core.dice_record())["seed"]
        end = " " + words(lang, "over.seed", seed=seed) + " · " + WORDS[lang]["over.check_dice"]
        reads(winner, words(lang, "state.won") + end)
        for p in PLAYERS:
            if p != winner:
                reads(p, words(lang, "state.other_won", player=colour[winner]) + end)
        for watched in phones.values():
            assert watched.problems == [], f"{watched.name}: {watched.problems}"
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()
