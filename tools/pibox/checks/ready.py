"""Check 2: READY reaches systemd only once the web port accepts connections (and the
table is wired: the Pico, the shim's LED strip and buttons)."""

from __future__ import annotations

import time

from tools.pibox.box import Box
from tools.pibox.constants import PORT, REPO, SHIM_SO, VENV_PYTHON
from tools.pibox.devices import Pico, Strip
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run
from tools.pibox.web import port_accepts


def wire_the_table(run: Run) -> None:
    """Plug in the Pico (the real firmware on the emulated RP2040, at /dev/riskboard-pico:
    the sensors; `tools.pibox.devices.Pico`), and give the
    service the Pi's LED strip and buttons: the device shim, built with the box's own gcc
    (install.sh installed it to build rpi-ws281x), preloaded by a drop-in. The config stays
    as install.sh wrote it for a Pi 4 (LEDs on ws281x, GPIO 10; buttons on gpio). The
    device nodes appear as after the reboot install.sh asked for (pi-hardware.sh, run at
    every boot of the box: /dev/spidev0.0 once config.txt turns SPI on); check 10 reboots."""
    box = run.box
    run.pico = Pico(box)
    source = box.root / SHIM_SO.lstrip("/")
    source.with_suffix(".c").write_bytes((REPO / "tools/pibox/shim/pibox_shim.c").read_bytes())
    with run.timed("shim build in the box (gcc under qemu)"):
        box.run(["gcc", "-O2", "-Wall", "-Wextra", "-shared", "-fPIC", "-o", SHIM_SO,
                 SHIM_SO[:-3] + ".c", "-ldl", "-lpthread"], timeout=600)
    box.run(["sh", "/usr/local/lib/pibox/pi-hardware.sh"])
    box.run("mkdir -p /etc/systemd/system/riskboard.service.d && cp "
            "/usr/local/lib/pibox/pibox-gpio.conf /etc/systemd/system/riskboard.service.d/ "
            "&& systemctl daemon-reload")
    run.strip = Strip(box)
    print("pibox: note: from check 2 on the LEDs and buttons are the real rpi-ws281x (SPI) and "
          "lgpio against the device shim: /dev/spidev0.0, /dev/gpiomem and /dev/gpiochip0 are "
          "placeholder nodes with a Pi's owners and modes (root:spi, root:gpio, 0660), so the "
          "kernel checks the riskboard user's groups when the service opens them, and the shim "
          "answers behind them. The unit has no device sandbox to show (PrivateDevices=no, no "
          "DeviceAllow=: group permissions are the gate, as here). What only a real Pi shows: "
          "the drivers themselves (spidev's buffer size and timing, the GPIO chip, gpiomem's "
          "registers) and that SystemCallFilter=@system-service lets rpi-ws281x's ioctl/mmap and "
          "lgpio's line requests through (seccomp filters qemu's calls here, not the Pi's)",
          flush=True)


def restart_and_probe(box: Box, verb: str = "restart") -> tuple[float, bool]:
    """`systemctl VERB riskboard` (returns at READY); whether the port accepted a
    connection the moment it returned, and how long it took."""
    start = time.monotonic()
    box.run(["systemctl", verb, "riskboard"], timeout=300)
    took = time.monotonic() - start
    return took, port_accepts(0.5)


def check_2_ready(run: Run) -> str:
    """2. READY reaches systemd only after the web port accepts connections; a port already
    taken is a sentence and an exit code, not a traceback."""
    box = run.box
    wire_the_table(run)
    late = []
    times = []
    for _ in range(2):
        took, accepting = restart_and_probe(box)
        times.append(took)
        if not accepting:
            late.append(f"{took:.1f} s")
    if late:
        raise CheckFailed(f"systemctl restart returned (READY) before the web port accepted "
                          f"connections ({', '.join(late)} after the restart)")
    proc = box.run(f"runuser -u riskboard -- {VENV_PYTHON[:-6]}riskboard serve --sim "
                   f"--port {PORT} --data /tmp/pibox-second-serve", timeout=300, check=False)
    said = (proc.stdout + proc.stderr).strip()
    if proc.returncode == 0 or "Traceback" in said or str(PORT) not in said:
        raise CheckFailed(f"a second serve on the taken port {PORT} exited "
                          f"{proc.returncode} with: {said[-800:]}")
    restarts = ", ".join(f"{t:.1f}" for t in times)
    return (f"the port accepted connections as each restart returned ({restarts} s); "
            f"taken port: exit {proc.returncode}, \"{said.splitlines()[-1][:160]}\"")
