"""install.sh checks the OS, the architecture and the Pi model before it changes anything
(issue 24.1): Raspberry Pi OS Trixie and Bookworm, 64-bit, on a Pi that runs it."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Installer, snapshot

TRIXIE = ('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\n'
          'VERSION_ID="13"\nVERSION_CODENAME=trixie\nID=debian\n')
BOOKWORM = ('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\n'
            'VERSION_CODENAME=bookworm\nID=debian\n')
# Raspberry Pi OS (32-bit) names itself Raspbian
RASPBIAN_BOOKWORM = ('PRETTY_NAME="Raspbian GNU/Linux 12 (bookworm)"\nVERSION_ID="12"\n'
                     'VERSION_CODENAME=bookworm\nID=raspbian\n')
BULLSEYE = ('PRETTY_NAME="Debian GNU/Linux 11 (bullseye)"\nVERSION_ID="11"\n'
            'VERSION_CODENAME=bullseye\nID=debian\n')


def run_on(installer: Installer, os_release: str, arch: str, model: str | None):
    """install.sh into the temporary root, as on a system with this os-release, this
    architecture and this device-tree model (None: no model file, not a Pi)."""
    release = installer.root.parent / "os-release"
    release.write_text(os_release)
    if model is None:
        installer.model_file.unlink(missing_ok=True)
    else:
        installer.model_file.write_bytes(model.encode() + b"\0")
    return installer.run(
        "--root", str(installer.root), "--no-pip", "--no-systemctl", "--model-file",
        str(installer.model_file), env={"RISKBOARD_OS_RELEASE": str(release),
                                        "RISKBOARD_ARCH": arch}, check=False)


@pytest.mark.parametrize("release", [TRIXIE, BOOKWORM])
@pytest.mark.parametrize("model", ["Raspberry Pi 4 Model B Rev 1.4",
                                   "Raspberry Pi Zero 2 W Rev 1.0",
                                   "Raspberry Pi 5 Model B Rev 1.0"])
def test_trixie_and_bookworm_64_bit_install(installer: Installer, release: str,
                                            model: str) -> None:
    run = run_on(installer, release, "arm64", model)
    assert run.returncode == 0, run.stderr
    name = release.split('"')[1]
    assert f"system: {name} (arm64) on {model}" in run.stdout
    assert installer.path("/etc/riskboard/config.toml").is_file()


@pytest.mark.parametrize(("release", "arch", "model", "words"), [
    (RASPBIAN_BOOKWORM, "armhf", "Raspberry Pi 4 Model B Rev 1.4",
     "this is a 32-bit system (armhf, Raspbian GNU/Linux 12 (bookworm)); riskboard installs "
     "on the 64-bit Raspberry Pi OS"),
    (BULLSEYE, "arm64", "Raspberry Pi 4 Model B Rev 1.4",
     "Debian GNU/Linux 11 (bullseye) is too old: riskboard needs Raspberry Pi OS Trixie or "
     "Bookworm"),
    (RASPBIAN_BOOKWORM, "armhf", "Raspberry Pi Zero W Rev 1.1", "32-bit system"),
    (BOOKWORM, "arm64", "Raspberry Pi Zero W Rev 1.1",
     "'Raspberry Pi Zero W Rev 1.1' cannot run the 64-bit Raspberry Pi OS"),
    (BOOKWORM, "arm64", "Raspberry Pi Model B Plus Rev 1.2", "cannot run the 64-bit"),
    (BOOKWORM, "amd64", "Raspberry Pi 4 Model B Rev 1.4", "the Pi runs a amd64 system"),
])
def test_a_system_riskboard_cannot_run_on_is_refused_before_anything_changes(
        installer: Installer, release: str, arch: str, model: str, words: str) -> None:
    before = snapshot(installer.root)
    run = run_on(installer, release, arch, model)
    assert run.returncode == 1
    errors = [line for line in run.stderr.splitlines() if line.startswith("riskboard: error:")]
    assert len(errors) == 1 and words in errors[0], run.stderr
    assert errors[0].endswith("Nothing was changed.")
    assert snapshot(installer.root) == before


def test_an_untested_system_is_named_and_the_install_goes_on(installer: Installer) -> None:
    forky = 'PRETTY_NAME="Debian GNU/Linux forky/sid"\nVERSION_CODENAME=forky\nID=debian\n'
    run = run_on(installer, forky, "arm64", "Raspberry Pi 4 Model B Rev 1.4")
    assert run.returncode == 0
    assert ("Debian GNU/Linux forky/sid is not one riskboard is tested on (Raspberry Pi OS "
            "Trixie or Bookworm, 64-bit); going on") in run.stderr


def test_a_pc_that_is_not_a_pi_installs_with_the_virtual_board(installer: Installer) -> None:
    run = run_on(installer, BOOKWORM, "amd64", None)
    assert run.returncode == 0, run.stderr
    assert "on a machine that is not a Raspberry Pi" in run.stdout
    config = installer.path("/etc/riskboard/config.toml").read_text()
    assert 'backend = "memory"' in config


def test_an_image_folder_without_os_release_is_not_checked(installer: Installer,
                                                           tmp_path: Path) -> None:
    run = installer.install()
    assert "system:" not in run.stdout
