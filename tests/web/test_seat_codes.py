"""Seat codes (issue 23.5): the host shows a short code beside each seat's QR code; a device
that cannot scan types it on /join and gets the seat exactly as the QR link gives it. A code
dies when its seat is claimed or reissued, and guessing is held by the host PIN's machinery:
per address and at the whole table, however many addresses guess (here over real sockets
from many loopback source addresses)."""

from __future__ import annotations

import http.client
import json
import re

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web import create_app
from pi_app.web.seat_codes import ALPHABET, code_of, normal_code
from pi_app.web.serve import start_background

from .conftest import PIN, host

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
SHOWN = re.compile(rf"[{ALPHABET}]{{3}}-[{ALPHABET}]{{3}}")


def _code(client, player: str) -> dict:
    res = client.get(f"/api/host/seats/{player}/code", headers=host())
    assert res.status_code == 200, res.get_json()
    return res.get_json()["seat"]


def _join(client, code: str, phone: str | None = "phone-1", address: str = "127.0.0.1"):
    headers = {"X-Seat-Phone": phone} if phone else {}
    return client.post("/api/join", json={"code": code}, headers=headers,
                       environ_base={"REMOTE_ADDR": address})


def _wrong(code: str) -> str:
    """A well-formed code that differs from `code` in its last character."""
    last = ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    return code[:-1] + last


def test_a_typed_code_gives_the_seat_as_its_qr_link_does_and_then_dies(client, tokens):
    seat = _code(client, "blue")
    assert SHOWN.fullmatch(seat["code"]), seat["code"]
    assert seat["join_url"].endswith("/join")
    typed = " " + seat["code"].lower().replace("-", " ") + " "  # as a person may type it
    res = _join(client, typed)
    assert res.status_code == 200, res.get_json()
    assert res.get_json() == {"player": "blue", "token": tokens["blue"]}
    # the seat is held by the joining phone, as after its QR link's first request
    seats = {s["player"]: s["claimed"] for s in client.get(
        "/api/host/seats", headers=host()).get_json()["seats"]}
    assert seats == {"red": False, "blue": True, "green": False}
    me = client.get("/api/me", headers={"X-Seat-Token": tokens["blue"], "X-Seat-Phone": "phone-1"})
    assert me.get_json() == {"player": "blue"}
    other = client.get("/api/me", headers={"X-Seat-Token": tokens["blue"],
                                           "X-Seat-Phone": "phone-2"})
    assert other.get_json()["error"]["code"] == "seat_held"
    # the code is dead: typed again (by anyone) it names no seat; the host shows none
    again = _join(client, seat["code"], phone="phone-2")
    assert (again.status_code, again.get_json()["error"]["code"]) == (403, "bad_seat_code")
    assert client.get("/api/host/seats/blue/code", headers=host()).status_code == 409


def test_a_reissued_seat_has_a_new_code_and_the_old_one_is_refused(client, tokens):
    old = _code(client, "green")["code"]
    res = client.post("/api/host/seats/green/reissue", headers=host())
    new = res.get_json()["seat"]["code"]
    assert new != old and SHOWN.fullmatch(new)
    refused = _join(client, old)
    assert (refused.status_code, refused.get_json()["error"]["code"]) == (403, "bad_seat_code")
    taken = _join(client, new)
    assert taken.status_code == 200
    assert taken.get_json()["token"] == client.application.extensions[
        "riskboard"].seats.tokens()["green"]


@pytest.mark.parametrize("typed", ["", "ABC", "ABCDEFG", "K0M-4PX", "OIL123", "ＡＢＣＤＥＦ",
                                   "x" * 40])
def test_a_malformed_code_is_refused_by_its_form_and_counts_as_no_guess(app, client, typed):
    res = _join(client, typed)
    assert (res.status_code, res.get_json()["error"]["code"]) == (400, "bad_code_format")
    assert app.extensions["riskboard"].code_guard.guard.per_address.untouched("127.0.0.1")


def test_a_code_that_is_not_text_is_refused(client):
    res = client.post("/api/join", json={"code": 123456})
    assert res.get_json()["error"]["code"] == "bad_code_format"
    res = client.post("/api/join", json={"code": "ABCDEF", "seat": "red"})
    assert res.get_json()["error"]["code"] == "unknown_field"


def test_wrong_codes_from_one_address_hold_it_even_with_the_right_code(client, tokens):
    right = _code(client, "red")["code"]
    for _ in range(5):
        res = _join(client, _wrong(right), address="127.0.3.1")
        assert (res.status_code, res.get_json()["error"]["code"]) == (403, "bad_seat_code")
    held = _join(client, right, address="127.0.3.1")
    assert (held.status_code, held.get_json()["error"]["code"]) == (429, "code_rate_limited")
    assert held.get_json()["error"]["params"]["wait"] >= 1
    # another address is not held, and the code still works there
    assert _join(client, right, address="127.0.3.2").status_code == 200


def test_the_code_and_its_seat_code_are_the_same_for_a_token():
    token = "x" * 43
    assert code_of(token) == code_of(token) and len(code_of(token)) == 6
    assert normal_code(f"{code_of(token)[:3]}-{code_of(token)[3:]}".lower()) == code_of(token)
    assert code_of(token) != code_of("y" * 43)


class Crowd:
    """The real table's app on a real socket, with its table-wide code limit slowed to 30 an
    hour so no allowance refills while a loaded machine runs the test (counts are exact)."""

    def __init__(self, table, tmp_path) -> None:
        self.app = create_app(table.app.extensions["riskboard"].table, host_pin=PIN,
                              data_dir=tmp_path / "web", join_rate=(1000.0, 1000),
                              code_total_rate=(30 / 3600, 30))
        self.server = start_background(self.app)
        self.port = int(self.server.url.rsplit(":", 1)[1])

    def join(self, source: str, code: str) -> tuple[int, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                          source_address=(source, 0))
        try:
            conn.request("POST", "/api/join", body=json.dumps({"code": code}),
                         headers={"Content-Type": "application/json",
                                  "X-Seat-Phone": f"phone-{source}"})
            res = conn.getresponse()
            return res.status, json.loads(res.read() or b"{}")
        finally:
            conn.close()


def test_a_crowd_of_addresses_guesses_no_faster_than_the_table_allows(tables, tmp_path):
    table = tables(CLASSIC)
    crowd = Crowd(table, tmp_path)
    try:
        seats = crowd.app.extensions["riskboard"].seats
        tokens = seats.issue_all(["red", "blue", "green"])
        right = code_of(tokens["red"])
        judged = refused = 0
        for n in range(120):  # 120 addresses, one wrong code each
            status, body = crowd.join(f"127.0.{10 + n // 200}.{1 + n % 200}", _wrong(right))
            code = body["error"]["code"]
            assert code in ("bad_seat_code", "code_guessing"), body
            judged += code == "bad_seat_code"
            refused += code == "code_guessing"
        assert (judged, refused) == (30, 90)  # only the table's 30 were ever judged
        # now the right code from a fresh address is refused alike, unjudged: a crowd
        # cannot tell a right guess from a wrong one
        status, body = crowd.join("127.0.20.1", right)
        assert (status, body["error"]["code"]) == (429, "code_guessing")
        assert body["error"]["params"]["wait"] >= 1
        assert not seats.seats()[0]["claimed"]
    finally:
        crowd.server.stop()
