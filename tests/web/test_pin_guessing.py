"""Wrong host PINs are limited at the whole table as well as per address (issue 12.4)."""

from __future__ import annotations

import logging

import pytest

from pi_app.web import create_app
from pi_app.web.limits import PinGuard, RateLimiter

from .conftest import PIN, host


@pytest.fixture
def client(app):
    """The app with the PIN limits on a stopped clock: nothing refills while a test runs,
    however slowly a loaded machine runs it (the default rates, 5 and 30 a minute)."""
    c = app.extensions["riskboard"]
    c.pin_limit = RateLimiter(5 / 60, 5, clock=lambda: 1000.0)
    c.pin_total = RateLimiter(30 / 60, 30, clock=lambda: 1000.0)
    c.pin_guard = PinGuard(c.pin_limit, c.pin_total)
    return app.test_client()


def ask(client, address: str, pin: str):
    return client.get("/api/host/check", headers=host(pin),
                      environ_base={"REMOTE_ADDR": address})


def wrong(n: int) -> str:
    return f"{n:08d}"


def test_twenty_addresses_get_thirty_wrong_pins_in_all_then_429(client):
    codes = [ask(client, f"127.0.0.{1 + k % 20}", wrong(k)).status_code for k in range(100)]
    assert codes.count(403) == 30  # the table-wide limit, not 20 x 5
    assert codes[:30] == [403] * 30 and set(codes[30:]) == {429}
    res = ask(client, "127.0.0.99", wrong(999))  # a new address: the table is limited
    assert (res.status_code, res.get_json()["error"]["code"]) == (429, "pin_guessing")
    assert "guessing" in res.get_json()["error"]["message"]


def test_during_the_guessing_the_right_pin_still_works_from_a_clean_address(client):
    for k in range(30):
        ask(client, f"127.0.1.{1 + k % 10}", wrong(k))
    assert ask(client, "127.0.1.1", wrong(77)).status_code == 429
    assert ask(client, "127.0.9.9", PIN).status_code == 200  # never guessed wrong
    assert ask(client, "127.0.9.9", PIN).status_code == 200  # right PINs never count
    res = ask(client, "127.0.1.2", PIN)  # this one guessed wrong before: it waits
    assert res.status_code == 429


def test_a_right_pin_after_five_wrong_ones_waits_and_the_sentence_says_so(client):
    for k in range(5):
        assert ask(client, "10.0.0.7", wrong(k)).status_code == 403
    res = ask(client, "10.0.0.7", PIN)
    assert res.status_code == 429
    message = res.get_json()["error"]["message"]
    assert "even the right PIN" in message
    seconds = int(message.split("wait ")[1].split(" s")[0])
    assert 1 <= seconds <= 60
    assert ask(client, "10.0.0.8", PIN).status_code == 200  # another address is not held


def test_a_burst_is_logged_once_and_shown_to_the_host(client, caplog):
    caplog.set_level(logging.WARNING, logger="riskboard.web")
    assert ask(client, "127.0.0.200", PIN).get_json()["pin_guessing"] is None
    for k in range(100):
        ask(client, f"127.0.0.{1 + k % 20}", wrong(k))
    logged = [r.getMessage() for r in caplog.records
              if r.getMessage().startswith("event=host.pin_guessing")]
    assert len(logged) == 1, logged
    assert "addresses=20" in logged[0]
    shown = ask(client, "127.0.0.200", PIN).get_json()["pin_guessing"]
    assert shown["active"] is True and shown["addresses"] == 20
    assert shown["wrong"] >= 30 and shown["since"]


def test_the_host_page_has_a_place_for_the_alert(client):
    page = client.get("/host").get_data(as_text=True)
    assert 'id="pin-alert"' in page
    script = client.get("/static/host.js").get_data(as_text=True)
    assert "pin_guessing" in script


def test_the_table_wide_limit_is_a_setting(table, tmp_path):
    app = create_app(table, host_pin=PIN, data_dir=tmp_path / "d", pin_total_rate=(1 / 600, 3))
    client = app.test_client()
    codes = [ask(client, f"127.0.2.{k}", wrong(k)).status_code for k in range(5)]
    assert codes == [403, 403, 403, 429, 429]
