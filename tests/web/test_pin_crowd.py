"""A crowd of addresses cannot guess the host PIN faster than the table-wide limit
(issue 21.3), over real sockets to the real table service: hundreds of IPv4 loopback
source addresses (127.0.0.0/8), and on IPv6 loopback ::1 with hundreds of IPv4-mapped
IPv6 addresses (::ffff:127.x.y.z), since ::1 is the only IPv6 address a process may bind
here without changing the machine's interfaces.

The table-wide limit is slowed to 30 an hour here (the default is 30 a minute) so that no
token refills while a loaded machine runs the test: the counts below are then exact."""

from __future__ import annotations

import http.client
import json
import socket

import pytest

from hardware.controls import ControlEvent
from pi_app.table.loop import NewGameSpec
from pi_app.web import create_app
from pi_app.web.context import HOST_DEVICE_HEADER
from pi_app.web.serve import start_background

from .conftest import PIN

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
CROWD = 300


class Served:
    """The real table's web app served on real sockets, one listener per address family."""

    def __init__(self, table, tmp_path) -> None:
        self.table = table
        self.app = create_app(table.app.extensions["riskboard"].table, host_pin=PIN,
                              data_dir=tmp_path / "web", pin_total_rate=(30 / 3600, 30))
        self.servers = []
        self.ports: dict[str, int] = {}

    def listen(self, family: int, address: str, name: str) -> None:
        sock = socket.socket(family, socket.SOCK_STREAM)
        if family == socket.AF_INET6:  # v4-mapped listeners need dual stack
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, int(address == "::1"))
        sock.bind((address, 0))
        sock.listen(128)
        self.ports[name] = sock.getsockname()[1]
        self.servers.append(start_background(self.app, host=address, sockets=[sock]))

    def ask(self, listener: str, source: str, pin: str, device: str | None = None):
        """GET /api/host/check from `source` (a loopback address) with `pin` (and a
        host-device id): (status, body, the new host-device id given, if any)."""
        target = {"v4": "127.0.0.1", "v6": "::1", "mapped": "127.0.0.1"}[listener]
        conn = http.client.HTTPConnection(target, self.ports[listener], timeout=60,
                                          source_address=(source, 0))
        headers = {"X-Host-Pin": pin}
        if device:
            headers[HOST_DEVICE_HEADER] = device
        try:
            conn.request("GET", "/api/host/check", headers=headers)
            res = conn.getresponse()
            body = json.loads(res.read() or b"{}")
        finally:
            conn.close()
        return res.status, body, body.get("device")

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


@pytest.fixture
def served(tables, tmp_path):
    made = Served(tables(CLASSIC), tmp_path)
    yield made
    made.stop()


def v4(k: int) -> str:
    """The k-th crowd address in 127.0.0.0/8 (never 127.0.0.1, the host's own)."""
    return f"127.1.{k // 250}.{1 + k % 250}"


def code(body) -> str | None:
    return (body.get("error") or {}).get("code")


def board_confirm(served) -> None:
    """A long Confirm on the board's buttons, on the table's own input path."""
    before = served.table.mark()
    served.table.loop.post_control(ControlEvent("confirm", "long_press"))
    served.table.loop.call(lambda core: None)  # the loop has handled the press
    assert served.table.mark() == before, "the host's press must not reach the game"


def crowd_then_right_pins(served, listener: str, addresses: list[str]) -> None:
    """The crowd guesses from `addresses`; then each of them tries the right PIN."""
    host_status, _body, host_device = served.ask(listener, addresses[0], PIN)
    assert host_status == 200 and host_device  # the host signed in before the guessing
    judged = [served.ask(listener, a, f"{70000000 + k:08d}")[0]
              for k, a in enumerate(addresses[1:])]
    assert judged.count(403) == 30  # the table-wide limit, whatever the number of addresses
    assert set(judged[30:]) == {429}
    for address in addresses[1:]:  # before the fix, every one of them got in
        status, body, _ = served.ask(listener, address, PIN)
        assert status == 429 and code(body) == "pin_guessing", (address, status, body)
    status, body, _ = served.ask(listener, addresses[1], PIN, device=host_device)
    assert status == 200  # the host's own device is never held
    assert body["pin_guessing"]["active"] is True
    assert body["pin_guessing"]["addresses"] >= len(addresses) - 2


def test_hundreds_of_ipv4_addresses_cannot_test_the_right_pin(served):
    served.listen(socket.AF_INET, "127.0.0.1", "v4")
    crowd_then_right_pins(served, "v4", ["127.0.0.1", *(v4(k) for k in range(CROWD))])


def test_hundreds_of_ipv6_addresses_cannot_test_the_right_pin(served):
    served.listen(socket.AF_INET6, "::1", "v6")
    served.listen(socket.AF_INET6, "::ffff:127.0.0.1", "mapped")
    status, _body, host_device = served.ask("v6", "::1", PIN)
    assert status == 200 and host_device
    # the app sees every one of these as an IPv6 address (::ffff:127.1.x.y)
    crowd_then_right_pins(served, "mapped", ["127.0.0.2", *(v4(k) for k in range(CROWD))])
    status, body, _ = served.ask("v6", "::1", PIN)  # ::1 without its id: a new device
    assert (status, code(body)) == (429, "pin_guessing")
    assert served.ask("v6", "::1", PIN, device=host_device)[0] == 200


def guessing(served) -> None:
    """Serve on IPv4 loopback; 40 addresses guess, one wrong PIN each."""
    served.listen(socket.AF_INET, "127.0.0.1", "v4")
    for k in range(40):
        served.ask("v4", v4(k), f"{80000000 + k:08d}")


def test_a_new_host_device_gets_in_after_a_long_confirm_on_the_board(served):
    guessing(served)
    status, body, _ = served.ask("v4", "127.0.0.1", PIN)  # the host's new phone
    assert (status, code(body)) == (429, "pin_guessing")
    assert "hold Confirm on the board" in body["error"]["message"]
    board_confirm(served)
    status, _body, device = served.ask("v4", "127.0.0.1", PIN)
    assert status == 200 and device
    status, body, _ = served.ask("v4", v4(100), PIN)  # the press let one device in
    assert (status, code(body)) == (429, "pin_guessing")
    assert served.ask("v4", "127.0.0.1", PIN, device=device)[0] == 200


def test_a_press_lets_the_crowd_test_three_pins_and_no_more(served):
    guessing(served)
    served.app.extensions["riskboard"].pin_guard.window_s = 3600.0  # open all test long
    board_confirm(served)
    codes = [served.ask("v4", v4(200 + k), f"{90000000 + k:08d}")[0] for k in range(50)]
    assert codes[:3] == [403, 403, 403] and set(codes[3:]) == {429}
