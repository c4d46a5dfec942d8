"""Run inside the arm64 Pi box with pibox_shim.so preloaded: the project's own hardware/
classes against the REAL rpi-ws281x and lgpio, whose devices the shim provides.

    python probe.py leds      the LED strip on GPIO 10 (SPI) shows a frame; the shim's decoded
                              frame must hold the colours sent
    python probe.py buttons   a control button on GPIO 17 through gpiozero's LGPIO factory;
                              prints READY, then waits for the press the FIFO injects
    python probe.py detect    one start of the LED strip under the model and revision the shim
                              fakes (environment), printing what rpi-ws281x answered

Each prints one JSON line last: {"ok": bool, ...}. Exit status 0 when ok.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import threading
import time
from pathlib import Path

SHIM_DIR = Path(os.environ.get("PIBOX_SHIM_DIR", "/run/pibox-shim"))
# Colours chosen so the expected bytes need no computing: gamma 1.0 passes every level as it
# is, and a WS2812 takes green, red, blue on the wire.
FRAME = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (18, 52, 200), (255, 255, 255), (0, 0, 0)]
BUTTON_GPIO = 17
LONG_STRIP = 400  # > (4096 - 24) / 12 = 339 LEDs


def report(ok: bool, **facts: object) -> None:
    """Print the result line and leave with its status."""
    print(json.dumps({"ok": ok, **facts}), flush=True)
    sys.exit(0 if ok else 1)


def read_frame() -> dict[str, str]:
    """The shim's last decoded frame, as key -> value text."""
    text = (SHIM_DIR / "leds").read_text()
    return dict(line.split(" ", 1) for line in text.splitlines() if " " in line)


def leds() -> None:
    """Show FRAME on a Ws281xStrip (GPIO 10, SPI) and compare the shim's decoded strip."""
    from hardware.output_stage import OutputStage
    from hardware.ws281x_strip import Ws281xStrip

    strip = Ws281xStrip(len(FRAME), gpio_pin=10, output=OutputStage(len(FRAME), gamma=1.0))
    try:
        strip.show(FRAME)
        frame = read_frame()
    finally:
        strip.close()
    wire = frame.get("grb", "").split()
    seen = [(int(h[2:4], 16), int(h[0:2], 16), int(h[4:6], 16)) for h in wire]  # GRB -> RGB
    problems = []
    if seen != FRAME:
        problems.append(f"the strip lit {seen}, the frame sent was {FRAME}")
    if frame.get("speed_hz") != "2400000":
        problems.append(f"SPI clock {frame.get('speed_hz')} Hz, want 2400000 (3 x 800 kHz)")
    if frame.get("bad_symbols") != "0":
        problems.append(f"{frame.get('bad_symbols')} SPI symbols were neither 110 nor 100")
    if frame.get("gpio10_function") != "alt0":
        problems.append(f"GPIO 10's function is {frame.get('gpio10_function')}, want alt0 (MOSI)")
    if float(frame.get("reset_us", "0")) < 50:
        problems.append(f"the line is low {frame.get('reset_us')} us after the data; a WS2812 "
                        "latches after 50")
    after_close = read_frame()
    dark = after_close.get("grb", "").split() == ["000000"] * len(FRAME)
    if not dark:
        problems.append(f"closing the strip left {after_close.get('grb')} lit")
    report(not problems, problems=problems, decoded=seen, frame=frame,
           dark_after_close=dark)


def buttons() -> None:
    """A ControlButtons on the default pin factory (lgpio); wait for an injected press."""
    from hardware.controls import ControlButtons

    events: list[object] = []
    got = threading.Event()

    def on_event(event: object) -> None:
        events.append(event)
        got.set()

    controls = ControlButtons({"confirm": BUTTON_GPIO}, on_event, hold_time=5.0)
    answered = controls.answered_by
    idle = controls.get_status()["confirm"]
    print("READY", flush=True)
    # The injector holds the button down, waits for PRESSED_SEEN, then lets go.
    deadline = time.monotonic() + 120
    pressed_seen = False
    while time.monotonic() < deadline and not pressed_seen:
        pressed_seen = bool(controls.get_status()["confirm"]["pressed"])
        time.sleep(0.05)
    print("PRESSED_SEEN" if pressed_seen else "PRESSED_NOT_SEEN", flush=True)
    got.wait(120)
    controls.close()
    kinds = [f"{e.name}:{e.kind}" for e in events]  # type: ignore[attr-defined]
    problems = []
    if answered != "LGPIO":
        problems.append(f"the buttons were answered by {answered!r}, not LGPIO")
    if idle["pressed"]:
        problems.append("the button read pressed before anything touched it (pull-up ignored)")
    if not pressed_seen:
        problems.append("the held button never read as pressed (GPIO_V2_LINE_GET_VALUES)")
    if kinds != ["confirm:press"]:
        problems.append(f"the game got {kinds}, want one confirm press")
    report(not problems, problems=problems, answered_by=answered, events=kinds)


