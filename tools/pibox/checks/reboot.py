"""Check 10: the Pi reboots once, and the service and the game come back by themselves."""

from __future__ import annotations

import time

from tools.pibox.checks.pico_strip import led_strip_answered
from tools.pibox.devices import Pico
from tools.pibox.errors import CheckFailed
from tools.pibox.game import position, resumed
from tools.pibox.run import Run
from tools.pibox.web import wait_port


def check_10_reboot(run: Run) -> str:
    """10. The Pi reboots once (the install asked for it): riskboard.service comes up by
    itself, the Pico links again when it appears, and the game resumes where it was."""
    assert run.game is not None and run.pico is not None
    box = run.box
    if box.unit("UnitFileState") != "enabled":
        raise CheckFailed(f"riskboard.service is {box.unit('UnitFileState')}, not enabled: "
                          "it would not start at boot")
    before = position(box, run.game.view())
    run.pico.close()
    run.pico = None
    start = time.monotonic()
    took = box.reboot()
    pid = box.wait_active(300)  # nobody starts it: systemd does, from its enablement
    wait_port(300)
    serving = time.monotonic() - start
    run.pico = Pico(box)  # plugged in again (a USB device is seen anew at every boot)
    resumed(run, before, None, "a reboot")
    box.steady(15)
    strip = led_strip_answered(run)  # the nodes as this boot made them, SPI's included
    return (f"the box rebooted in {took:.0f} s and served again {serving:.0f} s after "
            f"`systemctl reboot`; riskboard.service started by itself (pid {pid}); the Pico "
            f"linked again, the game resumed at its last command, LEDs relit; {strip}")
