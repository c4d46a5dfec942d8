"""Benchmark: what My view costs a phone — bytes transferred and time to first render.

Serves the web app (the real table loop, a classic game played by bots into its attack phase
of turn 2 or later, as tests/web/real_table.py builds it) on 127.0.0.1
and opens My view for a seat in Debian's headless Chromium at 390×844, once as is and once
with the CPU slowed 4× (a mid-range phone; the Pi's own Wi-Fi adds little on a table).
Bytes = every response's encoded size as the network saw it (headers and bodies, the event
stream's first message included) until first render; first render = from navigation start
to the state sentence and the painted map both showing. Aims: under 250 kB and 1 s
(slowed CPU; issue 23.12). Each language's catalogue is one file: Korean's is measured too.

Run: .venv/bin/python -m bench.page_weight
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from pi_app.table.wiring import NewGameSpec
from pi_app.web.serve import start_background
from tests.web.browsing import ARGS, CHROMIUM
from tests.web.real_table import Table

AIM_BYTES = 250_000
AIM_MS = 1000
READY = """() => new Promise((done) => {
  const ok = () => document.querySelector('#state-sentence[data-ready]') &&
                   document.querySelector('g.tile[data-owner]:not([data-owner=""])');
  const check = () => ok() ? done(performance.now()) : requestAnimationFrame(check);
  check();
})"""


def measure(browser, url: str, lang: str, cpu_slowdown: int) -> tuple[int, float]:
    """(bytes transferred, ms to first render) of one cold load of `url`."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    # one phone: a seat is held by the first phone key that opens it (issue 21.4), and each
    # new context would be a new phone, refused from the second load on
    context.add_init_script(f"localStorage.setItem('riskboard.lang', '{lang}');"
                            "localStorage.setItem('riskboard.phone', 'page-weight-bench')")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if cpu_slowdown > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    sizes: dict[str, float] = {}
    cdp.on("Network.dataReceived", lambda e: sizes.__setitem__(
        e["requestId"], sizes.get(e["requestId"], 0) + e["encodedDataLength"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(
        e["requestId"], max(sizes.get(e["requestId"], 0), e["encodedDataLength"])))
    page.goto(url)
    ms = float(page.evaluate(READY))
    time.sleep(0.2)  # let the last sizes arrive
    total = int(sum(sizes.values()))
    context.close()
    return total, ms


def main() -> None:
    """Print one line per (language, CPU) with OK/MISS against the aims."""
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp())
    table = Table(work / "table", NewGameSpec("classic", ("red", "blue", "green")))
    table.bot_until(lambda s: s.phase == "attack" and s.turn >= 2)
    token = table.tokens["red"]
    server = start_background(table.app)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            measure(browser, f"{server.url}/me#t={token}", "en", 1)  # warm the server
            for lang, slowdown in (("en", 1), ("en", 4), ("ko", 4)):
                size, ms = measure(browser, f"{server.url}/me#t={token}", lang, slowdown)
                ok = size < AIM_BYTES and (slowdown == 1 or ms < AIM_MS)
                print(f"page_weight my_view lang={lang} cpu_x{slowdown} bytes={size} "
                      f"first_render_ms={ms:.0f} aim=<{AIM_BYTES}B,<{AIM_MS}ms@x4 "
                      f"{'OK' if ok else 'MISS'}", flush=True)
            browser.close()
    finally:
        server.stop()
        table.loop.stop()


if __name__ == "__main__":
    main()
