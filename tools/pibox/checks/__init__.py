"""The checks of the Pi box, one module each, and the order they run in (`run_all`).

Every check takes the `Run` and returns the sentence that says what held, or raises
`CheckFailed` with the sentence that says what did not. A check whose result the next ones
need decides whether they run: no install, no service to check; no Pico, no game.
"""

from __future__ import annotations

import contextlib

from tools.pibox.checks import (
    bringup,
    doctor,
    finish,
    firmware_update,
    game_setup,
    install,
    phones,
    pi5,
    pico_reset,
    pico_strip,
    ready,
    reboot,
    restarts,
    speed,
    uninstall,
    update,
)
from tools.pibox.constants import VENV_PYTHON
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run
from tools.pibox.web import wait_port


def run_all(run: Run, benches: list[str]) -> None:
    """Run every check in order into `run.results`; the Pico is closed whatever happened."""
    box = run.box
    try:
        installed = run.check("1 install (Pi 4)", lambda: install.check_1_install(run))
        if installed or box.run(["test", "-x", VENV_PYTHON], check=False).returncode == 0:
            run.check("2 ready after bind", lambda: ready.check_2_ready(run))
            if run.pico is not None and run.check("3 pico and LED strip",
                                                   lambda: pico_strip.check_3_pico(run)):
                run.check("11 bring-up of the miswired board over HTTP",
                          lambda: bringup.check_11_bringup(run))
                run.check("7 doctor", lambda: doctor.check_7_doctor(run))
                if run.check("4 game: setup by touches",
                             lambda: game_setup.check_4_game_setup(run)):
                    run.check("12 pico reset mid-game",
                              lambda: pico_reset.check_12_pico_reset(run))
                    run.check("13 firmware update by README",
                              lambda: firmware_update.check_13_firmware_update(run))
                    run.check("5 restarts", lambda: restarts.check_5_restarts(run))
                    # Whatever check 5 found, the next checks need the service back up.
                    with contextlib.suppress(CheckFailed):
                        box.wait_active(180)
                        wait_port()
                    run.check("6 thirty phones", lambda: phones.check_6_phones(run))
                    run.check("8 update", lambda: update.check_8_update(run))
                    if run.pico is not None:
                        run.check("10 reboot", lambda: reboot.check_10_reboot(run))
                    run.check("4 game: to the end", lambda: finish.check_4_finish(run))
            else:
                run.check("7 doctor", lambda: doctor.check_7_doctor(run))
            if run.strip is not None:
                run.check("9 speed", lambda: speed.check_9_speed(run, benches))
        run.check("8 uninstall", lambda: uninstall.check_8_uninstall(run))
        run.check("1 install (Pi 5)", lambda: pi5.check_1_pi5(run))
    finally:
        if run.pico is not None:
            run.pico.close()
