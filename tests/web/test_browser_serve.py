"""The REAL service in a browser: `riskboard serve --sim` runs as a subprocess on a free port
with its own data folder (the emulated Pico over a pty, in-memory LEDs, the demo game).
The host logs in with the printed PIN and follows the host page's link to the virtual board;
clicking territories there touches their sensors through the emulator; the
table view shows the map and log change through SSE; a phone opens `/me`
with a seat token fetched from the host API with the PIN that serve printed, and plays."""

from __future__ import annotations

import json
import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from .browsing import DESKTOP, PHONE, open_page, shot

pytestmark = pytest.mark.browser
ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get_json(url: str, headers: dict[str, str] | None = None) -> dict:
    """GET a JSON document."""
    request = urllib.request.Request(url, headers=headers or {})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base url, host PIN) of a running `riskboard serve --sim`; stopped with SIGTERM."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("RISKBOARD_HOST_PIN", "RISKBOARD_CONFIG")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pi_app", "serve", "--sim", "--port", str(port),
         "--data", str(tmp_path_factory.mktemp("serve-data"))],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout],
                              daemon=True)
    reader.start()
    try:
        pin, printed, deadline = None, [], time.monotonic() + 60
        while pin is None and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                assert proc.poll() is None, f"serve exited: {printed}"
                continue
            printed.append(line)
            found = re.search(r"host PIN (\d{6,})", line)
            pin = found.group(1) if found else None
        assert pin, f"serve printed no host PIN: {printed}"
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


def test_virtual_touches_reach_the_table_view_and_a_seated_phone_plays(served, chromium):
    base, pin = served
    _pw, browser = chromium
    desk = browser.new_context(viewport=DESKTOP)
    # the newcomer's way: the host page (PIN from serve's console), then its board link
    board = open_page(desk, f"{base}/host", "#login")
    board.fill("#pin", pin)
    board.click("#login-btn")
    board.wait_for_selector("#console:not([hidden])")
    board.click("#virtual-link")
    board.wait_for_selector("#conn.ok")
    assert board.locator("#pin-ask").is_hidden(), "the host page's PIN unlocks the board"
    viewer = open_page(desk, f"{base}/")
    state = get_json(f"{base}/api/state")["state"]
    assert state["phase"] == "setup_place", "the demo game starts by placing armies"
    for _ in range(2):  # two touches: two players place an army each, in turn
        who = state["current_player"]
        territory = next(t for t, o in state["owner"].items() if o == who)
        armies = state["armies"][territory]
        board.locator(f'g.tile[data-id="{territory}"]').click()
        viewer.wait_for_selector(
            f'g.tile[data-id="{territory}"] .count:text-is("{armies + 1}")')
        viewer.wait_for_selector(f'#log li:has-text("{who.title()} placed 1 army on")')
        state = get_json(f"{base}/api/state")["state"]
        assert state["current_player"] != who
    board.wait_for_function(  # the LED glow follows the in-memory strip
        "() => [...document.querySelectorAll('rect.glow')]"
        ".some((r) => r.getAttribute('stroke-width') === '6')")
    shot(board, "serve-virtual-1280")
    # a phone with the seat token the host API hands out (PIN from serve's console)
    who = state["current_player"]
    seat = get_json(f"{base}/api/host/seats/{who}/code", {"X-Host-Pin": pin})["seat"]
    token = seat["url"].split("#t=", 1)[1]
    phone_ctx = browser.new_context(viewport=PHONE)
    phone = open_page(phone_ctx, f"{base}/me#t={token}", "#private:not([hidden])")
    assert phone.locator("#seat-name").inner_text() == f"You are {who.title()}"
    territory = next(t for t, o in state["owner"].items() if o == who)
    armies = state["armies"][territory]
    phone.locator(f'g.tile[data-id="{territory}"]').click()
    viewer.wait_for_selector(
        f'g.tile[data-id="{territory}"] .count:text-is("{armies + 1}")')
    assert phone.locator("#me-error").inner_text() == ""
    shot(phone, "serve-me-360")
    shot(viewer, "serve-table-1280")
    phone_ctx.close()
    desk.close()
