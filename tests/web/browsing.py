"""What the browser tests share: Debian's Chromium, where screenshots go, and a served app
around a table service (waitress on a free port, in a thread)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pi_app.web import create_app
from pi_app.web.serve import BackgroundServer, start_background

# The full browser: bench/page_weight.py loads its pages in it, as a phone's Chromium would.
CHROMIUM = "/usr/bin/chromium"
# The tests' browser: Debian's chromium-headless-shell, the same Chromium (same version, same
# Blink) without the browser's own windows and services, as Playwright runs headless by
# default. test_browser_languages.py took 64 CPU-s in it against 166 in /usr/bin/chromium
# --headless (renderers 27 against 85, the browser process 12 against 49).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
PIN = "24681357"
PHONE = {"width": 360, "height": 780}
AXE = Path(__file__).resolve().parents[2] / ".venv/axe/node_modules/axe-core/axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
# a page's inline words and map: the public catalogue and /api/map, the same for every viewer,
# which name every mission and card there is (tests/web/test_first_render.py holds that they
# are nothing else)
PUBLIC_BLOCKS = re.compile(r'<script type="application/json" id="rb-(?:words|map)"[^>]*>'
                           r'.*?</script>', re.S)


# The cards whose layout waits until they come near the window (style.css: `.side > .card`,
# `content-visibility: auto`). Off screen, Chromium leaves their text out of innerText.
LAID_OUT_LATE = ".side > .card"
# The text a reader of the whole page would see (innerText: hidden elements left out), the
# cards laid out late included: they are laid out for the reading, then let go again.
PAGE_TEXT = """([selector, laidOutLate]) => {
  const late = [...document.querySelectorAll(laidOutLate)];
  for (const card of late) card.style.setProperty('content-visibility', 'visible');
  try { return document.querySelector(selector).innerText; }
  finally { for (const card of late) card.style.removeProperty('content-visibility'); }
}"""


def page_text(page, selector: str = "body") -> str:
    """What `selector` (the whole page by default) shows, scrolled to or not: Playwright's
    inner_text of a card laid out late is empty while the card is off screen, so a check
    that some words are *not* shown would pass on nothing."""
    return page.evaluate(PAGE_TEXT, [selector, LAID_OUT_LATE])


def without_public_blocks(html: str) -> str:
    """`html` without its inline words and map, so a secrecy check reads only what the page
    was given about this game."""
    return PUBLIC_BLOCKS.sub("", html)


@contextmanager
def serving(table, data_dir: Path) -> Iterator[tuple[object, BackgroundServer]]:
    """Serve the web app around `table`; yields (app, server) and stops the server after."""
    app = create_app(table, host_pin=PIN, data_dir=data_dir)
    server = start_background(app)
    try:
        yield app, server
    finally:
        server.stop()


def page_in_language(stack, browser, url: str, ready: str, lang: str, viewport: dict):
    """A page at `url` in a browser context of its own (closed by `stack`, an ExitStack),
    in `lang`, with the host PIN at hand, once `ready` shows."""
    context = browser.new_context(viewport=viewport)
    stack.callback(context.close)
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}');"
                            f"sessionStorage.setItem('riskboard.hostPin', '{PIN}');")
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    return page


def open_page(context, url: str, ready: str = "#conn.ok"):
    """A new page of `context` at `url`, once `ready` shows (the live stream is open)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(ready)
    return page


def shot(page, name: str) -> None:
    """Save a full-page screenshot as test-artifacts/web/<name>.png, after checking that
    nothing widens the page beyond the window (a phone must never scroll sideways; the
    map scrolls inside its own box)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    window = page.evaluate("window.innerWidth")
    assert width <= window, f"{name}: the page is {width} px wide in a {window} px window"
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def serious_accessibility_problems(page, rules: list[str] | None = None) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now: of every WCAG
    2.1 A/AA rule, or of `rules` only (axe-core comes from the npm registry;
    tools/ensure-browser.sh installs it)."""
    assert AXE.exists(), f"axe-core is missing: run `bash tools/ensure-browser.sh` ({AXE})"
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text("utf-8"))  # CDP evaluation: the page's CSP does not apply
    only = ({"type": "rule", "values": rules} if rules else
            {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]})
    result = page.evaluate("""(only) => axe.run(document, { runOnly: only,
        resultTypes: ['violations'] })""", only)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            + "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                        for n in v["nodes"][:4])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


TEST_PHONE = "test-phone"


def one_phone(new_context):
    """`Browser.new_context` whose contexts all carry the same phone key (`riskboard.phone`).

    The server lets the first phone that uses a seat's code hold that seat (issue 21.4); a
    test that opens one seat in several contexts (a language each, a screenshot each) plays
    one phone. A test that plays two phones sets its own key with its own init script, which
    runs after this one."""

    def opened(*args, **kwargs):
        context = new_context(*args, **kwargs)
        context.add_init_script(
            f"localStorage.getItem('riskboard.phone') || "
            f"localStorage.setItem('riskboard.phone', '{TEST_PHONE}')")
        return context

    return opened
