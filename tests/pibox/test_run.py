"""Which checks run, in which order, and what the run prints and exits with
(tools/pibox/checks/__init__.py's run_all, tools/pibox/run.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.pibox import checks
from tools.pibox.box import Box
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run

from .fakes import FakeRunner

# (module, function, the name the run prints) of every check, in the order of a good run.
EVERY_CHECK = [
    ("install", "check_1_install", "1 install (Pi 4)"),
    ("ready", "check_2_ready", "2 ready after bind"),
    ("pico_strip", "check_3_pico", "3 pico and LED strip"),
    ("bringup", "check_11_bringup", "11 bring-up of the miswired board over HTTP"),
    ("doctor", "check_7_doctor", "7 doctor"),
    ("game_setup", "check_4_game_setup", "4 game: setup by touches"),
    ("pico_reset", "check_12_pico_reset", "12 pico reset mid-game"),
    ("firmware_update", "check_13_firmware_update", "13 firmware update by README"),
    ("restarts", "check_5_restarts", "5 restarts"),
    ("phones", "check_6_phones", "6 thirty phones"),
    ("update", "check_8_update", "8 update"),
    ("reboot", "check_10_reboot", "10 reboot"),
    ("finish", "check_4_finish", "4 game: to the end"),
    ("speed", "check_9_speed", "9 speed"),
    ("uninstall", "check_8_uninstall", "8 uninstall"),
    ("pi5", "check_1_pi5", "1 install (Pi 5)"),
]


class Plugged:
    """Stands in for the Pico and the strip check 2 wires up; notes its closing."""

    closed = 0

    def close(self) -> None:
        Plugged.closed += 1


def stand_in_checks(monkeypatch: pytest.MonkeyPatch, fail: set[str] = frozenset(),
                    wires: bool = True) -> list[str]:
    """Replace every check with one that notes its name and holds (or fails, if named in
    `fail`); check 2 wires the table as the real one does. Returns the names, as run."""
    ran: list[str] = []

    def stand_in(name: str) -> Any:
        def check(run: Run, *args: Any) -> str:
            ran.append(name)
            if name == "2 ready after bind" and wires:
                run.pico, run.strip = Plugged(), Plugged()  # type: ignore[assignment]
            if name in fail:
                raise CheckFailed(f"{name} did not hold")
            return f"{name} held"
        return check

    for module, function, name in EVERY_CHECK:
        monkeypatch.setattr(getattr(checks, module), function, stand_in(name))
    monkeypatch.setattr(checks, "wait_port", lambda: None)
    return ran


def a_run(venv_there: bool = True) -> Run:
    """A Run over a fake box whose service is up (check 5's aftermath) and whose venv is
    there or not (what decides the checks after a failed install)."""
    runner = FakeRunner()
    runner.on(r"^systemctl show -p MainPID --value riskboard$", "812\n")
    runner.on(r"^systemctl show -p ActiveState --value riskboard$", "active\n")
    runner.on(r"^test -x /opt/riskboard/venv/bin/python$", "", 0 if venv_there else 1)
    return Run(Box(runner, Path("/nonexistent")), Path("/nonexistent/srv/riskboard.git"))


def test_a_good_run_runs_every_check_in_the_boxs_order(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    ran = stand_in_checks(monkeypatch)
    run = a_run()
    Plugged.closed = 0
    checks.run_all(run, ["bench.rules_engine"])
    assert ran == [name for _, _, name in EVERY_CHECK]
    assert [ok for _, ok, _ in run.results] == [True] * len(EVERY_CHECK)
    assert Plugged.closed == 1  # the Pico, unplugged at the end


def test_no_install_and_no_venv_leaves_only_the_uninstall_and_the_pi_5(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ran = stand_in_checks(monkeypatch, fail={"1 install (Pi 4)"})
    checks.run_all(a_run(venv_there=False), [])
    assert ran == ["1 install (Pi 4)", "8 uninstall", "1 install (Pi 5)"]


def test_a_failed_install_with_a_venv_still_checks_the_service(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ran = stand_in_checks(monkeypatch, fail={"1 install (Pi 4)"})
    checks.run_all(a_run(venv_there=True), [])
    assert ran == [name for _, _, name in EVERY_CHECK]


def test_no_pico_skips_the_game_and_no_strip_skips_the_speed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ran = stand_in_checks(monkeypatch, fail={"2 ready after bind"}, wires=False)
    checks.run_all(a_run(), [])
    assert ran == ["1 install (Pi 4)", "2 ready after bind", "7 doctor", "8 uninstall",
                   "1 install (Pi 5)"]


def test_a_game_not_set_up_skips_what_needs_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    ran = stand_in_checks(monkeypatch, fail={"4 game: setup by touches"})
    checks.run_all(a_run(), [])
    assert ran == ["1 install (Pi 4)", "2 ready after bind", "3 pico and LED strip",
                   "11 bring-up of the miswired board over HTTP", "7 doctor",
                   "4 game: setup by touches", "9 speed", "8 uninstall", "1 install (Pi 5)"]


def test_an_unlinked_pico_skips_the_bringup_and_the_game_but_not_doctor(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ran = stand_in_checks(monkeypatch, fail={"3 pico and LED strip"})
    checks.run_all(a_run(), [])
    assert ran == ["1 install (Pi 4)", "2 ready after bind", "3 pico and LED strip",
                   "7 doctor", "9 speed", "8 uninstall", "1 install (Pi 5)"]


def test_a_failed_check_and_a_surprise_are_each_one_sentence(
        capsys: pytest.CaptureFixture[str]) -> None:
    run = a_run()

    def surprise() -> str:
        raise KeyError("winner")

    def refused() -> str:
        raise CheckFailed("the game has no winner")

    assert run.check("1 install (Pi 4)", lambda: "install took 3 s") is True
    assert run.check("4 game: to the end", refused) is False
    assert run.check("7 doctor", surprise) is False
    assert [(name, ok, detail) for name, ok, detail in run.results] == [
        ("1 install (Pi 4)", True, "install took 3 s"),
        ("4 game: to the end", False, "the game has no winner"),
        ("7 doctor", False, "KeyError: 'winner'")]
    assert run.report() == 1
    out = capsys.readouterr().out.splitlines()
    assert "pibox: check 4 game: to the end ..." in out
    assert out[-6:] == ["pibox: --- results ---",
                        "pibox: ok     check 1 install (Pi 4): install took 3 s",
                        "pibox: FAILED check 4 game: to the end: the game has no winner",
                        "pibox: FAILED check 7 doctor: KeyError: 'winner'",
                        "pibox: --- timings ---",
                        "pibox: 1 checks held, 2 did not"]


def test_a_run_where_every_check_held_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    run = a_run()
    with run.timed("install (Pi 4, fresh image)"):
        pass
    run.figures.append("systemctl start riskboard -> READY: 9.0 s")
    run.check("9 speed", lambda: "start -> READY 9.0 s")
    assert run.report() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-6:] == ["pibox: --- results ---",
                        "pibox: ok     check 9 speed: start -> READY 9.0 s",
                        "pibox: --- timings ---",
                        "pibox: install (Pi 4, fresh image): 0 s",
                        "pibox: systemctl start riskboard -> READY: 9.0 s",
                        "pibox: 1 checks held, 0 did not"]
