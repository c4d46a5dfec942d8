"""The systemd unit and its drop-ins: accepted by systemd, and hardened as promised."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from .conftest import REPO, Installer, install_script

DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "riskboard.service"
INSTALL_SH = install_script()
HOST_UNITS = Path("/usr/lib/systemd/system")


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Parse systemd's INI dialect strictly: [Section] headers and Key=value lines."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        header = re.fullmatch(r"\[([A-Za-z]+)\]", line)
        if header:
            current = sections.setdefault(header.group(1), {})
            continue
        pair = re.fullmatch(r"([A-Za-z][A-Za-z0-9]*)=(.*)", line)
        if pair is None or current is None:
            raise ValueError(f"line {number} is not a Key=value line in a section: {raw!r}")
        if line.endswith("\\"):
            raise ValueError(f"line {number}: continuation lines are not used here")
        current.setdefault(pair.group(1), []).append(pair.group(2))
    return sections


def one(section: dict[str, list[str]], key: str) -> str:
    """The single value of `key` (systemd would merge or override repeats; we never repeat)."""
    values = section.get(key)
    assert values is not None, f"{key} missing"
    assert len(values) == 1, f"{key} given {len(values)} times"
    return values[0]


UNIT_DATA = parse_unit(UNIT.read_text())
SERVICE = UNIT_DATA["Service"]


def installed_root(installer: Installer, *config_edits: tuple[str, str]) -> Path:
    """A temporary root with riskboard installed (after the given config edits) and the
    pieces systemd needs to load the unit there: its standard targets, an ExecStart."""
    installer.install()
    if config_edits:
        conf = installer.path("/etc/riskboard/config.toml")
        text = conf.read_text()
        for old, new in config_edits:
            text = text.replace(old, new, 1)
        conf.write_text(text)
        installer.install()
    exe = installer.path("/opt/riskboard/venv/bin/riskboard")
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    return installer.root


def verify(root: Path) -> None:
    """Have systemd load the unit with its drop-ins: systemd-analyze verify where it
    exists; elsewhere our strict parser over the unit and every drop-in."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        unit_dir = root / "etc/systemd/system"
        for path in [unit_dir / "riskboard.service", *unit_dir.glob("riskboard.service.d/*")]:
            assert parse_unit(path.read_text()), path
        return
    shutil.copytree(HOST_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    proc = subprocess.run(
        [analyze, "verify", f"--root={root}", "--man=no", "riskboard.service"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 0, output
    assert "riskboard" not in output, output  # e.g. "Unknown key ... ignoring" is not ok


# --- accepted by systemd ------------------------------------------------------------


@pytest.mark.slow
def test_unit_passes_systemd_verification(installer: Installer) -> None:
    verify(installed_root(installer))


@pytest.mark.slow
@pytest.mark.parametrize(
    "edits",
    [
        [("gpio_pin = 10", "gpio_pin = 18")],
        [('data_dir = "/var/lib/riskboard"', 'data_dir = "/srv/risk"')],
        [("port = 8080", "port = 80")],
    ],
    ids=["ws281x-root", "data-dir", "low-port"],
)
def test_unit_with_each_drop_in_passes_verification(
    installer: Installer, edits: list[tuple[str, str]]
) -> None:
    root = installed_root(installer, *edits)
    assert list((root / "etc/systemd/system/riskboard.service.d").iterdir())
    verify(root)


def test_verification_catches_a_broken_unit(installer: Installer) -> None:
    root = installed_root(installer)
    unit = root / "etc/systemd/system/riskboard.service"
    unit.write_text(unit.read_text().replace("MemoryMax=256M", "MemoryMax=lots"))
    with pytest.raises(AssertionError):
        verify(root)


def test_parser_rejects_a_line_outside_any_section() -> None:
    with pytest.raises(ValueError, match="line 1"):
        parse_unit("Type=notify\n[Service]\n")


# --- what the unit promises -----------------------------------------------------------


def test_service_is_notify_type_with_a_watchdog() -> None:
    assert one(SERVICE, "Type") == "notify"
    assert int(one(SERVICE, "WatchdogSec")) > 0
    assert one(SERVICE, "NotifyAccess") == "main"


def test_service_restarts_on_failure_after_the_network() -> None:
    assert one(SERVICE, "Restart") == "on-failure"
    assert one(UNIT_DATA["Unit"], "After") == "network-online.target"
    assert one(UNIT_DATA["Unit"], "Wants") == "network-online.target"
    assert one(UNIT_DATA["Install"], "WantedBy") == "multi-user.target"


def test_service_logs_to_journald() -> None:
    assert one(SERVICE, "StandardOutput") == "journal"
    assert one(SERVICE, "StandardError") == "journal"


def test_service_is_hardened() -> None:
    expected = {
        "NoNewPrivileges": "yes",
        "PrivateTmp": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectControlGroups": "yes",
        "RestrictSUIDSGID": "yes",
        "CapabilityBoundingSet": "",
        "User": "riskboard",
    }
    assert {key: one(SERVICE, key) for key in expected} == expected


def test_only_the_data_folder_is_writable_and_it_matches_the_example_config() -> None:
    example = tomllib.loads((DEPLOY / "config.example.toml").read_text())
    assert SERVICE["ReadWritePaths"] == [example["storage"]["data_dir"]]
    assert f"DEFAULT_DATA_DIR={example['storage']['data_dir']}\n" in INSTALL_SH


def test_memory_is_capped_for_a_pi_zero_2_w() -> None:
    limit = one(SERVICE, "MemoryMax")
    assert limit.endswith("M") and int(limit[:-1]) <= 256  # 512 MB Pi, shared with the OS
    assert int(one(SERVICE, "MemoryHigh").removesuffix("M")) < int(limit[:-1])


def test_exec_start_runs_the_venv_with_the_installed_config() -> None:
    venv = re.search(r"^readonly VENV=(\S+)$", INSTALL_SH, re.M)
    conf_dir = re.search(r"^readonly CONF_DIR=(\S+)$", INSTALL_SH, re.M)
    assert venv and conf_dir
    assert one(SERVICE, "ExecStart") == (
        f"{venv.group(1)}/bin/riskboard serve --config {conf_dir.group(1)}/config.toml"
    )


def test_drop_ins_only_touch_the_service_section() -> None:
    for name in ("ws281x-root.conf", "low-port.conf"):
        data = parse_unit((DEPLOY / name).read_text())
        assert list(data) == ["Service"], name


def test_root_drop_in_grants_raw_io_for_dev_mem() -> None:
    service = parse_unit((DEPLOY / "ws281x-root.conf").read_text())["Service"]
    assert one(service, "User") == "root"
    assert "CAP_SYS_RAWIO" in one(service, "CapabilityBoundingSet").split()


# `systemd-analyze security --offline=yes` of deploy/riskboard.service before this round
# (commit 7098b5a): the unit may only get safer. The Pi box checks the same live.
SECURITY_BASELINE = 1.6


def test_systemd_scores_the_unit_as_safe_as_before(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian's systemd package) is needed to score the unit"
    shutil.copy(UNIT, tmp_path / "riskboard.service")
    proc = subprocess.run([analyze, "security", "--offline=yes", "--no-pager",
                           "riskboard.service"], capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    found = re.search(r"Overall exposure level for riskboard\.service:\s*([\d.]+)",
                      proc.stdout + proc.stderr)
    assert found, proc.stdout + proc.stderr
    assert float(found.group(1)) <= SECURITY_BASELINE, proc.stdout[-3000:]
