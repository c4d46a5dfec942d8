"""classic-42 on the emulated Pico: buttons on the 74HC165 chain, the LED chain decoded from
GP22, the status LED, garbage from the Pi, resets, the watchdog, safe mode and the boot race,
all through the project's own Link over a pseudo-terminal. One Pico for the whole module:
each test leaves it connected (the boot race runs last: it reboots it twenty times)."""

from __future__ import annotations

import os
import random

from firmware_bridge import protocol as P
from tools.picobox.pi_side import Pi

REPL_SIGNS = (b"Traceback", b"KeyboardInterrupt", b">>> ", b"raw REPL")


def no_repl(pi: Pi, since: int) -> None:
    """Nothing the Pico wrote since byte ``since`` comes from MicroPython's REPL."""
    out = bytes(pi.box.from_pico[since:])
    for sign in REPL_SIGNS:
        assert sign not in out, f"the Pico printed {sign!r}: it left the firmware"


def unique(pi: Pi) -> None:
    keys = [(e.epoch, e.seq) for e in pi.events]
    assert len(keys) == len(set(keys)), "an event was delivered twice"


def test_every_classic_42_channel_pressed_and_released_in_order_each_reported_once(
        classic: Pi) -> None:
    out0 = len(classic.box.from_pico)
    start = len(classic.events)
    first = len(classic.box.events())
    for channel in range(42):
        classic.box.press(channel)
        classic.box.run_for(0.05)  # held past the 20 ms debounce
        classic.box.release(channel)
        classic.box.run_for(0.05)
    assert classic.wait(41, "release", start, emu_s=10)
    classic.box.run_for(0.3)  # anything extra (a double) would arrive by now
    got = [(e.channel, e.kind) for e in classic.events[start:]]
    assert got == [(ch, kind) for ch in range(42) for kind in ("press", "release")]
    unique(classic)
    no_repl(classic, out0)
    # meanwhile (4 Pico s) the status LED went on blinking: the loop never stalled
    toggles = [e for e in classic.box.events()[first:] if e["ev"] == "status_led"]
    assert len(toggles) >= 4 and {e["on"] for e in toggles} == {True, False}


def test_a_stream_of_135_led_frames_at_the_painters_rate_shows_whole_frames_in_order(
        classic: Pi) -> None:
    box = classic.box
    frames = [[((7 * i + k) & 0xFF, (13 * i + 2 * k) & 0xFF, (i + 3 * k + 1) & 0xFF)
               for k in range(135)] for i in range(15)]
    before = len(box.events())
    stats_before = classic.status()["stats"]
    for frame in frames:
        classic.link.send_led_frame(frame)
        box.run_for(1 / 30)  # the painter's 30 frames per second, in Pico time
    want = [[list(p) for p in frame] for frame in frames]
    assert box.wait_event(lambda e: e["ev"] == "leds" and e["pixels"] == want[-1],
                          emu_s=5, after=before) is not None
    decoded = [e["pixels"] for e in box.events()[before:] if e["ev"] == "leds"]
    stats = classic.status()["stats"]
    sent = stats["led_frames_sent"] - stats_before["led_frames_sent"]
    dropped = stats["led_frames_dropped"] - stats_before["led_frames_dropped"]
    # One frame in flight (firmware_bridge/PROTOCOL.md 3.7): a frame drawn while the Pico
    # still shows the last is replaced by the next; every frame sent is shown, whole, in
    # order, GRB undone.
    assert sent + dropped == len(frames)
    assert all(d in want for d in decoded)
    assert [want.index(d) for d in decoded] == sorted({want.index(d) for d in decoded})
    assert len(decoded) == sent
    assert not [e for e in box.events()[before:] if e["ev"] == "led_timing"]


def test_garbage_and_floods_from_the_pi_side_leave_the_firmware_running(classic: Pi) -> None:
    out0 = len(classic.box.from_pico)
    box = classic.box
    rng = random.Random(20)
    garbage = bytes(rng.randrange(256) for _ in range(4000)) + b"\x03" * 64
    # valid frames of a type the firmware does not know, and PINGs without end
    flood = b"".join(P.encode_frame(0x7E, i & 0xFF, bytes(40)) for i in range(200))
    flood += b"".join(P.encode_frame(P.MSG_PING, i & 0xFF, P.pack_token(i)) for i in range(300))
    fd = os.open(box.port, os.O_RDWR | os.O_NOCTTY)  # a second writer on the Pi side
    try:
        os.write(fd, garbage)
        os.write(fd, flood)
        os.write(fd, garbage[::-1])
    finally:
        os.close(fd)
    box.run_for(1.0)
    start = len(classic.events)
    assert classic.wait_connected(emu_s=10)
    assert classic.tap(9, start), classic.events[start:]
    box.run_for(0.3)
    assert [(e.channel, e.kind) for e in classic.events[start:]] == [(9, "press"),
                                                                     (9, "release")]
    no_repl(classic, out0)
    unique(classic)


