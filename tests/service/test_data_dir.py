"""The data folder is created durably: every directory level it creates has its parent
fsynced before the first command is acknowledged (issue 12 item 10)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pi_app import storage
from pi_app.cli import serve as serve_cli
from pi_app.config import Config
from pi_app.table import rig as rig_module


@pytest.fixture
def synced(monkeypatch) -> list[tuple[str, Path]]:
    """Record every mkdir and every fsync of a directory, in order."""
    calls: list[tuple[str, Path]] = []
    real_mkdir, real_open, real_fsync = os.mkdir, os.open, os.fsync
    fds: dict[int, Path] = {}

    def mkdir(path, mode=0o777):
        calls.append(("mkdir", Path(path)))
        return real_mkdir(path, mode)

    def open_(path, flags, *args):
        fd = real_open(path, flags, *args)
        fds[fd] = Path(path)
        return fd

    def fsync(fd):
        if fd in fds and stat.S_ISDIR(os.fstat(fd).st_mode):
            calls.append(("fsync", fds[fd]))
        return real_fsync(fd)

    monkeypatch.setattr(storage.os, "mkdir", mkdir)
    monkeypatch.setattr(storage.os, "open", open_)
    monkeypatch.setattr(storage.os, "fsync", fsync)
    return calls


def test_each_new_level_is_followed_by_an_fsync_of_its_parent(tmp_path, synced):
    target = tmp_path / "a" / "b" / "data"
    created = storage.make_data_dir(target)
    assert created == [tmp_path / "a", tmp_path / "a" / "b", target]
    assert synced == [("mkdir", tmp_path / "a"), ("fsync", tmp_path),
                      ("mkdir", tmp_path / "a" / "b"), ("fsync", tmp_path / "a"),
                      ("mkdir", target), ("fsync", tmp_path / "a" / "b")]
    assert stat.S_IMODE(target.stat().st_mode) == 0o700


def test_an_existing_folder_is_left_alone(tmp_path, synced):
    assert storage.make_data_dir(tmp_path) == []
    assert synced == []


def test_a_file_in_the_way_is_an_error(tmp_path):
    (tmp_path / "data").write_text("")
    with pytest.raises((NotADirectoryError, FileExistsError)):
        storage.make_data_dir(tmp_path / "data")


def test_serve_creates_its_data_folder_durably(tmp_path, synced):
    old = os.umask(0o022)
    try:
        serve_cli.private_data_dir(tmp_path / "new" / "data")
    finally:
        os.umask(old)
    assert ("fsync", tmp_path) in synced and ("fsync", tmp_path / "new") in synced


def test_the_table_creates_its_data_folder_durably_before_any_command(tmp_path, synced):
    rig = rig_module.build_rig(Config(), sim=True, data_dir=tmp_path / "games")
    try:
        # built, not started: nothing acknowledged yet, and the folder is already durable
        assert synced[:2] == [("mkdir", tmp_path / "games"), ("fsync", tmp_path)]
    finally:
        rig.emulator.stop()


def test_doctor_creates_a_data_folder_durably(tmp_path, synced):
    from pi_app.cli import doctor

    doctor.diagnose(None, sim=True, data_dir=tmp_path / "fresh")
    assert ("mkdir", tmp_path / "fresh") in synced and ("fsync", tmp_path) in synced


def test_a_parent_this_user_may_not_read_is_not_fsynced_but_the_folder_is_made(
        tmp_path, monkeypatch, caplog):
    real_open = os.open

    def no_read(path, flags, *args):
        if Path(path) == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args)

    monkeypatch.setattr(storage.os, "open", no_read)
    assert storage.make_data_dir(tmp_path / "data") == [tmp_path / "data"]
    assert "event=storage.fsync_skipped" in caplog.text


def test_a_new_journal_file_has_its_folder_fsynced_and_an_old_one_not(tmp_path, synced):
    from pi_app.journal import Journal

    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    assert path.exists() and ("fsync", tmp_path) in synced
    synced.clear()
    Journal(path).close()  # reopened: its name is already durable
    assert synced == []
