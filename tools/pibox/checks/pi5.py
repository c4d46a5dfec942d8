"""Check 1 once more, as a Pi 5: the LEDs through the Pico, no rpi-ws281x, no config.txt block."""

from __future__ import annotations

from tools.pibox.box import seconds
from tools.pibox.constants import CONFIG, VENV_PYTHON
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run


def check_1_pi5(run: Run) -> str:
    """1 (once as a Pi 5). On a Pi 5 install.sh drives the LEDs through the Pico, builds no
    rpi-ws281x and writes nothing into config.txt; the service is active."""
    box = run.box
    box.run("printf 'Raspberry Pi 5 Model B Rev 1.0\\0' > /sys/firmware/devicetree/base/model")
    box.run("rm -rf /etc/systemd/system/riskboard.service.d")
    with run.timed("install (Pi 5, after a purge)"):
        out = box.maker("cd riskboard && sudo deploy/install.sh 2>&1", 2400, check=False)
    if out.returncode != 0:
        raise CheckFailed(f"install.sh failed on a Pi 5: {(out.stdout + out.stderr)[-1500:]}")
    if 'backend = "bridge"' not in box.run(["cat", CONFIG]).stdout:
        raise CheckFailed("the fresh config of a Pi 5 does not drive the LEDs through the Pico")
    if box.run([VENV_PYTHON, "-c", "import rpi_ws281x"], check=False).returncode == 0:
        raise CheckFailed("rpi-ws281x was built on a Pi 5, where it cannot be used")
    if "# >>> riskboard" in box.text("/boot/firmware/config.txt"):
        raise CheckFailed("install.sh wrote an SPI block into a Pi 5's config.txt")
    box.wait_active(180)
    box.steady(seconds(box.unit("WatchdogUSec")) + 15)
    return (f"install took {run.timings['install (Pi 5, after a purge)']:.0f} s; bridge "
            "backend, no rpi-ws281x, config.txt untouched, service active")
