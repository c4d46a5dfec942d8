"""Check 1: README's "Installing on the Pi" as the maker types it, on a fresh image of a Pi 4."""

from __future__ import annotations

import re
import time

from tools.pibox.box import Box, seconds
from tools.pibox.constants import CONFIG, SECURITY_BASELINE, VENV_PYTHON
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run


def install_as_a_maker(run: Run, model: str) -> str:
    """README "Installing on the Pi", steps 2 and 3, on a fresh image; retried on a
    network failure (install.sh is an update when run again)."""
    box = run.box
    box.maker("sudo apt install -y git && git clone /srv/riskboard.git riskboard", 600)
    out = ""
    for attempt in (1, 2, 3):
        proc = box.maker("cd riskboard && sudo deploy/install.sh 2>&1", 2400, check=False)
        out = proc.stdout + proc.stderr
        if proc.returncode == 0:
            return out
        network = re.search(r"Temporary failure|Could not resolve|timed out|Connection "
                            r"(reset|refused|aborted)|HTTPSConnectionPool|Failed to fetch|"
                            r"Read timed out", out)
        if not network or attempt == 3:
            raise CheckFailed(f"sudo deploy/install.sh failed on a fresh {model} (exit "
                              f"{proc.returncode}): {out.strip()[-2000:]}")
        print(f"pibox: install.sh hit a network error (attempt {attempt}); running it again",
              flush=True)
        time.sleep(20 * attempt)
    return out


def security_score(box: Box) -> float:
    """`systemd-analyze security riskboard.service`'s overall exposure (lower is safer)."""
    out = box.run(["systemd-analyze", "security", "--no-pager", "riskboard.service"],
                  check=False)
    found = re.search(r"Overall exposure level for riskboard\.service:\s*([\d.]+)",
                      out.stdout + out.stderr)
    if not found:
        raise CheckFailed(f"systemd-analyze security gave no score: {out.stdout[-500:]}"
                          f"{out.stderr[-500:]}")
    return float(found.group(1))


def check_1_install(run: Run) -> str:
    """1. install.sh on a fresh image succeeds; the unit is active and scores as before or
    better. The Pi is a Pi 4 that has not rebooted since: no SPI yet, and no GPIO chip the
    buttons can open, so the LEDs and buttons fail to start and the service must run on."""
    box = run.box
    run.before_install = box.files()
    with run.timed("install (Pi 4, fresh image)"):
        out = install_as_a_maker(run, "Pi 4")
    if "REBOOT NEEDED" not in out:
        raise CheckFailed("install.sh did not say that the Pi needs a reboot for SPI and "
                          "the core clock")
    config_txt = box.text("/boot/firmware/config.txt")
    for line in ("dtparam=spi=on", "core_freq=500", "core_freq_min=500"):
        if line not in config_txt.split("# >>> riskboard", 1)[-1]:
            raise CheckFailed(f"install.sh did not write {line} into /boot/firmware/config.txt")
    if 'backend = "ws281x"' not in box.run(["cat", CONFIG]).stdout:
        raise CheckFailed("the fresh config of a Pi 4 does not drive the LEDs with ws281x")
    # lgpio opens its notification pipe (.lgd-nfyN) in LG_WD, else the working folder, at
    # import: here /tmp (the service has LG_WD=/run/riskboard), not the box's / .
    box.run(["env", "LG_WD=/tmp", VENV_PYTHON, "-c", "import rpi_ws281x, lgpio"])
    # A service that dies at start, or hangs and is killed by the watchdog, shows it within
    # one watchdog period: watched that long (and 15 s more), not slept through.
    watch = seconds(box.unit("WatchdogUSec")) + 15
    box.steady(watch)
    lgd = box.run("ls -A /var/lib/riskboard | grep '^\\.lgd' || true").stdout.strip()
    if lgd:
        raise CheckFailed(f"lgpio left {lgd} in the data folder (LG_WD not honoured)")
    # `sudo riskboard doctor` right after the install (LEDs on GPIO 10, SPI not on yet):
    # as root it reads config.txt itself, and must name the real fix, a reboot.
    proc = box.maker("sudo riskboard doctor", 600, check=False)
    doctor = proc.stdout + proc.stderr
    firmware = next((ln.strip() for ln in doctor.splitlines() if "config.txt" in ln), "")
    if proc.returncode != 1 or "Traceback" in doctor or "reboot" not in firmware:
        raise CheckFailed(f"`sudo riskboard doctor` before the reboot exited {proc.returncode}"
                          f" without naming the reboot SPI needs: {doctor.strip()[-800:]}")
    score = security_score(box)
    if score > SECURITY_BASELINE:
        raise CheckFailed(f"systemd-analyze security scores the unit {score}, worse than "
                          f"the {SECURITY_BASELINE} of before")
    return (f"install took {run.timings['install (Pi 4, fresh image)']:.0f} s; active with "
            f"LEDs and buttons missing, 0 restarts over {watch:.0f} s; security exposure "
            f"{score} (before {SECURITY_BASELINE}); config.txt has the Pi 4 SPI block and a "
            f"reboot was asked for; sudo riskboard doctor: \"{firmware[:160]}\"")
