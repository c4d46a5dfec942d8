"""The whole bring-up of a MISWIRED virtual board on the bring-up page at phone size
(issue 25), then a turn of the game on the board as learned.

The table runs as `riskboard serve --sim` builds it (`build_rig`: emulated Pico over its
pty, in-memory LEDs, MockFactory buttons), with the board miswired (`board.miswired`:
`pi_app.table.miswired`: a shuffled chain, a reversed run, 2- and 4-LED territories, a
territory in two runs, a dead LED, a longer chain than the profile, RGB chips, a crossed
sensor pair, control buttons on other lines; on the NFC board a reader on a spare mux
port). The maker's phone is the real page in headless Chromium at 360 px: every answer is
a tap on its buttons. The maker's other hand works the board (`tests/bringup/table_maker`):
it holds territories on their TRUE channels, presses buttons on their TRUE lines and reads
the LEDs as the true chain shows them. Then the profile is reviewed (diff, sensor CRC),
saved and loaded without a restart, the paused game resumes, every territory answers a
touch as itself and lights in its owner's colour on its true LEDs, and a turn is played.

The maker's action counts and the wall time of each bring-up go to
test-artifacts/bringup/<profile>.json (and `bench/bringup_walkthrough.py` prints them)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pi_app.config import config_from_dict
from pi_app.dice import FairDice
from pi_app.table.autoplay import PressClock, SimHands, next_gestures
from pi_app.table.loop import NewGameSpec, awaited
from pi_app.table.palette import DEFAULT_COLOURS
from pi_app.table.rig import build_rig
from pi_app.web import create_app
from pi_app.web.serve import start_background
from tests.bringup.table_maker import TableMaker, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "bringup"
PIN = "97531864"
PHONE = {"width": 360, "height": 780}
PACE = "0.35"  # the page's "Fast" LED pace
SEED = 7


class PagePhone:
    """The maker's phone: the bring-up page (answers are taps on it); the state is read
    from the API the page reads, to decide like a maker reading the screen."""

    def __init__(self, page: Any, base: str) -> None:
        self.page, self.base = page, base

    def state(self) -> dict[str, Any]:
        request = urllib.request.Request(f"{self.base}/api/host/bringup",
                                         headers={"X-Host-Pin": PIN})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def shown(self) -> dict[str, Any]:
        """The state once the page shows it (its buttons are the ones for this state)."""
        state = self.state()
        wait_for(lambda: self.page.get_attribute("#bu-run", "data-revision")
                 == str(state["revision"]), what="the page to show the state")
        return state

    def answer(self, what: str, value: Any = None) -> None:
        before = self.shown()["revision"]
        page = self.page
        if what == "count":
            page.fill("[data-choice=count]", str(value))
        elif what in ("pick", "status"):
            page.select_option(f"select[data-choice={what}]", str(value))
        if what in ("colour", "order"):
            page.click(f"button[data-answer={what}][data-value={value}]")
        else:
            page.click(f"button[data-answer={what}]")
        state = wait_for(lambda: (s := self.state())["revision"] > before and s,
                         what=f"the answer {what}")
        refusal = state.get("refusal")
        assert not (refusal and refusal["at"] > before), (what, value, refusal)


def fix_silent_readers(board: Any, emulator: Any) -> list[str]:
    """A reader plugged into a port the Pico does not scan stays silent (the live view
    shows nothing when it is touched; doctor names the silent channel): the maker plugs it
    into the silent channel's port. Returns the territories moved."""
    used = set(board.channel_of.values())
    moved = []
    for territory, channel in list(board.channel_of.items()):
        if channel >= emulator.sensor_count:
            free = min(c for c in range(emulator.sensor_count) if c not in used)
            board.channel_of[territory] = free
            used.add(free)
            moved.append(territory)
    return moved