def test_a_reset_mid_game_drops_the_usb_port_and_the_link_reconnects(classic: Pi) -> None:
    out0 = len(classic.box.from_pico)
    box = classic.box
    start = len(classic.events)
    box.press(3)
    assert classic.wait(3, "press", start)
    epoch = classic.link.position[0]
    reconnects = classic.status()["stats"]["reconnects"]
    changes = len(box.port_changes)
    box.reset()
    assert classic.wait_connected(emu_s=15, epoch_not=epoch), classic.status()
    # the port vanished with the USB device and came back: the link had to reopen it
    assert [c[0] for c in box.port_changes[changes:]][:2] == ["down", "up"]
    assert classic.status()["stats"]["reconnects"] > reconnects
    # the button still held: the new boot reports it (after its debounce), then the release
    assert box.wait_until(lambda: any(e.channel == 3 and e.kind == "press" and e.epoch != epoch
                                      for e in classic.events[start:]), 5), classic.events
    box.release(3)
    assert classic.wait(3, "release", start, emu_s=10), classic.events[start:]
    box.run_for(0.3)
    got = [(e.channel, e.kind, e.epoch == epoch) for e in classic.events[start:]]
    assert got == [(3, "press", True), (3, "press", False), (3, "release", False)]
    unique(classic)
    no_repl(classic, out0)


def test_the_watchdog_catches_a_hung_loop_and_the_pi_resyncs(classic: Pi) -> None:
    out0 = len(classic.box.from_pico)
    box = classic.box
    start = len(classic.events)
    assert classic.tap(5, start)
    epoch = classic.link.position[0]
    before = len(box.events())
    box.hang()
    bite = box.wait_event(lambda e: e["ev"] == "watchdog", emu_s=10, after=before)
    assert bite is not None, "the watchdog did not fire on a hung loop"
    assert box.wait_event(lambda e: e["ev"] == "boot" and e["reason"] == "watchdog",
                          emu_s=1, after=before) is not None
    assert classic.wait_connected(emu_s=15, epoch_not=epoch), classic.status()
    assert classic.link.position[0] != epoch  # a new boot epoch
    assert classic.tap(6, start), classic.events[start:]
    box.run_for(0.3)
    assert [(e.channel, e.kind) for e in classic.events[start:]] == [
        (5, "press"), (5, "release"), (6, "press"), (6, "release")]
    unique(classic)
    no_repl(classic, out0)


def test_the_safe_mode_jumper_keeps_the_firmware_out_of_the_way(classic: Pi) -> None:
    out0 = len(classic.box.from_pico)
    box = classic.box
    epoch = classic.link.position[0]
    box.jumper(True)
    before = len(box.events())
    box.reset()
    box.run_for(3.0)
    assert not classic.link.connected  # no firmware answering HELLO
    assert b">>> " in bytes(box.from_pico[out0:])  # the REPL, given back
    blinks = [e for e in box.events()[before:] if e["ev"] == "status_led"]
    assert len(blinks) == 6  # three boot blinks, then dark
    box.jumper(False)
    box.reset()
    assert classic.wait_connected(emu_s=15, epoch_not=epoch), classic.status()


def test_twenty_boots_with_the_link_already_calling_make_twenty_handshakes(
        classic: Pi) -> None:
    """Issue 20's boot bug: HELLO bytes (0x03 among them) arriving while main.py imports."""
    out0 = len(classic.box.from_pico)
    box = classic.box
    hellos_during_imports = 0
    for boot in range(20):
        epoch = classic.link.position[0]
        before = len(box.events())
        box.reset()
        assert classic.wait_connected(emu_s=15, epoch_not=epoch), (boot, classic.status())
        events = box.events()[before:]
        booted = next(e for e in events if e["ev"] == "boot")
        first_blink = next(e for e in events if e["ev"] == "status_led")
        first_rx = next((e for e in events if e["ev"] == "cdc_in"), None)
        if first_rx and booted["t_ns"] < first_rx["t_ns"] < first_blink["t_ns"]:
            hellos_during_imports += 1
    # The race was run: in some boots the Pi's bytes came before main.py's imports ended
    # (9 of 20 on a loaded machine; how many depends on the host's speed, as the link's
    # reconnect backoff is in real time).
    assert hellos_during_imports >= 1, hellos_during_imports
    no_repl(classic, out0)
