"""The service's threads carry their names into the kernel (/proc/<pid>/task/*/comm), so
`top -H` and the idle bench tell them apart: the bench leaves the emulated Pico's thread
out of the service's CPU time by its name."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from firmware_bridge.thread_names import name_os_thread

from .conftest import Rig, wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="thread names in /proc are Linux's")


def kernel_thread_names() -> list[str]:
    """The comm of every thread of this process."""
    names = []
    for task in Path("/proc/self/task").iterdir():
        try:
            names.append((task / "comm").read_text().strip())
        except OSError:
            pass  # the thread ended meanwhile
    return names


def test_a_thread_names_itself_in_the_kernel() -> None:
    seen: list[str] = []

    def run() -> None:
        name_os_thread()
        seen.append(Path(f"/proc/self/task/{threading.get_native_id()}/comm")
                    .read_text().strip())

    thread = threading.Thread(target=run, name="a-long-thread-name-cut")
    thread.start()
    thread.join()
    assert seen == ["a-long-thread-n"]  # the kernel keeps 15 bytes


def test_the_emulator_and_the_link_threads_are_named(rig: Rig) -> None:
    emu = rig.emulator()
    rig.link(emu.path, [])
    assert wait_for(lambda: {"pico-emulator", "bridge-link"} <= set(kernel_thread_names()))