def nearest(rgb: tuple[int, int, int], players: Any) -> str | None:
    """The player whose colour `rgb` is a shade of (the closest in direction), or None
    for a dark LED."""
    if max(rgb) == 0:
        return None

    def cosine(colour: tuple[int, int, int]) -> float:
        dot = sum(a * b for a, b in zip(rgb, colour, strict=True))
        return dot / (sum(a * a for a in rgb) * sum(b * b for b in colour)) ** 0.5

    return max(players, key=lambda p: cosine(DEFAULT_COLOURS[p]))


def served_table(tmp_path: Path, profile: str):
    config = config_from_dict({"board": {"profile": profile, "miswired": SEED},
                               "buttons": {"hold_time": 0.2}})
    clock = PressClock()  # SimHands times quick presses: a stall cannot make them long
    rig = build_rig(config, sim=True, data_dir=tmp_path / "data",
                    demo=NewGameSpec("classic", ("red", "blue", "green"), {"setup": "deal"}),
                    dice=lambda: FairDice(b"\x05" * 32), open_buttons=clock.open_buttons)
    rig.start()
    app = create_app(rig.service, host_pin=PIN, data_dir=tmp_path / "web",
                     command_rate=(1000.0, 1000), pin_rate=(1000.0, 1000))
    return rig, start_background(app), clock


def answers_as_itself(rig: Any, territory: str) -> None:
    """Touch `territory` on the board (its true channel, the current player's token on NFC
    boards): the table's answer names that territory (an army placed on it, or a refusal
    of it)."""
    publisher = rig.loop.publisher
    before = publisher.snapshot.revision
    rig.service.virtual_touch(territory)
    wait_for(lambda: publisher.snapshot.revision > before, what=f"a touch of {territory}")
    events = [e for _revision, batch in publisher.updates_since(before) for e in batch]
    assert any(e.get("territory") == territory for e in events), (territory, events)


def fits(page: Any) -> None:
    """Nothing widens the page beyond the phone's width (it must never scroll sideways)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def check_refusal_and_undo(page: Any, phone: PagePhone, rig: Any, board: Any) -> None:
    """The page says in words why the board's touch was refused, and Undo takes back the
    last answer (these touches and taps are the test's, not counted as the maker's)."""
    first = phone.state()["prompt"]["params"]["territory"]
    channel = board.channel_of[first]
    for _ in range(2):  # map it, then touch it again: "already belongs"
        before = phone.state()["revision"]
        rig.emulator.touch(channel)
        wait_for(lambda b=before: phone.state()["revision"] >= b + 2, what="the touch")
    name = page.evaluate("async (id) => (await import('/static/words.js')).territory(id)", first)
    page.wait_for_selector(f"#bu-refusal:has-text('already belongs to {name}')")
    assert phone.shown()["progress"]["sensors"][0] == 1
    page.click("button[data-answer=undo]")
    wait_for(lambda: phone.state()["progress"]["sensors"][0] == 0, what="the undo")
    assert phone.shown()["prompt"]["params"]["territory"] == first


def bring_up_on_page(browser: Any, rig: Any, base: str, profile: str,
                     screenshots: Path | None = None) -> dict[str, Any]:
    """The whole bring-up of `rig`'s miswired board on the page at 360 px, to the saved
    profile; returns the maker's counts and the wall time."""
    board = rig.service.physical
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(f"sessionStorage.setItem('riskboard.hostPin', '{PIN}');"
                            "localStorage.setItem('riskboard.lang', 'en')")
    page = context.new_page()
    try:
        page.goto(f"{base}/bringup")
        page.wait_for_selector("#bu-idle:not([hidden])")
        moved = fix_silent_readers(board, rig.emulator)
        page.select_option("#bu-pace", PACE)
        started = time.monotonic()
        page.click("#bu-start")
        page.wait_for_selector("#bu-run:not([hidden])")
        assert rig.loop.publisher.snapshot.paused

        phone = PagePhone(page, base)
        maker = TableMaker(board, rig, phone, sent_order=rig.profile.colour_order)
        maker.count_and_colours()
        check_refusal_and_undo(page, phone, rig, board)
        fits(page)
        maker.sensors()
        phone.shown()
        fits(page)
        maker.leds_step()
        maker.controls()
        maker.tags()
        maker.check()
        phone.shown()
        page.click("button[data-answer=save]")
        page.wait_for_selector("#bu-review:not([hidden])")
        diff = page.inner_text("#bu-diff")
        assert diff.startswith("---") and "+led_count = 136" in diff, diff[:400]
        assert "Sensor CRC the Pico must report" in page.inner_text("#bu-crc")
        fits(page)
        if screenshots is not None:
            screenshots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(screenshots / f"{profile}-review.png"), full_page=True)
        page.click("#bu-save")
        page.wait_for_selector("#bu-idle:not([hidden]) #bu-saved:not([hidden])")
        seconds = time.monotonic() - started
        assert "the table uses it now" in page.inner_text("#bu-saved")
    finally:
        context.close()
    counts = maker.counts
    return {"profile": profile, "seed": SEED, "seconds": round(seconds, 1),
            "pace_s": float(PACE), "touches": counts.touches, "taps": counts.taps,
            "presses": counts.presses, "retries": counts.retries, "readers_moved": moved,
            "by_step": counts.by_step}


