"""What the browser tests share: Debian's Chromium, where screenshots go, and a served app
around a FakeTable (waitress on a free port, in a thread)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pi_app.web import create_app
from pi_app.web.serve import BackgroundServer, start_background

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"
PIN = "24681357"
PHONE = {"width": 360, "height": 780}
DESKTOP = {"width": 1280, "height": 900}


@contextmanager
def serving(table, data_dir: Path) -> Iterator[tuple[object, BackgroundServer]]:
    """Serve the web app around `table`; yields (app, server) and stops the server after."""
    app = create_app(table, host_pin=PIN, data_dir=data_dir)
    server = start_background(app)
    try:
        yield app, server
    finally:
        server.stop()


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
