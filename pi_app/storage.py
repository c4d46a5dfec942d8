"""The data folder, created so that a power cut cannot take it back.

A new directory's name lives in its parent directory, and under POSIX only an fsync of
that parent makes the name durable: without it a cut soon after `riskboard serve --data
<new folder>` can lose the folder, and with it the journal and every game acknowledged in
it (issue 12 item 10). `make_data_dir` creates each missing level with `mkdir` and fsyncs
its parent right after, top-down, so every level it created survives a cut once it
returns. Every path that creates the data folder uses it (serve, the table rig, doctor).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

DATA_DIR_MODE = 0o700

log = logging.getLogger("riskboard.storage")


def fsync_directory(path: Path) -> bool:
    """Make the entries of directory `path` durable (fsync of the directory itself).
    False, with a warning logged, when this user may not open it (a parent with write but
    no read permission): the folder is still made, only less durable."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except PermissionError as exc:
        log.warning("event=storage.fsync_skipped dir=%s error=%r", path, exc)
        return False
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def make_data_dir(path: Path, mode: int = DATA_DIR_MODE) -> list[Path]:
    """Create `path` (mode `mode`, parents as `mkdir -p` would) durably; return the
    directories it created, outermost first (empty when `path` already existed)."""
    path = Path(os.path.abspath(path))
    missing: list[Path] = []
    level = path
    while not level.exists():
        missing.append(level)
        if level.parent == level:
            break
        level = level.parent
    created: list[Path] = []
    for level in reversed(missing):
        try:
            os.mkdir(level, mode if level == path else 0o777)
        except FileExistsError:  # made meanwhile by someone else: theirs to sync
            if not level.is_dir():
                raise
            continue
        created.append(level)
        fsync_directory(level.parent)
    if not path.is_dir():
        raise NotADirectoryError(f"{path} exists and is not a folder")
    return created
