"""install.sh is split by job into parts beside it (deploy/install.d/*.sh): every part is
sourced, once, found from the script's own folder wherever it is run from."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from .conftest import INSTALL, INSTALL_PARTS

SOURCED = re.compile(r'^source "\$SCRIPT_DIR/install\.d/([\w.-]+)"$', re.M)


def test_every_part_is_sourced_once_and_only_parts_are() -> None:
    sourced = SOURCED.findall(INSTALL.read_text())
    assert sorted(sourced) == sorted(path.name for path in INSTALL_PARTS)
    assert len(set(sourced)) == len(sourced)
    assert {"os-check.sh", "folders.sh", "venv.sh", "unit.sh", "hotspot.sh",
            "update.sh"} <= set(sourced)


def test_the_parts_are_found_beside_the_script_from_any_folder(tmp_path: Path) -> None:
    # --list-apt-packages runs after every part is sourced (apt_packages is os-check.sh's)
    for cwd, script in ((INSTALL.parent.parent, "deploy/install.sh"),
                        (INSTALL.parent, "./install.sh"), (tmp_path, str(INSTALL))):
        proc = subprocess.run(["bash", script, "--list-apt-packages"], cwd=cwd,
                              capture_output=True, text=True, timeout=60)
        assert (proc.returncode, proc.stderr) == (0, "")
        assert proc.stdout.split() == ["python3-venv", "python3-dev", "gcc", "swig"]


def test_without_its_parts_install_sh_says_where_to_run_it_from(tmp_path: Path) -> None:
    lone = tmp_path / "install.sh"
    shutil.copy(INSTALL, lone)
    proc = subprocess.run(["bash", str(lone), "--list-apt-packages"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr == (f"riskboard: error: {tmp_path}/install.d is missing: run install.sh "
                           "from the riskboard checkout (git clone), which has its parts "
                           "beside it\n")
