"""The host page says in one sentence which part of the table is not working."""

from __future__ import annotations

import pytest

from hardware.errors import HardwareUnavailable
from hardware.supervised import Backoff
from pi_app.config import Config
from pi_app.table.rig import build_rig
from pi_app.web import create_app
from pi_app.web.serve import start_background

pytestmark = pytest.mark.browser

PIN = "24681357"


def test_the_host_sees_a_missing_led_strip_in_one_sentence(tmp_path, chromium):
    def no_spi(backend, count, **opts):
        raise HardwareUnavailable("no /dev/spidev0.0: SPI is off (dtparam=spi=on)")

    rig = build_rig(Config(), sim=True, data_dir=tmp_path, open_leds=no_spi,
                    backoff=lambda: Backoff(30.0, 30.0))
    rig.start()
    server = start_background(create_app(rig.service, host_pin=PIN, data_dir=tmp_path))
    try:
        context = chromium[1].new_context()
        try:
            page = context.new_page()
            page.goto(server.url + "/host")
            page.fill("#pin", PIN)
            page.click("#login-btn")
            page.wait_for_selector("#faults:not([hidden])", timeout=30_000)
            text = page.inner_text("#faults")
        finally:
            context.close()
        assert text.strip() == ("The LED strip is not working: no /dev/spidev0.0: SPI is off "
                                "(dtparam=spi=on). The game goes on without it; riskboard "
                                "keeps trying to start it.")
    finally:
        server.stop()
        rig.stop()
