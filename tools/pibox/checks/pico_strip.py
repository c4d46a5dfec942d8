"""Check 3: the Pico is linked, and the service's LED frames reach the strip over SPI."""

from __future__ import annotations

import json
import time

from tools.pibox.box import Box
from tools.pibox.constants import SHIM_DIR
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run
from tools.pibox.web import get_json, wait_link, wait_port


def check_3_pico(run: Run) -> str:
    """3. The Pico (the real firmware on the emulated RP2040, its USB port the box's
    /dev/riskboard-pico as the udev rule names it, classic-42 profile) is linked, and the
    service's LED frames, sent by rpi-ws281x over SPI, decode to the profile's strip."""
    assert run.pico is not None and run.strip is not None
    wait_port()
    link = wait_link()
    if not link.get("connected"):
        raise CheckFailed(f"the service is not linked to the Pico: {json.dumps(link)[:400]}")
    if link.get("board_id") != "classic-42" or link.get("sensor_count") != 42:
        raise CheckFailed(f"the Pico reports {link.get('board_id')}/{link.get('sensor_count')},"
                          " not the classic-42 profile")
    strip = led_strip_answered(run)
    return (f"linked at {link.get('port')} ({run.pico.hello}), firmware "
            f"{link.get('firmware_version')}, the Pico's pace {link.get('pico_slowness')} Pi "
            f"seconds a Pico second; {strip}")


def led_strip_answered(run: Run) -> str:
    """The service's LEDs are rpi-ws281x's on SPI: its frames decode to the profile's LED
    count with clean WS2812 symbols, the line is GPIO 10 in its SPI function, and the device
    nodes were opened as the service's own user (the kernel checked their groups)."""
    assert run.strip is not None
    box, pid = run.box, run.box.main_pid()
    leds = next((c for c in get_json("/api/status").get("checks") or []
                 if c.get("name") == "leds"), {})
    if not str(leds.get("detail", "")).startswith("ws281x:") or not leds.get("ok"):
        raise CheckFailed(f"the service's LEDs are not rpi-ws281x's: {json.dumps(leds)[:400]}")
    deadline = time.monotonic() + 60
    frame = run.strip.read()
    while (frame is None or int(frame["pid"]) != pid) and time.monotonic() < deadline:
        time.sleep(0.5)
        frame = run.strip.read()
    if frame is None or int(frame["pid"]) != pid:
        raise CheckFailed(f"no LED frame from the service (pid {pid}) reached the shim's "
                          f"SPI within 60 s; shim log: {shim_log(box, 6)}")
    wanted = {"leds": str(run.profile.led_count), "bad_symbols": "0",
              "speed_hz": "2400000", "gpio10_function": "alt0"}
    wrong = {k: frame.get(k) for k, v in wanted.items() if frame.get(k) != v}
    if wrong or float(frame.get("reset_us", 0)) < 50:
        raise CheckFailed(f"the decoded strip is not the profile's WS2812 frame: {wrong}, "
                          f"reset {frame.get('reset_us')} us (wanted {wanted}, reset >= 50 us)")
    log = shim_log(box, 400).split(" | ")
    refused = [ln for ln in log if "refused like the kernel" in ln]
    if refused:
        raise CheckFailed(f"the kernel refused the service a device node: {refused[-1]}")
    opened = {dev for dev in ("/dev/spidev0.0", "/dev/gpiomem", "/dev/gpiochip0")
              if any(f"pid={pid} open {dev} " in ln for ln in log)}
    if len(opened) != 3:
        raise CheckFailed(f"the service (pid {pid}) opened only {sorted(opened)} of the Pi's "
                          f"devices; shim log: {' | '.join(log[-6:])}")
    return (f"rpi-ws281x's SPI frame {frame['frame']} decodes to {frame['leds']} LEDs, "
            f"0 bad symbols, {int(frame['speed_hz']) / 1e6:g} MHz, GPIO 10 in ALT0, reset "
            f"{frame['reset_us']} us; the service opened /dev/spidev0.0, /dev/gpiomem and "
            f"/dev/gpiochip0 as riskboard through its groups")


def shim_log(box: Box, lines: int) -> str:
    """The shim's last log lines (what it answered), one string."""
    out = box.run(["tail", "-n", str(lines), f"{SHIM_DIR}/log"], check=False).stdout
    return " | ".join(out.strip().splitlines()) or "(empty)"
