"""Check 5: the game survives `systemctl restart`, `kill -9` and the watchdog."""

from __future__ import annotations

import re
import time

from tools.pibox.box import seconds
from tools.pibox.checks.ready import restart_and_probe
from tools.pibox.errors import CheckFailed
from tools.pibox.game import position, resumed
from tools.pibox.run import Run
from tools.pibox.web import port_accepts


def check_5_restarts(run: Run) -> str:
    """5. `systemctl restart` and `kill -9` of the main process: the game resumes at its last
    acknowledged command and the LEDs are relit; a frozen process (kill -STOP) is restarted
    by the watchdog within WatchdogSec."""
    assert run.game is not None and run.strip is not None
    box = run.box
    run.game.play(25)
    notes = []
    before = position(box, run.game.view())
    frames = run.strip.frames()
    took, _ = restart_and_probe(box)
    resumed(run, before, frames, "systemctl restart riskboard")
    notes.append(f"restart {took:.1f} s")

    run.game.play(3)  # the last acknowledged command is the one just answered
    pid = box.main_pid()
    before = position(box, run.game.view())
    frames = run.strip.frames()
    start = time.monotonic()
    box.run(["kill", "-9", str(pid)])
    box.wait_active(180, other_than=pid)
    while not port_accepts():
        if time.monotonic() - start > 180:
            raise CheckFailed("after kill -9 the web port did not come back within 180 s")
        time.sleep(0.5)
    resumed(run, before, frames, "kill -9 of the main process")
    notes.append(f"kill -9: serving again after {time.monotonic() - start:.1f} s")

    watchdog = seconds(box.unit("WatchdogUSec"))
    run.game.play(3)
    pid = box.main_pid()
    before = position(box, run.game.view())
    frames = run.strip.frames()
    start, start_epoch = time.monotonic(), time.time()
    box.run(["kill", "-STOP", str(pid)])
    fired = gone = None
    # systemd sends the watchdog's SIGABRT at WatchdogSec (with a SIGCONT, so the frozen
    # process takes it), and a SIGKILL TimeoutAbortSec later if it is still there. The
    # process can be gone before journald (under qemu too) has the message that says
    # why: the journal is read until it names the watchdog or the time is up.
    while time.monotonic() - start < watchdog + 120 and (gone is None or fired is None):
        if fired is None:
            log = box.run(["journalctl", "-u", "riskboard", "--no-pager", "-o", "short-unix",
                           f"--since=@{start_epoch - 1:.0f}"], check=False).stdout
            stamp = re.search(r"^([\d.]+) .*[Ww]atchdog timeout", log, re.M)
            if stamp:
                fired = float(stamp.group(1)) - start_epoch
        if gone is None and box.run(["test", "-e", f"/proc/{pid}"],
                                    check=False).returncode != 0:
            gone = time.monotonic() - start
        time.sleep(0.5)
    if gone is None:
        box.run(["kill", "-CONT", str(pid)], check=False)
        raise CheckFailed(f"a process frozen with kill -STOP was still there after "
                          f"{watchdog + 120:.0f} s (watchdog fired: {fired}); "
                          f"WatchdogSec={watchdog:g}")
    if fired is None:
        raise CheckFailed("the frozen process went away, but the journal names no watchdog "
                          "timeout")
    # The watchdog counts from the last ping, which came before the freeze, so on a Pi it
    # fires within WatchdogSec of it. Here the box's own systemd and journald run under
    # qemu-user on a shared 2-core machine and can be tens of seconds late to act and to
    # stamp the message: half of WatchdogSec again is allowed for that.
    if fired > watchdog * 1.5:
        raise CheckFailed(f"the watchdog fired {fired:.0f} s after the process froze, more "
                          f"than WatchdogSec={watchdog:g} (+50 % for qemu)")
    box.wait_active(180, other_than=pid)
    resumed(run, before, frames, "the watchdog's restart")
    notes.append(f"kill -STOP: watchdog fired after {fired:.0f} s (WatchdogSec={watchdog:g}), "
                 f"process gone after {gone:.0f} s, serving again after "
                 f"{time.monotonic() - start:.0f} s")
    return "; ".join(notes) + "; each time the game resumed at its last command, LEDs relit"
