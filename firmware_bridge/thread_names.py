"""Give a Python thread its name in the kernel too, so `top -H`, `ps -L` and the benches
tell the service's threads apart.

Python 3.11 keeps `threading.Thread.name` to itself: every thread of the service shows as
"python" in /proc/<pid>/task/*/comm. `name_os_thread` writes the calling thread's name
there (the kernel keeps 15 bytes of it). The idle bench (bench/idle_cpu.py) leaves the
emulated Pico's thread, "pico-emulator", out of the service's CPU time by that name.
Off Linux it does nothing.
"""

from __future__ import annotations

import contextlib
import threading

__all__ = ["COMM_BYTES", "name_os_thread"]

COMM_BYTES = 15  # TASK_COMM_LEN - 1


def name_os_thread(name: str | None = None) -> None:
    """Name the calling thread in the kernel: `name`, else its Python name (cut to
    `COMM_BYTES` bytes). Quietly does nothing where /proc cannot take it."""
    text = (name or threading.current_thread().name).encode("utf-8", "replace")[:COMM_BYTES]
    with contextlib.suppress(OSError), \
            open(f"/proc/self/task/{threading.get_native_id()}/comm", "wb") as comm:
        comm.write(text)
