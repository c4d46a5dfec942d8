"""Wrong host PINs are limited at the whole table as well as per address (issue 12.4), and
the limit holds whatever the number of addresses (issue 21.3): while a crowd guesses, a
PIN from a new device is not judged at all; a device signed in before is not held; a new
one needs a long Confirm on the board. Real sockets and hundreds of addresses:
test_pin_crowd.py."""

from __future__ import annotations

import logging

import pytest

from pi_app.web import create_app
from pi_app.web.context import HOST_DEVICE_HEADER
from pi_app.web.limits import HostDevices, PinGuard, RateLimiter

from .conftest import PIN, host


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def client(app, clock):
    """The app with the PIN limits on a stopped clock: nothing refills while a test runs,
    however slowly a loaded machine runs it (the default rates, 5 and 30 a minute)."""
    c = app.extensions["riskboard"]
    c.pin_limit = RateLimiter(5 / 60, 5, clock=lambda: 1000.0)
    c.pin_total = RateLimiter(30 / 60, 30, clock=lambda: 1000.0)
    c.pin_guard = PinGuard(c.pin_limit, c.pin_total, clock=clock)
    return app.test_client()


def ask(client, address: str, pin: str, device: str | None = None):
    headers = {**host(pin), **({HOST_DEVICE_HEADER: device} if device else {})}
    return client.get("/api/host/check", headers=headers, environ_base={"REMOTE_ADDR": address})


def sign_in(client, address: str = "10.0.0.5") -> str:
    """Sign a new device in (no guessing going on): its host-device id."""
    res = ask(client, address, PIN)
    assert res.status_code == 200
    return res.get_json()["device"]


def wrong(n: int) -> str:
    return f"{n:08d}"


def crowd(client, n: int = 30, prefix: str = "127.0.1") -> None:
    """`n` wrong PINs from ten addresses: the table-wide limit is reached."""
    for k in range(n):
        ask(client, f"{prefix}.{1 + k % 10}", wrong(k))


def test_twenty_addresses_get_thirty_wrong_pins_in_all_then_429(client):
    codes = [ask(client, f"127.0.0.{1 + k % 20}", wrong(k)).status_code for k in range(100)]
    assert codes.count(403) == 30  # the table-wide limit, not 20 x 5
    assert codes[:30] == [403] * 30 and set(codes[30:]) == {429}
    res = ask(client, "127.0.0.99", wrong(999))  # a new address: the table is limited
    assert (res.status_code, res.get_json()["error"]["code"]) == (429, "pin_guessing")
    assert "guessing" in res.get_json()["error"]["message"]


def test_during_the_guessing_a_new_device_learns_nothing_from_the_right_pin(app, client):
    crowd(client)
    answers = {}
    for k in range(200):  # a crowd of new addresses, each trying the right PIN once...
        res = ask(app.test_client(), f"127.0.{2 + k // 200}.{1 + k % 200}", PIN)
        answers.setdefault((res.status_code, res.get_data(as_text=True)), []).append(k)
    for k in range(200):  # ...and wrong ones
        res = ask(app.test_client(), f"127.0.{4 + k // 200}.{1 + k % 200}", wrong(500 + k))
        answers.setdefault((res.status_code, res.get_data(as_text=True)), []).append(k)
    assert len(answers) == 1, "a right PIN must be answered exactly as a wrong one"
    (status, text), = answers
    assert status == 429 and '"pin_guessing"' in text
    # and none of them left a trace that tells them apart later: each address may go on
    assert ask(app.test_client(), "127.0.2.1", PIN).get_data(as_text=True) == text


def test_a_device_signed_in_before_the_guessing_is_not_held(client):
    device = sign_in(client)
    crowd(client)
    assert ask(client, "10.0.0.5", PIN, device).status_code == 200
    assert ask(client, "10.0.0.77", PIN, device).status_code == 200  # another address
    assert ask(client, "10.0.0.5", wrong(1), device).status_code == 403  # a typo is judged
    assert ask(client, "10.0.0.5", PIN).status_code == 429  # without its id: a new device


