"""Check 13: the Pico's firmware updated the way firmware_bridge/firmware/README.md says, on
the installed table mid-game: mpremote from a venv of its own in the maker's home, README's
copy chained in one call, its first try in one line with the `sudo systemctl stop
riskboard` that frees the port (it stops as README warns: the firmware reboots into the
REPL), the second works; the service started again; the Pico, now running the copied
modules, links and the game goes on where it was."""

from __future__ import annotations

import re
import shlex
import time

from tools.pibox.errors import CheckFailed
from tools.pibox.game import leds_show_owners, position
from tools.pibox.run import Run
from tools.pibox.usb import BoxPico, wait_usb
from tools.pibox.web import link_status, wait_link, wait_port
from tools.picobox import flash

MPREMOTE = "~/mpremote-venv/bin/mpremote"


def readme_command() -> str:
    """README's copy and reset, chained in one mpremote call as it advises, run from the
    maker's clone (~/riskboard) on the port the udev rule names."""
    files = " ".join(shlex.quote(path) for path in flash.readme_files())  # repository paths
    return (f"cd ~/riskboard && {MPREMOTE} connect /dev/riskboard-pico fs cp {files} : "
            f"+ reset")


def copy_worked(returncode: int, output: str) -> bool:
    """Whether one mpremote run of `readme_command` copied README's files and reset the Pico.

    Exit 0 says so. mpremote also exits 1 when the chained `reset` takes the USB port away
    before mpremote has closed it (its close then fails on the vanished port with EIO; seen
    under qemu, where mpremote is slow): that run worked too if it had reached every file's
    `cp` (it prints one as it copies each, only once it has the REPL) and ended in that close."""
    if returncode == 0:
        return True
    copied = all(f"cp {path} :" in output for path in flash.readme_files())
    closing = re.search(r"in close\n.*\nOSError: \[Errno 5\] Input/output error\s*$",
                        output, re.S)
    return copied and closing is not None


def pico_account(emulator: BoxPico, events_from: int, sent_from: int, got_from: int) -> str:
    """What the Pico did and heard since those marks (event index, bytes written to it, bytes
    it wrote): its boots, USB ups and downs, and the bytes each way (to read a failure)."""
    kinds = ("boot", "usb", "usb_down", "watchdog")
    happened = [f"{e['ev']}{'(' + str(e.get('reason')) + ')' if e.get('reason') else ''}"
                f"@{e['t_ns'] / 1e9:.2f}" for e in emulator.events()[events_from:]
                if e["ev"] in kinds]
    sent = bytes(emulator.to_pico_tail[-max(emulator.to_pico - sent_from, 0):]) \
        if emulator.to_pico > sent_from else b""
    got = bytes(emulator.from_pico[got_from:])
    return (f"events {' '.join(happened) or 'none'}; host wrote {len(sent)} bytes "
            f"{sent[:160]!r}...{sent[-80:]!r}; Pico wrote {len(got)} bytes, last "
            f"{got[-240:]!r}")


def check_13_firmware_update(run: Run) -> str:
    """13. README's firmware update on the running table (see the module docstring)."""
    assert run.pico is not None and run.game is not None and run.strip is not None
    box, game, emulator = run.box, run.game, run.pico.emulator
    with run.timed("mpremote venv (README)"):
        box.maker("test -x ~/mpremote-venv/bin/mpremote || (python3 -m venv ~/mpremote-venv "
                  "&& ~/mpremote-venv/bin/pip install --quiet mpremote)", timeout=1800)
    before = position(box, game.view())
    epoch = link_status().get("epoch")
    tries: list[int] = []
    said: list[str] = []  # each try's output, for the sentence of a failure
    try:
        boots = len(emulator.events("boot"))
        start = time.monotonic()
        for attempt in range(2):
            marks = (len(emulator.events()), emulator.to_pico, len(emulator.from_pico))
            # The first try is chained to README's `sudo systemctl stop riskboard` (which
            # frees the port): mpremote's request comes just after the service's last frame.
            line = ("sudo systemctl stop riskboard && " if attempt == 0 else "") + \
                readme_command()
            proc = box.maker(line, timeout=1800, check=False)
            tries.append(proc.returncode)
            out = (proc.stdout + proc.stderr).strip()
            account = pico_account(emulator, *marks)
            (run.pico.workdir / f"check13-try{len(tries)}.txt").write_text(
                f"exit {proc.returncode}\n{account}\n--- mpremote said ---\n{out}\n")
            said.append(f"try {len(tries)}: {out[:400]} [...] {out[-200:]} [the Pico: "
                        f"{account}]")
            worked = copy_worked(proc.returncode, proc.stdout + proc.stderr)
            if worked or attempt == 1:
                break
            # README: the first try stops once, as the firmware reboots into the REPL
            if not emulator.wait_until(lambda: len(emulator.events("boot")) > boots, emu_s=10):
                raise CheckFailed("mpremote's first try did not make the firmware reboot "
                                  "into the REPL: " + " | ".join(said))
            if not wait_usb(emulator, True, emu_s=30):
                raise CheckFailed("after mpremote's first try the Pico's port did not come "
                                  "back")
            emulator.run_for(1.5)  # past the boot blinks, as a maker looks before retrying
        took = time.monotonic() - start
        if not worked:
            raise CheckFailed(f"README's mpremote copy failed twice (exits {tries}): "
                              + " | ".join(said))
    finally:
        box.run(["systemctl", "start", "riskboard"], timeout=300)
    wait_port(300)
    link = wait_link(other_than_epoch=epoch)
    if not link.get("connected") or link.get("board_id") != "classic-42":
        raise CheckFailed(f"after the update the Pico did not link as classic-42: {link}")
    if position(box, game.view()) != before:
        raise CheckFailed("the game moved over the firmware update")
    leds_show_owners(run.strip, game.view(), dict(run.profile.territory_leds))
    boots_after = len(emulator.events("boot")) - boots
    return (f"service stopped, mpremote (a venv in the maker's home) copied README's "
            f"{len(flash.readme_files())} files and reset: exits {tries} "
            f"({'the first stopped as README warns, ' if len(tries) == 2 else ''}"
            f"{'the last raised in its close once the reset took the port, ' if tries[-1] else ''}"
            f"{took:.0f} s); the Pico booted {boots_after} times; the service started "
            f"again and linked to firmware {link.get('firmware_version')} (epoch "
            f"{epoch} -> {link.get('epoch')}); the game is where it was")
