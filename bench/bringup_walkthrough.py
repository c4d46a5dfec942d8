"""Benchmark (not a test): a whole bring-up of a miswired virtual board on the real table,
through the bring-up page in headless Chromium at 360 px (issue 25).

For classic-42 and classic-42-nfc, miswired by seed 7 (`pi_app.table.miswired`), the
scripted maker of tests/bringup/table_maker.py answers on the page and works the virtual
board (holds on true channels, buttons on true lines, LEDs read through the true chain) at
the page's "Fast" LED pace, from Start to the saved profile loaded live. Prints the maker's
touches, phone taps, control presses, the runs undone and held again (let go a beat late:
a busy machine), per step, and the wall time of the whole bring-up (a shared, noisy
machine: read it as an order of magnitude), then the aims: one touch per territory for
sensors, one per run of a territory's LEDs for LEDs (a run held again misses it), the whole
walk-through within five minutes. The browser test
(tests/bringup/test_browser_bringup.py) writes the same figures to
test-artifacts/bringup/<profile>.json.

Run: `.venv/bin/python -m bench.bringup_walkthrough`."""

from __future__ import annotations

import tempfile
from pathlib import Path

PROFILES = ("classic-42", "classic-42-nfc")


AIM_S = 300.0  # a whole bring-up at the page's fast pace, beside everything else


def aims(r: dict, runs: int, territories: int) -> None:
    """The issue's aims: one touch per territory for sensors, one per run of a territory's
    LEDs along the chain; and the whole walk-through within AIM_S."""
    sensors = r["by_step"]["sensors"]["touches"]
    leds = r["by_step"]["leds"]["touches"]
    for what, got, aim in (("sensor touches", sensors, territories),
                           ("LED touches", leds, runs)):
        print(f"  aim {what}: {got} for {aim} {'OK' if got <= aim else 'MISS'}")
    print(f"  aim whole bring-up: {r['seconds']} s < {AIM_S:.0f} s "
          f"{'OK' if r['seconds'] < AIM_S else 'MISS'}")


def main() -> None:
    """Bring each board up once and print what it took."""
    from playwright.sync_api import sync_playwright

    from bench.bringup_actions import territory_runs
    from pi_app.bringup.core import facts_from_rules
    from tests.bringup.test_browser_bringup import bring_up_on_page, served_table
    from tests.web.browsing import ARGS, CHROMIUM

    territories = len(facts_from_rules().territories)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for profile in PROFILES:
                rig, server = served_table(Path(tempfile.mkdtemp(prefix="bench-bu-")), profile)
                try:
                    r = bring_up_on_page(browser, rig, f"http://127.0.0.1:{server.port}",
                                         profile)
                finally:
                    server.stop()
                    rig.stop()
                print(f"{profile} (miswired, seed {r['seed']}, pace {r['pace_s']} s/LED): "
                      f"{r['seconds']} s, {r['touches']} touches, {r['taps']} taps, "
                      f"{r['presses']} presses, {r['retries']} runs held again"
                      + (f", readers moved to their port: {', '.join(r['readers_moved'])}"
                         if r["readers_moved"] else ""))
                for step, counts in r["by_step"].items():
                    print(f"  {step:<13} " + ", ".join(f"{n} {what}"
                                                       for what, n in counts.items()))
                aims(r, territory_runs(rig.service.physical), territories)
        finally:
            browser.close()


if __name__ == "__main__":
    main()