def test_a_signed_in_device_that_keeps_guessing_is_forgotten(client):
    device = sign_in(client)
    crowd(client)
    for k in range(5):  # each from another address: the device, not the address, counts
        assert ask(client, f"10.0.1.{k}", wrong(k), device).status_code == 403
    res = ask(client, "10.0.2.1", PIN, device)
    assert (res.status_code, res.get_json()["error"]["code"]) == (429, "pin_guessing")


def test_an_id_the_table_did_not_make_is_a_new_device(client):
    res = ask(client, "10.0.0.9", PIN, "chosen-by-someone-else")
    issued = res.get_json()["device"]  # a fresh id, not the one offered
    assert issued != "chosen-by-someone-else"
    assert "device" not in ask(client, "10.0.0.9", PIN, issued).get_json()  # known now
    crowd(client)
    assert ask(client, "10.0.0.10", PIN, "chosen-by-someone-else").status_code == 429
    assert ask(client, "10.0.0.9", PIN, issued).status_code == 200


def test_signed_in_devices_outlive_a_restart(table, tmp_path):
    data = tmp_path / "kept"
    device = sign_in(create_app(table, host_pin=PIN, data_dir=data).test_client())
    assert (data / HostDevices.FILE_NAME).stat().st_mode & 0o777 == 0o600
    assert device not in (data / HostDevices.FILE_NAME).read_text()  # only its hash
    again = create_app(table, host_pin=PIN, data_dir=data, pin_total_rate=(1 / 3600, 2))
    client = again.test_client()
    crowd(client, n=3)
    assert ask(client, "10.0.0.6", PIN).status_code == 429
    assert ask(client, "10.0.0.5", PIN, device).status_code == 200


def test_a_long_confirm_on_the_board_lets_one_new_device_in(app, client, clock):
    guard = app.extensions["riskboard"].pin_guard
    assert guard.board_press("confirm", True) is False  # nobody refused: the game's press
    crowd(client)
    newcomer = client
    assert ask(newcomer, "10.0.0.8", PIN).status_code == 429
    assert guard.board_press("confirm", False) is False  # a short press is the game's
    assert guard.board_press("end_phase", True) is False
    assert guard.board_press("confirm", True) is True  # the host's: the game never sees it
    assert guard.board_press("confirm", True) is False  # the window is open already
    device = ask(newcomer, "10.0.0.8", PIN).get_json()["device"]
    assert ask(client, "10.0.0.9", PIN).status_code == 429  # one device per press
    assert ask(newcomer, "10.0.0.8", PIN, device).status_code == 200  # known from now on


def test_a_window_judges_three_attempts_and_closes_after_a_minute(app, client, clock):
    guard = app.extensions["riskboard"].pin_guard
    crowd(client)
    assert ask(app.test_client(), "127.0.3.1", wrong(1)).status_code == 429
    assert guard.board_press("cards", False) is True  # the Cards button is a long Confirm
    codes = [ask(app.test_client(), f"127.0.3.{k}", wrong(k)).status_code for k in range(5)]
    assert codes == [403, 403, 403, 429, 429]  # three judged, whoever sends them
    clock.now += guard.window_gap_s - 1
    assert guard.board_press("confirm", True) is False  # too soon after the last one
    clock.now += 1
    assert guard.board_press("confirm", True) is True
    clock.now += guard.window_s
    assert ask(app.test_client(), "10.0.0.8", PIN).status_code == 429  # the window closed


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


def test_a_burst_is_logged_once_and_shown_to_the_host(app, client, caplog):
    caplog.set_level(logging.WARNING, logger="riskboard.web")
    hosts = app.test_client()
    first = ask(hosts, "127.0.0.200", PIN).get_json()
    assert first["pin_guessing"] is None
    for k in range(100):
        ask(client, f"127.0.0.{1 + k % 20}", wrong(k))
    logged = [r.getMessage() for r in caplog.records
              if r.getMessage().startswith("event=host.pin_guessing")]
    assert len(logged) == 1, logged
    assert "addresses=20" in logged[0]
    shown = ask(hosts, "127.0.0.200", PIN, first["device"]).get_json()["pin_guessing"]
    assert shown["active"] is True and shown["addresses"] == 20
    assert shown["wrong"] == 30 and shown["refused"] == 70 and shown["since"]


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
