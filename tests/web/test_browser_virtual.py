"""A whole Classic game played on `/virtual` alone, from claiming to victory.

The REAL service runs as `riskboard serve --sim` (emulated Pico, in-memory LEDs, simulated
buttons with a short hold time so the test does not wait a second per long press), with
fixed dice. The host starts a 3-player Classic game with claiming and the house rule of
many starting armies per setup turn (setup at table speed). From then on every decision is
a click on a territory, a click on one of the page's control buttons or a key held down,
exactly what a newcomer at the virtual board does: red plays to win (blitzes from its
biggest army), blue and green place and end their turns. On the way the test checks the
issue's promises on the page: a refusal clears at the next accepted action, an undo from
the board is the board's and drops only its line, the aim stays across a defended roll so
the next roll is one press, the count being set shows in the state line, and the status
LEDs are drawn from the strip's frames."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from pi_app.rules import load_map

from .browsing import DESKTOP, PHONE, open_page, shot
from .test_browser_serve import free_port, get_json

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]
BOARD = load_map()
# The simulated buttons' hold time (config): short, so a long press is quick, yet far above
# a click (the page holds it 80 ms, and the server sees its down and up as two POSTs: a
# loaded machine answering them 0.3 s apart made a click a long press)
HOLD_S = 0.6
PLAYERS = ("red", "blue", "green")


def post_json(url: str, body: dict, headers: dict[str, str]) -> dict:
    """POST a JSON body; the JSON answer."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base url, host PIN) of `riskboard serve --sim` with fixed dice and a short hold."""
    port = free_port()
    folder = tmp_path_factory.mktemp("virtual-serve")
    config = folder / "config.toml"
    config.write_text(f"[buttons]\nhold_time = {HOLD_S}\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISKBOARD_HOST_PIN", "RISKBOARD_CONFIG")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port), "--data",
         str(folder / "data"), "--config", str(config), "--dice-seed", "13"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout],
                     daemon=True).start()
    try:
        pin, deadline = None, time.monotonic() + 60
        while pin is None and time.monotonic() < deadline:
            try:
                found = re.search(r"host PIN (\d{6,})", lines.get(timeout=0.5))
                pin = found.group(1) if found else None
            except queue.Empty:
                assert proc.poll() is None, "serve exited"
        assert pin, "serve printed no host PIN"
        base = f"http://127.0.0.1:{port}"
        while time.monotonic() < deadline:
            try:
                if get_json(f"{base}/api/state")["state"].get("players"):
                    break
            except OSError:
                pass
            time.sleep(0.1)
        yield base, pin
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class VirtualBoard:
    """The /virtual page driven as a player drives it, waiting for each action's update."""

    def __init__(self, page, base: str) -> None:
        self.page = page
        self.base = base
        self.actions = 0

    def state(self) -> dict:
        return get_json(f"{self.base}/api/state")["state"]

    def _after(self, act) -> None:
        seq = self.page.evaluate("document.body.dataset.seq")
        act()
        self.actions += 1
        self.page.wait_for_function(f"() => document.body.dataset.seq !== {json.dumps(seq)}")

    def touch(self, territory: str) -> None:
        self._after(lambda: self.page.locator(f'g.tile[data-id="{territory}"]').click())

    def press(self, button: str) -> None:
        self._after(lambda: self.page.click(f'.v-btn[data-button="{button}"]'))

    def hold(self, key: str) -> None:
        """Hold a key (r = Roll, c = Confirm, e = End phase) past the hold time."""
        def act() -> None:
            seq = self.page.evaluate("document.body.dataset.seq")
            self.page.keyboard.down(key)
            time.sleep(HOLD_S)
            # let go once the table has answered: a long press is reported while held, so a
            # slow server can never see the release first and take the hold for a click
            self.page.wait_for_function(
                f"() => document.body.dataset.seq !== {json.dumps(seq)}", timeout=60_000)
            self.page.keyboard.up(key)
        self._after(act)


def enemies_of(state: dict, territory: str) -> list[str]:
    owner = state["owner"][territory]
    return [n for n in BOARD.neighbours[territory] if state["owner"][n] != owner]


def strongest_border(state: dict, player: str) -> str:
    mine = [t for t, o in state["owner"].items() if o == player]
    border = [t for t in mine if enemies_of(state, t)] or mine
    return max(border, key=lambda t: (state["armies"][t], t))


