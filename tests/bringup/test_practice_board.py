"""A bring-up practised on the virtual board from outside finishes on every board (issue 33):
`riskboard serve --sim --miswired SEED` driven over the documented HTTP routes only.

The miswired NFC board plugs one reader into a mux port the Pico never scans
(`pi_app.table.miswired.build_board`): the bring-up names that reader where it matters, the
practice board's cable can be moved as the maker's hands would, a territory can be held
down and let go (the LED step: one hold per run), and tokens and markers go on any reader.
Bad input changes nothing."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from hardware.profiles import load_profile
from pi_app.bringup.core import facts_from_rules
from pi_app.table.miswired import miswired
from pi_app.table.palette import DEFAULT_COLOURS
from tests.bringup.http_maker import (
    Http,
    HttpError,
    HttpHands,
    HttpPhone,
    SeenBoard,
    replug_silent_readers,
    served,
)
from tests.bringup.table_maker import TableMaker, wait_for
from tests.bringup.test_bringup_miswired import runs

pytestmark = pytest.mark.slow
SEED = 7
FAST = 0.2  # the bring-up page's fastest LED pace


def refused(call: Any, status: int, code: str | None) -> None:
    with pytest.raises(HttpError) as caught:
        call()
    assert caught.value.status == status, caught.value.body
    if code is not None:
        assert caught.value.code == code, caught.value.body


@pytest.fixture
def nfc_table(tmp_path: Path):
    with served(tmp_path, "classic-42-nfc", SEED) as http:
        yield http


def test_a_silent_reader_is_named_and_moving_its_cable_makes_it_heard(nfc_table: Http):
    http, phone = nfc_table, HttpPhone(nfc_table)
    phone.start(FAST)
    profile = load_profile("classic-42-nfc")
    truth = miswired(profile, SEED)
    [loose] = [t for t, c in truth.channel_of.items() if c >= profile.sensor_count]
    expected = profile.sensors[loose].channel  # where the profile (and the Pico) expects it
    ports = http.get("/api/virtual/board")["sensors"]
    assert ports["unscanned"] == [{"territory": loose, "port": truth.channel_of[loose]}]
    assert expected in ports["free"]

    silent = wait_for(lambda: phone.state().get("silent_readers"), what="the silent reader")
    assert [(r["channel"], r["territory"]) for r in silent] == [(expected, loose)]
    assert silent[0].get("mux") and isinstance(silent[0].get("port"), int)

    before = phone.state()["revision"]
    assert http.post("/api/virtual/touch", {"territory": loose, "player": "red"}) == {
        "ok": True, "heard": False}
    assert phone.state()["revision"] == before  # nothing reached the bring-up

    # the cable cannot go where another reader sits, nor off the board; nothing moves
    other = next(t for t, c in truth.channel_of.items() if c == 0)
    refused(lambda: http.post("/api/virtual/replug", {"territory": loose, "port": 0}), 409,
            "port_taken")
    refused(lambda: http.post("/api/virtual/replug", {"territory": loose, "port": 999}), 400,
            "bad_port")
    refused(lambda: http.post("/api/virtual/replug", {"territory": loose, "port": "1"}), 400,
            "bad_port")
    refused(lambda: http.post("/api/virtual/replug", {"territory": "atlantis", "port": 1}),
            400, "unknown_territory")
    refused(lambda: http.call("POST", "/api/virtual/replug", raw=b"{not json"), 400, None)
    refused(lambda: Http(http.base, "").post("/api/virtual/replug",
                                             {"territory": loose, "port": expected}), 401,
            "pin_required")
    assert http.get("/api/virtual/board")["sensors"] == ports
    assert other != loose

    assert replug_silent_readers(http, phone) == [loose]
    assert http.get("/api/virtual/board")["sensors"]["unscanned"] == []
    wait_for(lambda: phone.state().get("silent_readers") == [], what="the reader answering")
    before = phone.state()["revision"]
    assert http.post("/api/virtual/touch", {"territory": loose, "player": "red"})["heard"]
    heard = wait_for(lambda: (s := phone.state())["revision"] > before and s,
                     what="the bring-up to hear the moved reader")
    assert any(c["channel"] == expected and c["events"] for c in heard["channels"]), heard


def test_a_touch_takes_only_the_actions_and_tags_a_board_has(nfc_table: Http):
    http = nfc_table
    for body, code in (({"territory": "alaska", "action": "hold"}, "bad_action"),
                       ({"territory": "alaska", "player": "red", "tag": "marker-9"},
                        "no_marker"),
                       ({"territory": "alaska", "player": "red", "tag": "sticker"},
                        "no_marker"),
                       ({"territory": "alaska", "tag": 3}, "bad_tag")):
        refused(lambda b=body: http.post("/api/virtual/touch", b), 400, code)


@pytest.mark.parametrize("profile", ["classic-42", "classic-42-nfc"])
def test_a_miswired_board_is_brought_up_from_outside_with_one_touch_a_territory_and_one_hold_a_run(
        tmp_path: Path, profile: str):
    with served(tmp_path, profile, SEED) as http:
        phone = HttpPhone(http)
        phone.start(FAST)
        replug_silent_readers(http, phone)
        board = SeenBoard.read(http)
        maker = TableMaker(board, None, phone, hands=HttpHands(http, board))
        maker.whole()
        saved = phone.save()["last_saved"]

        truth = miswired(load_profile(profile), SEED)
        territories = len(facts_from_rules().territories)
        counts = maker.counts.by_step
        assert counts["sensors"]["touches"] == territories
        assert counts["leds"]["touches"] == runs(list(truth.owners)) + maker.counts.retries
        learned = tomllib.loads(Path(saved["path"]).read_text())
        if truth.nfc:
            assert counts["tokens"]["touches"] == len(truth.tokens)
            assert counts["markers"]["touches"] == sum(map(len, truth.markers.values()))
            assert {c: sorted(u) for c, u in learned["tokens"].items()} == {
                c: sorted(u[:1]) for c, u in truth.tokens.items()}
            assert {c: sorted(u) for c, u in learned["markers"].items()} == {
                c: sorted(u) for c, u in truth.markers.items()}

        # the game comes back on the learned profile: every territory lit in its owner's colour
        wait_for(lambda: http.get("/api/status")["link"]["connected"],
                 what="the link on the learned profile")
        state = http.get("/api/state")["state"]
        seen = SeenBoard.read(http)
        lit = http.get("/api/virtual/board")["leds"]
        for territory, owner in state["owner"].items():
            leds = [i for i, o in enumerate(seen.owners) if o == territory]
            assert leds, territory
            assert {nearest(lit[i], state["players"]) for i in leds} == {owner}, territory


def nearest(rgb: list[int], players: list[str]) -> str | None:
    """The player whose colour `rgb` is a shade of (the closest in direction)."""
    if max(rgb) == 0:
        return None

    def cosine(colour: tuple[int, int, int]) -> float:
        dot = sum(a * b for a, b in zip(rgb, colour, strict=True))
        return dot / (sum(a * a for a in rgb) * sum(b * b for b in colour)) ** 0.5

    return max(players, key=lambda p: cosine(DEFAULT_COLOURS[p]))
