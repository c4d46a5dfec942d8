"""The checks' own logic against a fake box: what a check asks the box, and the sentence it
fails with when the answer is wrong (tools/pibox/checks/)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tools.pibox.box import Box
from tools.pibox.checks import doctor, game_setup, install, uninstall, update
from tools.pibox.constants import REPO
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run

from .fakes import Answer, FakeRunner

INSTALL = r"cd riskboard && sudo deploy/install\.sh 2>&1"


def a_run(runner: FakeRunner, led_count: int = 135) -> Run:
    """A Run over the fake box, with the classic-42 profile's LED count."""
    return Run(Box(runner, Path("/nonexistent")), Path("/nonexistent/srv/riskboard.git"),
               profile=SimpleNamespace(led_count=led_count))


@pytest.fixture
def no_sleep(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The checks' pauses, noted instead of slept."""
    slept: list[float] = []
    monkeypatch.setattr(install.time, "sleep", slept.append)
    return slept


def test_the_maker_clones_then_installs(no_sleep: list[float]) -> None:
    runner = FakeRunner().on(r"git clone /srv/riskboard\.git riskboard", "")
    runner.on(INSTALL, "riskboard: done (12 changes)\n")
    assert install.install_as_a_maker(a_run(runner), "Pi 4") == "riskboard: done (12 changes)\n"
    assert [line.rsplit("&& ", 1)[-1][:-1] for line in runner.lines()] == [
        "git clone /srv/riskboard.git riskboard", "sudo deploy/install.sh 2>&1"]
    assert no_sleep == []


def test_an_install_the_network_failed_is_run_again(no_sleep: list[float]) -> None:
    runner = FakeRunner().on(r"git clone", "")
    runner.on_each(INSTALL, Answer("pip: Read timed out.\n", 1),
                   Answer("Temporary failure in name resolution\n", 1),
                   Answer("riskboard: done\n"))
    assert install.install_as_a_maker(a_run(runner), "Pi 4") == "riskboard: done\n"
    assert no_sleep == [20, 40]


def test_an_install_that_fails_otherwise_fails_the_check_at_once(
        no_sleep: list[float]) -> None:
    runner = FakeRunner().on(r"git clone", "")
    runner.on(INSTALL, "riskboard: error: this is a Raspberry Pi 2\n", 1)
    with pytest.raises(CheckFailed) as failed:
        install.install_as_a_maker(a_run(runner), "Pi 4")
    assert str(failed.value) == ("sudo deploy/install.sh failed on a fresh Pi 4 (exit 1): "
                                 "riskboard: error: this is a Raspberry Pi 2")
    assert no_sleep == []


def test_three_network_failures_fail_the_check(no_sleep: list[float]) -> None:
    runner = FakeRunner().on(r"git clone", "").on(INSTALL, "Could not resolve host\n", 1)
    with pytest.raises(CheckFailed, match=r"failed on a fresh Pi 5 \(exit 1\)"):
        install.install_as_a_maker(a_run(runner), "Pi 5")
    assert no_sleep == [20, 40]


def test_the_security_score_is_systemd_analyzes_overall_exposure() -> None:
    runner = FakeRunner().on(r"^systemd-analyze security --no-pager riskboard\.service$",
                             "NAME DESCRIPTION EXPOSURE\n...\n→ Overall exposure level for "
                             "riskboard.service: 1.4 OK 🙂\n")
    assert install.security_score(Box(runner, Path("/nonexistent"))) == 1.4
    silent = FakeRunner().on(r"^systemd-analyze", "", 1, "Unit riskboard.service not found.")
    with pytest.raises(CheckFailed, match=r"gave no score: Unit riskboard\.service not found"):
        install.security_score(Box(silent, Path("/nonexistent")))


def test_the_host_pin_is_the_last_one_the_journal_shows() -> None:
    runner = FakeRunner().on(r"journalctl -u riskboard --no-pager \| grep PIN",
                             "Dec 06 serve: host PIN 1234\nDec 06 serve: host PIN 9876\n")
    assert game_setup.host_pin(Box(runner, Path("/nonexistent"))) == "9876"
    none = FakeRunner().on(r"journalctl", "", 1)
    with pytest.raises(CheckFailed, match="shows no host PIN"):
        game_setup.host_pin(Box(none, Path("/nonexistent")))


DOCTOR_OK = """ok   leds      ws281x: 135 LEDs on GPIO 10 (SPI)
ok   buttons   gpiozero's LGPIO pins: 4 buttons
ok   firmware  config.txt: dtparam=spi=on, core_freq=500
All checks passed
"""


def test_doctor_as_the_maker_and_as_root_must_name_ws281x_and_lgpio() -> None:
    runner = FakeRunner().on(r"cd ~ && (sudo )?riskboard doctor'$", DOCTOR_OK)
    said = doctor.check_7_doctor(a_run(runner))
    assert [line.rsplit("&& ", 1)[-1][:-1] for line in runner.lines()] == [
        "riskboard doctor", "sudo riskboard doctor"]
    quoted = ('All checks passed; "ok   leds      ws281x: 135 LEDs on GPIO 10 (SPI)"; '
              '"ok   buttons   gpiozero\'s LGPIO pins: 4 buttons"; '
              '"ok   firmware  config.txt: dtparam=spi=on, core_freq=500"')
    assert said == f"as the maker: {quoted}; as root: {quoted}"


def test_doctor_fails_on_a_failed_line_or_on_the_wrong_drivers() -> None:
    failing = FakeRunner().on(r"riskboard doctor",
                              "FAIL leds  no /dev/spidev0.0\nok   buttons x\n", 1)
    with pytest.raises(CheckFailed) as failed:
        doctor.check_7_doctor(a_run(failing))
    assert str(failed.value) == ("`riskboard doctor` as the maker exited 1: "
                                 "FAIL leds  no /dev/spidev0.0")
    mock_leds = FakeRunner().on(r"riskboard doctor",
                                DOCTOR_OK.replace("ws281x: 135 LEDs", "mock: 135 LEDs"))
    with pytest.raises(CheckFailed, match="does not say rpi-ws281x drives the profile's 135"):
        doctor.check_7_doctor(a_run(mock_leds))
    other_profile = FakeRunner().on(r"riskboard doctor", DOCTOR_OK)
    with pytest.raises(CheckFailed, match="profile's 200 LEDs"):
        doctor.check_7_doctor(a_run(other_profile, led_count=200))


def test_what_apt_accounts_for_includes_every_folder_above_it() -> None:
    runner = FakeRunner()
    runner.on(r"^cat /var/lib/dpkg/info/\*\.list",
              "/usr/bin/gcc-12\n/usr/lib/python3/dist-packages/x/__pycache__/a.pyc\n")
    runner.on(r"^ls -d /etc/alternatives/\*$", "/etc/alternatives/cc\n")
    owned = uninstall.apt_owned(Box(runner, Path("/nonexistent")))
    assert owned == {"/usr/bin/gcc-12", "/usr/bin", "/usr",
                     "/usr/lib/python3/dist-packages/x/__pycache__/a.pyc",
                     "/usr/lib/python3/dist-packages/x/__pycache__",
                     "/usr/lib/python3/dist-packages/x", "/usr/lib/python3/dist-packages",
                     "/usr/lib/python3", "/usr/lib", "/etc/alternatives/cc"}


def test_the_sentences_the_checks_wait_for_are_install_shs() -> None:
    script = "".join(path.read_text() for path in [
        REPO / "deploy" / "install.sh", *sorted((REPO / "deploy" / "install.d").glob("*.sh"))])
    assert update.NETWORK_FAILED in script
    assert "the running version was not touched and is still running" in script
    assert 'say "REBOOT NEEDED: ' in script
    assert '# >>> riskboard' in script  # the block check 1 reads and uninstall must remove
