"""The box as the checks see it (tools/pibox/box.py): every command goes through the runner,
as root or as the maker; a failed one is a sentence; the service's state read from systemd."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from tools.pibox import box as box_module
from tools.pibox.box import Box, seconds
from tools.pibox.constants import BOX_PATH
from tools.pibox.errors import CheckFailed

from .fakes import Answer, FakeRunner


def test_a_failed_command_is_a_sentence_naming_it_its_exit_and_its_output() -> None:
    runner = FakeRunner().on(r"^systemctl restart riskboard$", "", 3, "Job failed.\n")
    box = Box(runner, Path("/nonexistent"))
    with pytest.raises(CheckFailed) as failed:
        box.run(["systemctl", "restart", "riskboard"])
    assert str(failed.value) == ("`systemctl restart riskboard` failed in the box (exit 3): "
                                 "Job failed.")
    assert box.run(["systemctl", "restart", "riskboard"], check=False).returncode == 3


def test_a_string_is_a_shell_line_and_a_list_is_argv() -> None:
    runner = FakeRunner().on(".", "")
    box = Box(runner, Path("/nonexistent"))
    box.run("ls -A /var/lib/riskboard | grep x")
    box.run(["cat", "/etc/riskboard/config.toml"])
    assert runner.calls == [["bash", "-c", "ls -A /var/lib/riskboard | grep x"],
                            ["cat", "/etc/riskboard/config.toml"]]


def test_the_maker_types_in_a_login_shell_in_their_home_as_their_own_user() -> None:
    runner = FakeRunner().on("runuser -u maker", "ok\n")
    Box(runner, Path("/nonexistent")).maker("sudo riskboard doctor")
    (argv,) = runner.calls
    assert argv[:2] == ["bash", "-c"]
    assert shlex.split(argv[2]) == [
        "runuser", "-u", "maker", "--", "env", "-i", f"PATH={BOX_PATH}", "HOME=/home/maker",
        "USER=maker", "LOGNAME=maker", "LANG=C.UTF-8", "TERM=dumb", "bash", "-lc",
        "cd ~ && sudo riskboard doctor"]


def test_systemd_time_spans_read_as_seconds() -> None:
    assert seconds("30s") == 30
    assert seconds("1min 30s") == 90
    assert seconds("500ms") == 0.5
    assert seconds("1h 2min") == 3720
    with pytest.raises(CheckFailed, match="cannot read the time span 'infinity'"):
        seconds("infinity")


def unit(runner: FakeRunner, prop: str, *values: str) -> None:
    """Script `systemctl show -p PROP` to answer `values` in turn."""
    runner.on_each(rf"^systemctl show -p {prop} --value riskboard$",
                   *(Answer(v + "\n") for v in values))


def test_a_restart_while_watched_fails_steady_with_the_journal() -> None:
    runner = FakeRunner()
    unit(runner, "ActiveState", "active")
    unit(runner, "NRestarts", "1")
    runner.on(r"^journalctl -u riskboard", "started\nwatchdog timeout\n")
    with pytest.raises(CheckFailed) as failed:
        Box(runner, Path("/nonexistent")).steady(0)
    assert str(failed.value) == ("riskboard.service went active after 1 restarts while it "
                                 "was watched; journal: started | watchdog timeout")


def test_steady_looks_until_its_time_is_up(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = iter(range(100))
    monkeypatch.setattr(box_module.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(box_module.time, "sleep", lambda s: None)
    runner = FakeRunner()
    unit(runner, "ActiveState", "active")
    unit(runner, "NRestarts", "0")
    # the deadline is 0 + 3; looks at clock 1, 2, 3 (the last one at the deadline)
    assert Box(runner, Path("/nonexistent")).steady(3) == 3


def test_wait_active_wants_a_new_main_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(box_module.time, "sleep", lambda s: None)
    runner = FakeRunner()
    unit(runner, "MainPID", "41", "41", "57")
    unit(runner, "ActiveState", "active")
    assert Box(runner, Path("/nonexistent")).wait_active(60, other_than=41) == 57


def test_a_reboot_waits_for_a_new_pid_1_and_a_finished_boot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(box_module.time, "sleep", lambda s: None)
    runner = FakeRunner(leader=100, leaders=[0, 100, 0, 230])
    runner.on(r"^systemctl reboot$", "", 1)  # the box goes away under it
    runner.on(r"^systemctl is-system-running --wait$", "running\n")
    box = Box(runner, Path("/nonexistent"))
    box.reboot()
    assert box.leader == 230
    assert runner.lines() == ["systemctl reboot", "systemctl is-system-running --wait"]


def test_the_journal_end_is_read_as_the_service_user() -> None:
    runner = FakeRunner().on(r"^runuser -u riskboard -- /opt/riskboard/venv/bin/python -c ",
                             "213 212\n")
    assert Box(runner, Path("/nonexistent")).journal_end(4) == [213, 212]
    assert runner.calls[0][-2:] == ["/var/lib/riskboard/journal.sqlite", "4"]
