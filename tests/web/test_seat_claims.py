"""One phone per seat (issue 21.4): of phones claiming one seat code at the same moment the
first holds the seat and every other is told, in its language, that the seat is taken.
Claims race for real: threads released together, each its own connection to the real
table service served by waitress. (The pages' side: test_browser_seat_claims.py.)"""

from __future__ import annotations

import http.client
import json
import threading
from pathlib import Path

import pytest

from pi_app.table.loop import NewGameSpec
from pi_app.web.seats import SeatTokens
from pi_app.web.serve import start_background

from .conftest import seat

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})
I18N = Path(__file__).resolve().parents[2] / "pi_app" / "web" / "i18n"
WORDS = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8"))
         for lang in ("en", "ko", "ja", "fr")}


@pytest.fixture
def served(tables):
    table = tables(CLASSIC)
    server = start_background(table.app)
    yield table, server
    server.stop()


def me(port: int, token: str, phone: str | None, source: str = "127.0.0.1"):
    """GET /api/me with a seat token from the phone with key `phone` at address `source`:
    (status, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=(source, 0))
    headers = {"X-Seat-Token": token, **({"X-Seat-Phone": phone} if phone else {})}
    try:
        conn.request("GET", "/api/me", headers=headers)
        res = conn.getresponse()
        return res.status, json.loads(res.read())
    finally:
        conn.close()


def claim_together(port: int, token: str, phones: list[str], net: int) -> dict[str, tuple]:
    """Every phone claims `token` at the same moment (a barrier releases them together),
    each from its own address on the Wi-Fi (here 127.0.<net>.x)."""
    ready = threading.Barrier(len(phones))
    answers: dict[str, tuple] = {}

    def claim(phone: str, source: str) -> None:
        ready.wait(timeout=60)
        answers[phone] = me(port, token, phone, source)

    threads = [threading.Thread(target=claim, args=(p, f"127.0.{net}.{1 + k}"))
               for k, p in enumerate(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers


def test_of_phones_claiming_one_code_together_exactly_one_holds_the_seat(served):
    table, server = served
    seats = table.app.extensions["riskboard"].seats
    for round_ in range(12):
        token = seats.reissue("blue") if round_ else table.tokens["blue"]
        phones = [f"phone-{round_}-{k}" for k in range(8)]
        answers = claim_together(server.port, token, phones, 10 + round_)
        held = [p for p, (status, _body) in answers.items() if status == 200]
        assert len(held) == 1, answers  # before the fix: all eight held blue's seat
        assert answers[held[0]][1] == {"player": "blue"}
        for phone in set(phones) - set(held):
            status, body = answers[phone]
            assert (status, body["error"]["code"]) == (409, "seat_held"), body
        loser = next(p for p in phones if p != held[0])
        assert me(server.port, token, held[0], f"127.0.4.{1 + round_}")[0] == 200  # goes on
        assert me(server.port, token, loser, f"127.0.5.{1 + round_}")[0] == 409  # stays out


def test_a_held_seat_refuses_the_token_without_the_phone_and_a_reissue_frees_it(tables):
    table = tables(CLASSIC)
    client = table.client
    red = table.tokens["red"]
    assert client.get("/api/me", headers=seat(red)).status_code == 200  # an API client:
    assert client.get("/api/me", headers=seat(red)).status_code == 200  # binds nothing
    mine = {**seat(red), "X-Seat-Phone": "first-phone"}
    assert client.get("/api/me", headers=mine).status_code == 200  # the first phone
    for headers in (seat(red), {**seat(red), "X-Seat-Phone": "second-phone"}):
        for path in ("/api/me", "/api/state"):
            res = client.get(path, headers=headers)
            assert (res.status_code, res.get_json()["error"]["code"]) == (409, "seat_held")
        res = client.post("/api/stream-ticket", headers=headers)
        assert res.status_code == 409
        res = client.post("/api/command", headers=headers,
                          json={"command": {"type": "end_attack"}})
        assert res.status_code == 409
    assert client.post("/api/stream-ticket", headers=mine).status_code == 200
    new = table.app.extensions["riskboard"].seats.reissue("red")  # the host moves the seat
    assert client.get("/api/me", headers={**seat(new), "X-Seat-Phone": "second-phone"}
                      ).status_code == 200
    res = client.get("/api/me", headers=mine)  # the first phone's old code: moved
    assert res.get_json()["error"]["code"] == "seat_moved"


def test_the_phone_holding_a_seat_is_kept_across_a_restart(tmp_path):
    seats = SeatTokens(tmp_path)
    tokens = seats.issue_all(["red", "blue"])
    assert seats.seat_for(tokens["red"], "first") == "red"
    again = SeatTokens(tmp_path)
    assert again.seat_for(tokens["red"], "first") == "red"
    with pytest.raises(Exception, match="red"):
        again.seat_for(tokens["red"], "second")
    again.issue_all(["red", "blue"])  # a new game: nobody holds anything
    assert "first" not in (tmp_path / SeatTokens.FILE_NAME).read_text()


def test_the_refusal_has_words_in_every_language(tables):
    """The page words a refusal by its code: seat_held, in each language, without params."""
    table = tables(CLASSIC)
    mine = {**seat(table.tokens["green"]), "X-Seat-Phone": "first"}
    assert table.client.get("/api/me", headers=mine).status_code == 200
    res = table.client.get("/api/me", headers={**mine, "X-Seat-Phone": "second"})
    error = res.get_json()["error"]
    assert "params" not in error
    for lang, words in WORDS.items():
        assert "{" not in words[f"error.{error['code']}"], lang
