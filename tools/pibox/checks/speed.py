"""Check 9: speed on ARM (a report, not a gate)."""

from __future__ import annotations

import time

from tools.pibox.checks.ready import restart_and_probe
from tools.pibox.constants import VENV_PYTHON
from tools.pibox.run import Run


def check_9_speed(run: Run, benches: list[str]) -> str:
    """9. Speed on ARM (a report, not a gate): `systemctl start riskboard` to READY and to
    the first LED frame, and the benches inside the box."""
    assert run.strip is not None
    box = run.box
    box.run(["systemctl", "stop", "riskboard"], timeout=120)
    frames = run.strip.frames()
    start_epoch = time.time()
    took, _ = restart_and_probe(box, "start")
    got = run.strip.wait_frame(frames, 120)
    first_frame = got[1] - start_epoch if got else float("nan")
    run.figures.append(f"systemctl start riskboard -> READY: {took:.1f} s; -> first LED "
                       f"frame on the strip (rpi-ws281x's SPI, decoded): {first_frame:.1f} s")
    for bench in benches:
        proc = box.maker(f"cd riskboard && {VENV_PYTHON} -m {bench} 2>&1", 1800, check=False)
        lines = [line for line in proc.stdout.splitlines() if line.strip()]
        run.figures.append(f"box: python -m {bench} (exit {proc.returncode}):")
        run.figures.extend(f"    {line}" for line in lines[-12:])
    return f"start -> READY {took:.1f} s, -> first LED frame {first_frame:.1f} s (figures below)"