@pytest.mark.parametrize("profile", ["classic-42", "classic-42-nfc"])
def test_a_miswired_board_is_brought_up_on_the_phone_and_plays(chromium, tmp_path, profile):
    _pw, browser = chromium
    rig, server, clock = served_table(tmp_path, profile)
    try:
        board = rig.service.physical
        assert board is not None, "the virtual board is miswired"
        game_before = rig.loop.publisher.snapshot
        assert game_before.status == "running" and not game_before.paused
        result = bring_up_on_page(browser, rig, f"http://127.0.0.1:{server.port}", profile,
                                  ARTIFACTS)

        # loaded live: the learned maps are the board's truth
        learned = rig.profile
        assert learned.led_count == board.led_count
        for territory in learned.territories:
            assert list(learned.territory_leds[territory]) == sorted(board.leds_of(territory))
            assert learned.sensors[territory].channel == board.channel_of[territory]
        assert dict(learned.controls) == dict(board.controls)
        assert rig.painter.leds.territories == learned.territory_leds
        wait_for(lambda: rig.link.connected, 60, "the Pico again, with the new map's CRC")
        snap = rig.loop.publisher.snapshot
        assert snap.game_id == game_before.game_id and not snap.paused, "the game is back"

        # every territory lights in its owner's colour on its TRUE LEDs (the turn's cue
        # and pulses change the level, not the hue) ...
        def lit_as_owned() -> bool:
            state = rig.loop.publisher.snapshot.state
            shown = board.shown(rig.strip.last, learned.colour_order)
            return all(nearest(shown[i], state.players) == state.owner[t]
                       for t in learned.territories for i in board.leds_of(t))
        wait_for(lit_as_owned, what="every territory in its owner's colour")
        # ... and answers a touch as itself
        for territory in learned.territories:
            answers_as_itself(rig, territory)

        # then the game goes on on the board (touches and buttons on their true lines)
        # past the setup, and the first player of the play plays a whole turn
        hands = SimHands(rig, timeout=60.0, clock=clock)
        deadline = time.monotonic() + 300
        first = None
        while True:
            assert time.monotonic() < deadline, "the turn did not end"
            snap = rig.loop.publisher.snapshot
            playing = not str(snap.state.phase).startswith("setup")
            if playing and first is None:
                first = snap.state.current_player
            if first is not None and snap.state.current_player != first:
                break
            if awaited(snap.state):
                for gesture in next_gestures(snap.state, snap.selection):
                    hands.do(gesture)
        assert rig.loop.errors == 0

        (ARTIFACTS / f"{profile}.json").write_text(json.dumps(result, indent=1))
        print(f"\n{profile}: {json.dumps(result)}")
        assert result["by_step"]["sensors"]["touches"] == len(learned.territories)
    finally:
        server.stop()
        rig.stop()
