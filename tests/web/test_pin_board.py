"""The host's sign-in confirmation on the board (issue 21.3): the table lets the web see a
control-button press before the game does (`LocalTableService.watch_presses`)."""

from __future__ import annotations

import time

from hardware.controls import ControlEvent
from pi_app.table.loop import NewGameSpec

CLASSIC = NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"})


def wait_until(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_watched_press_is_kept_from_the_game_and_others_reach_it(tables):
    table = tables(CLASSIC)
    service = table.app.extensions["riskboard"].table
    seen: list[tuple[str, bool]] = []

    def watcher(button: str, long: bool) -> bool:
        seen.append((button, long))
        return button == "confirm" and long

    service.watch_presses(watcher)
    before = table.mark()
    table.loop.post_control(ControlEvent("confirm", "long_press"))
    wait_until(lambda: seen == [("confirm", True)])
    assert table.mark() == before  # the game never saw it: no refusal, no command
    table.loop.post_control(ControlEvent("end_phase", "press"))
    wait_until(lambda: len(seen) == 2)
    wait_until(lambda: table.mark() != before)  # this one reached the game (a refusal or more)
    assert seen[1] == ("end_phase", False)


def test_on_the_virtual_board_the_seat_whose_move_it_is_stands_in_for_the_hand(tmp_path):
    """No physical board: a long Confirm on /virtual by the phone whose move it is (a seat
    the host handed out at the table) opens the sign-in window; another seat's cannot."""
    from hardware.supervised import Backoff
    from pi_app.config import Config
    from pi_app.table.rig import build_rig
    from pi_app.table_api import Viewer
    from pi_app.web import create_app

    from .conftest import PIN, host, seat

    rig = build_rig(Config(), sim=True, data_dir=tmp_path / "d", demo=CLASSIC,
                    backoff=lambda: Backoff(0.01, 0.05))
    rig.start()
    try:
        app = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "d",
                         pin_total_rate=(1 / 3600, 3), command_rate=(1000.0, 1000))
        tokens = app.extensions["riskboard"].seats.issue_all(list(CLASSIC.players))
        client = app.test_client()

        def ask(address: str, pin: str):
            return app.test_client().get("/api/host/check", headers=host(pin),
                                         environ_base={"REMOTE_ADDR": address})

        for k in range(4):
            ask(f"10.9.0.{k}", f"{k:08d}")
        assert ask("10.0.0.8", PIN).status_code == 429  # a new device, a crowd guessing
        awaiting = rig.service.view(Viewer("spectator"))["table"]["awaiting"][0]
        other = next(p for p in CLASSIC.players if p != awaiting)

        def hold_confirm(player: str):
            press = {"button": "confirm", "action": "down"}
            assert client.post("/api/virtual/button", json=press,
                               headers=seat(tokens[player])).status_code == 200
            time.sleep(rig.service.hold_time + 0.2)
            return client.post("/api/virtual/button", json={**press, "action": "up"},
                               headers=seat(tokens[player]))

        refused = hold_confirm(other)
        assert (refused.status_code, refused.get_json()["error"]["code"]) == \
            (403, "not_your_turn")
        assert ask("10.0.0.8", PIN).status_code == 429
        before = rig.loop.call(lambda core: (core.session.last_seq, core.revision))
        assert hold_confirm(awaiting).status_code == 200
        assert rig.loop.call(lambda core: (core.session.last_seq, core.revision)) == before
        assert ask("10.0.0.8", PIN).status_code == 200
    finally:
        rig.stop()
