"""`riskboard bringup` at a terminal: the same bring-up as the page, on the board's own link
and LEDs, with every sensor event printed (channel and, once mapped, territory), answers
typed as short words, and `quit` leaving the game as it was."""

from __future__ import annotations

import io
import threading
import time
from types import SimpleNamespace

import pytest

from pi_app.cli.bringup_terminal import walk_through

pytestmark = pytest.mark.slow


class Typing(io.TextIOBase):
    """Lines typed one at a time: `readline` blocks until the test types the next."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ready = threading.Condition()

    def type(self, line: str) -> None:
        with self.ready:
            self.lines.append(line + "\n")
            self.ready.notify()

    def __iter__(self):
        return self

    def __next__(self) -> str:
        with self.ready:
            if not self.ready.wait_for(lambda: self.lines, 60):
                raise StopIteration
            return self.lines.pop(0)


def test_the_terminal_walks_through_prints_every_touch_and_quits_cleanly(tmp_path):
    config = tmp_path / "riskboard.toml"
    config.write_text("", "utf-8")
    args = SimpleNamespace(config=config, profile=None, data=tmp_path / "data", sim=True,
                           miswired=0, pace=0.6, print_steps=False)
    typing, out = Typing(), io.StringIO()
    rigs = []
    worker = threading.Thread(target=lambda: rigs.append(walk_through(
        args, typing, out, on_start=lambda rig: rigs.append(rig))))
    worker.start()

    def wait_out(text: str) -> None:
        deadline = time.monotonic() + 60
        while text not in out.getvalue():
            assert time.monotonic() < deadline, (text, out.getvalue()[-800:])
            time.sleep(0.02)

    wait_out("LEDs are lit, the last one brighter")
    # The terminal's watcher prints from its own thread, so the text can come before
    # walk_through has handed the rig to on_start.
    deadline = time.monotonic() + 60
    while not rigs:
        assert time.monotonic() < deadline, "walk_through never called on_start"
        time.sleep(0.02)
    rig = rigs[0]
    assert rig.loop.publisher.snapshot.paused, "the demo game is paused meanwhile"
    typing.type("count zero")
    wait_out("count takes a number")
    typing.type("y")
    wait_out("colour 1 of 2")
    typing.type("r")  # a board wired as its profile: the first LED shows red, then green
    wait_out("colour 2 of 2")
    typing.type("g")
    wait_out("Touch Alaska.")
    rig.emulator.touch(0)
    wait_out("Touch Northwest Territory.")
    assert "press       channel   0" in out.getvalue()
    rig.emulator.touch(0)  # Alaska's channel again: refused in words
    wait_out("Channel 0 already belongs to Alaska")
    typing.type("u")
    wait_out("Touch Alaska.")
    typing.type("quit")
    worker.join(30)
    assert rigs[1] == 0 and "Stopped without saving." in out.getvalue()