def test_a_whole_classic_game_on_the_virtual_board_alone(served, chromium):
    base, pin = served
    _pw, browser = chromium
    post_json(f"{base}/api/host/new_game",
              {"variant": "classic", "players": list(PLAYERS),
               "house_rules": {"setup": "claim", "setup_armies_per_turn": 50}},
              {"X-Host-Pin": pin})
    page = open_page(browser.new_context(viewport=DESKTOP), f"{base}/virtual")
    page.fill("#v-pin", pin)
    page.click("#v-pin-btn")
    page.wait_for_selector("#pin-ask", state="hidden")
    board = VirtualBoard(page, base)
    state = board.state()
    assert state["phase"] == "claim"
    phone = open_page(browser.new_context(viewport=PHONE), f"{base}/virtual")
    phone.wait_for_selector(".v-btn")
    shot(phone, "virtual-360")  # the whole board fits a phone: nothing scrolls sideways
    # closed at once: an open /virtual draws the LEDs' animations ten frames a second (the
    # free territories breathe all through the claiming), each a redraw of the page
    phone.context.close()

    # the status LEDs are the strip's: the turn LED is drawn in the strip's colour for it
    frame = get_json(f"{base}/api/virtual/board")
    turn_led = frame["leds"][frame["status_leds"]["turn"][0]]
    assert max(turn_led) > 0, "the claiming player's colour is lit"
    page.wait_for_function(
        "(want) => { const d = document.querySelector('.v-leds[data-leds=turn] .v-led');"
        " return d && getComputedStyle(d).backgroundColor === want; }",
        arg="rgb({}, {}, {})".format(*turn_led))
    # ... and the free territories breathe: a territory's LED dot changes as the strip does
    free = next(t for t, o in state["owner"].items() if o is None)
    dot = f'g.tile[data-id="{free}"] circle.led'
    page.wait_for_selector(dot)
    looks = set()
    for _ in range(12):
        looks.add(page.get_attribute(dot, "fill"))
        time.sleep(0.2)
    assert len(looks) > 2, f"the breath is drawn: {looks}"

    # claiming, with a refusal that clears, and the board's Undo that takes back no other
    # seat's move (docs/RULES.md §8.1: the claim was the last seat's, the next one is on the move)
    first_free = next(t for t, o in state["owner"].items() if o is None)
    board.touch(first_free)
    board.touch(first_free)  # already taken: refused, said on the page
    taken = page.inner_text("#refusal")
    assert taken != ""
    board.press("undo")
    page.wait_for_function("(before) => { const r = document.querySelector('#refusal');"
                           " return r && r.innerText !== '' && r.innerText !== before; }",
                           arg=taken)
    log = page.inner_text("#log")
    assert "The board took back a move" not in log and "claimed" in log
    assert board.state()["owner"][first_free] is not None, "the claim stays"
    while (state := board.state())["phase"] == "claim":
        board.touch(next(t for t, o in state["owner"].items() if o is None))
        assert page.inner_text("#refusal") == "", "a refusal clears at the next accepted action"

    # setup at table speed: a touch and Confirm put the whole turn's armies there
    while (state := board.state())["phase"] == "setup_place":
        board.touch(strongest_border(state, state["current_player"]))
        board.press("confirm")

    checked_aim = checked_fortify = False
    turns = 0
    while not (state := board.state()).get("winner"):
        assert turns < 400, "the game should be won by now"
        pending, player = state.get("pending"), state["current_player"]
        hands = state.get("hand_counts") or {}
        if pending and pending["kind"] == "defend":
            board.press("roll")
        elif pending and pending["kind"] == "move_in":
            page.wait_for_selector('#v-state .count[data-what="move_in"]')
            board.press("confirm")
        elif pending or state["phase"] == "reinforce":
            who = pending["player"] if pending else player
            if hands.get(who, 0) >= 5:
                board.hold("c")  # trade the best set
            else:
                board.touch(strongest_border(state, who))
                board.press("confirm")
        elif state["phase"] == "attack" and player != "red":
            board.hold("e")  # end the turn at once
            turns += 1
        elif state["phase"] == "attack":
            source = strongest_border(state, "red")
            if state["armies"][source] < 3 or not enemies_of(state, source):
                if checked_fortify:
                    board.hold("e")
                    turns += 1
                else:
                    board.press("end_phase")  # to fortify
                continue
            target = min(enemies_of(state, source), key=lambda t: (state["armies"][t], t))
            selection = state["table"]["selection"]
            if selection["source"] != source:
                board.touch(source)
            if selection["target"] != target:
                board.touch(target)
            if not checked_aim and state["armies"][target] >= 2:
                checked_aim = check_the_aim_stays(board, page, source, target)
                continue
            board.hold("r")  # blitz
        elif state["phase"] == "fortify":
            fortify_once(board, page, state)
            checked_fortify = True  # one fortify phase played through, moved or not
            turns += 1
    assert state["winner"] == "red"
    page.wait_for_selector('#log li:has-text("red won the game")')
    assert "won the game" in page.inner_text("#v-state")
    assert checked_aim, "a defended roll happened"
    shot(page, "virtual-victory-1280")


def check_the_aim_stays(board: VirtualBoard, page, source: str, target: str) -> bool:
    """One roll, the defender answers, and the next roll is one press of Roll."""
    page.wait_for_selector('#v-state .count[data-what="attack_dice"]')
    board.press("roll")
    state = board.state()
    if not state.get("pending") or state["pending"]["kind"] != "defend":
        return False
    page.wait_for_selector('#v-state .count[data-what="defence_dice"]')
    board.press("roll")  # the defender's answer
    state = board.state()
    if state["owner"][target] == "red" or state["armies"][source] < 2:
        return False
    assert state["table"]["selection"]["source"] == source
    assert state["table"]["selection"]["target"] == target
    before = board.actions
    board.press("roll")  # the next roll: one press
    assert board.state()["pending"]["kind"] == "defend" or board.actions == before + 1
    return True


def fortify_once(board: VirtualBoard, page, state: dict) -> bool:
    """Red's fortify: from, to, to again for +1, Confirm (the count shows meanwhile)."""
    mine = [t for t, o in state["owner"].items() if o == "red"]
    pairs = [(s, d) for s in mine if state["armies"][s] >= 3
             for d in BOARD.neighbours[s] if state["owner"][d] == "red"]
    if not pairs:
        board.press("end_phase")
        return False
    source, dest = pairs[0]
    if any(state["table"]["selection"].get(k) for k in ("source", "target")):
        # an aim left from the attack would make the first touch a destination of it
        board.press("undo")  # drops the selection (nothing is taken back while one is held)
    board.touch(source)
    board.touch(dest)
    board.touch(dest)
    selection = board.state()["table"]["selection"]
    assert (selection["source"], selection["target"], selection.get("count")) == (
        source, dest, 2), f"fortify {source} -> {dest} twice: {selection}"
    page.wait_for_selector('#v-state .count[data-what="fortify"][data-value="2"]')
    board.press("confirm")
    return True