# Where rpi-ws281x's own start-up stops on each board, as the shim makes it look: the
# device-tree model (the project's platform check), the revision rpi-ws281x looks up in its
# table (rpihw.c), and the devices SPI mode opens. "start" = the strip starts; a number =
# ws2811_init's return code; "platform" = the project refuses before rpi-ws281x runs.
DETECT_CASES: list[tuple[str, dict[str, str], str]] = [
    ("Pi 3 Model B+ (a020d3)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 3 Model B Plus Rev 1.3", "PIBOX_SHIM_REVISION": "a020d3"},
     "start"),
    ("Pi 4 Model B 4GB rev 1.4 (c03114)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.4", "PIBOX_SHIM_REVISION": "c03114"},
     "start"),
    ("Pi 4 Model B 8GB rev 1.5 (d03115)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.5", "PIBOX_SHIM_REVISION": "d03115"},
     "start"),
    ("Pi Zero 2 W (902120)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi Zero 2 W Rev 1.0", "PIBOX_SHIM_REVISION": "902120"},
     "start"),
    ("Pi 400 (c03130)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 400 Rev 1.0", "PIBOX_SHIM_REVISION": "c03130"},
     "start"),
    ("Pi 4 with a revision this rpi-ws281x does not list (c0311f)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.f", "PIBOX_SHIM_REVISION": "c0311f"},
     "-3"),
    ("Pi 4 whose device tree has no linux,revision",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.4", "PIBOX_SHIM_REVISION": "none"},
     "-3"),
    ("Pi 4 with SPI off (no /dev/spidev0.0)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.4", "PIBOX_SHIM_REVISION": "c03114",
      "PIBOX_SHIM_NO_SPI": "1"},
     "-13"),
    ("Pi 4 without /dev/gpiomem",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 4 Model B Rev 1.4", "PIBOX_SHIM_REVISION": "c03114",
      "PIBOX_SHIM_NO_GPIOMEM": "1"},
     "-13"),
    ("Pi 5 (c04170)",
     {"PIBOX_SHIM_MODEL": "Raspberry Pi 5 Model B Rev 1.0", "PIBOX_SHIM_REVISION": "c04170"},
     "platform"),
]
_SHIM_KEYS = ("PIBOX_SHIM_MODEL", "PIBOX_SHIM_REVISION", "PIBOX_SHIM_NO_SPI",
              "PIBOX_SHIM_NO_GPIOMEM")


def detect() -> None:
    """Start a 3-LED Ws281xStrip on GPIO 10 under each DETECT_CASES board; print a line for
    each (what happened, the sentence a maker reads) and fail on an unexpected outcome. The
    shim reads its environment at each open, so one process goes through all of them."""
    import re

    from hardware.errors import HardwareUnavailable
    from hardware.ws281x_strip import Ws281xStrip

    problems = []
    for name, env, want in DETECT_CASES:
        for key in _SHIM_KEYS:
            os.environ.pop(key, None)
        os.environ.update(env)
        # The nodes as a Pi has them, so what the strip says is missing is checked too (the
        # chroot's /dev is its own tmpfs; the shim still answers behind the nodes).
        for node, off in (("/dev/spidev0.0", "PIBOX_SHIM_NO_SPI"),
                          ("/dev/gpiomem", "PIBOX_SHIM_NO_GPIOMEM")):
            if off in env:
                Path(node).unlink(missing_ok=True)
            elif not Path(node).exists():  # mknod: an open(O_CREAT) would reach the shim
                os.mknod(node, 0o660 | stat.S_IFREG)
        said, outcome = "", "start"
        try:
            Ws281xStrip(3, gpio_pin=10).close()
        except HardwareUnavailable as exc:
            said = str(exc)
            found = re.search(r"code (-\d+)", said)
            outcome = found.group(1) if found else "platform"
        print(json.dumps({"case": name, "outcome": outcome, "said": said}), flush=True)
        if outcome != want:
            problems.append(f"{name}: got {outcome}, want {want}")
        for node, off in (("/dev/spidev0.0", "PIBOX_SHIM_NO_SPI"),
                          ("/dev/gpiomem", "PIBOX_SHIM_NO_GPIOMEM")):
            if off in env and f"Here {node} is missing." not in said:
                problems.append(f"{name}: the sentence does not say {node} is missing")
    # A long strip: rpi-ws281x sends 12 bytes an LED (it sizes for 4 colours) plus the latch
    # in one SPI transfer, and spidev refuses one longer than its 4096-byte buffer. The strip
    # refuses to start with the fix (spidev.bufsiz= in cmdline.txt); told that the buffer is
    # raised while the driver's is not (the shim's 4096), its refused frame says the same.
    for key in _SHIM_KEYS:
        os.environ.pop(key, None)
    os.environ.update(DETECT_CASES[1][1])
    for name, bufsiz, want in ((f"Pi 4, a {LONG_STRIP}-LED strip, default spidev.bufsiz",
                                None, "start refused"),
                               (f"Pi 4, a {LONG_STRIP}-LED strip, spidev.bufsiz said raised "
                                "but the driver's is 4096", 32768, "show refused")):
        said, outcome = "", "shown"
        try:
            strip = Ws281xStrip(LONG_STRIP, gpio_pin=10, spi_bufsiz=bufsiz)
        except HardwareUnavailable as exc:
            said, outcome = str(exc), "start refused"
        else:
            try:
                strip.show([(1, 2, 3)] * LONG_STRIP)
            except Exception as exc:  # whatever reaches the caller is what we report
                said, outcome = f"{type(exc).__name__}: {exc}", "show refused"
            finally:
                strip.close()
        print(json.dumps({"case": name, "outcome": outcome, "said": said}), flush=True)
        if outcome != want or "spidev.bufsiz=" not in said or "HardwareUnavailable" not in \
                (said if outcome == "show refused" else "HardwareUnavailable"):
            problems.append(f"{name}: got {outcome} ({said[:160]}), want {want} naming "
                            "spidev.bufsiz=")
    report(not problems, problems=problems)


if __name__ == "__main__":
    {"leds": leds, "buttons": buttons, "detect": detect}[sys.argv[1]]()
