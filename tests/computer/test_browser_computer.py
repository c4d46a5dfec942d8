"""Real browser (headless Chromium): the host gives a seat to the computer on the host page,
and a human's phone shows what the computer announces before each move."""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest

from hardware.profiles import load_profile
from pi_app.dice import FairDice
from pi_app.table.lights import LedMap
from pi_app.table.loop import NewGameSpec, TableLoop, Wiring
from pi_app.table.service import LocalTableService
from pi_app.web import create_app
from pi_app.web.serve import start_background

pytestmark = pytest.mark.browser

PIN = "13572468"
PROFILE = load_profile("classic-42")
SPEC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


class Recorder:
    """Stands in for the emulated Pico."""

    def touch(self, channel: int) -> None:
        """Nothing to touch here."""


def wait_until(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


@contextmanager
def host_signed_in(tmp_path, chromium):
    """The table loop (classic, red/blue/green, dealt) served with its web app, and a phone
    at 360 px signed in on the host page: yields (loop, app, server, context, host page)."""
    loop = TableLoop(tmp_path / "journal.sqlite", Wiring.from_profile(PROFILE), demo=SPEC,
                     dice=lambda: FairDice(b"\x09" * 32))
    loop.start()
    service = LocalTableService(loop, leds=LedMap.from_profile(PROFILE), emulator=Recorder())
    app = create_app(service, host_pin=PIN, data_dir=tmp_path / "data")
    server = start_background(app)
    try:
        context = chromium[1].new_context(viewport={"width": 360, "height": 780})
        try:
            host = context.new_page()
            host.goto(f"{server.url}/host")
            host.fill("#pin", PIN)
            host.click("#login-btn")
            host.wait_for_selector("#console:not([hidden])")
            yield loop, app, server, context, host
        finally:
            context.close()
    finally:
        server.stop()
        loop.stop()


def test_the_host_page_gives_seats_to_the_computer_and_phones_read_its_moves(tmp_path, chromium):
    with host_signed_in(tmp_path, chromium) as (loop, app, server, context, host):
        tokens = app.extensions["riskboard"].seats.issue_all(list(SPEC.players))
        host.fill("#computer-wait", "1")
        host.click("#computer-wait-btn")
        # every seat but red goes to the computer: the game then plays on by itself
        # while red is not awaited
        for colour in ("blue", "green"):
            label = f"{colour.capitalize()} is played by"  # en.json's colour name
            host.select_option(f'select[aria-label="{label}"]', "hard")
            wait_until(lambda c=colour: loop.call(
                lambda core: core.computers.levels.get(c)) == "hard")
        host.wait_for_selector('figcaption:has-text("green: the computer (hard)")')
        # the wait is set by its own request: wait for it, a loaded server answers late
        wait_until(lambda: loop.call(lambda core: core.computers.confirm_after_s) == 1.0)
        phone = context.new_page()
        phone.goto(f"{server.url}/me#t={tokens['red']}")
        phone.wait_for_selector("#conn.ok")
        # red plays its setup placements from the phone's door until a computer moves
        from pi_app.computer.simple_bot import SimpleBot
        from pi_app.table.loop import awaited
        from pi_app.table_api import Viewer

        bot = SimpleBot()

        def red_plays() -> bool:
            state = loop.call(lambda core: core.state.copy())
            if "red" in awaited(state):
                command = bot.choose(state, "red").to_dict()
                loop.call(lambda core: core.submit(command, Viewer("player", "red")))
            return phone.locator('#log li:has-text("(computer)")').count() > 0

        wait_until(red_plays, timeout=60)
        line = phone.locator('#log li:has-text("(computer)")').first.inner_text()
        assert "Blue (computer)" in line or "Green (computer)" in line
        # take the seat back: it is a phone's seat again, with its code
        host.select_option('select[aria-label="Green is played by"]', "")
        wait_until(lambda: "green" not in loop.call(lambda core: core.computers.levels))
        host.wait_for_selector('figcaption:has-text("green: waiting for its phone")')


def test_a_wait_the_host_is_typing_is_not_overwritten_by_the_page_s_refresh(tmp_path, chromium):
    """The host page reloads the computer settings after login and every 5 s; a number typed
    into "goes on after" but not yet set must survive those reloads (it used to be reset to
    the server's 0, so Set sent 0)."""
    with host_signed_in(tmp_path, chromium) as (loop, _app, _server, _context, host):
        host.fill("#computer-wait", "7")
        host.locator("#computer-wait").blur()  # typed, not yet set: the host looks away
        # a whole refresh (the settings, then the seats) after the typing
        for _ in range(2):
            with host.expect_response(lambda r: "/api/host/seats" in r.url,
                                      timeout=60_000):
                pass
        assert host.input_value("#computer-wait") == "7"
        host.click("#computer-wait-btn")
        wait_until(lambda: loop.call(lambda core: core.computers.confirm_after_s) == 7.0)


def test_the_host_trusts_the_lights_on_the_host_page(tmp_path, chromium):
    """Issue 32.2: the box sets the table's `trust_lights` (one Confirm per computer turn)
    and shows the table's setting after a reload."""
    with host_signed_in(tmp_path, chromium) as (loop, app, _server, _context, host):
        app.extensions["riskboard"].seats.issue_all(list(SPEC.players))
        host.select_option('select[aria-label="Blue is played by"]', "hard")
        wait_until(lambda: loop.call(lambda core: core.computers.levels.get("blue")) == "hard")
        assert not host.is_checked("#computer-trust")
        host.check("#computer-trust")
        wait_until(lambda: loop.call(lambda core: core.computers.trust_lights) is True)
        host.reload()
        host.wait_for_selector("#console:not([hidden])")
        host.wait_for_function("() => document.getElementById('computer-trust').checked")
        host.uncheck("#computer-trust")
        wait_until(lambda: loop.call(lambda core: core.computers.trust_lights) is False)
