"""The host's side of make pi-shim-check (tools/pibox/shim_host.py): what the arm64 root
installs, and the detection cases as the run prints them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tools.pibox import shim_host

REPO = Path(__file__).resolve().parents[2]


def test_the_pi_packages_are_the_dependencies_then_the_pi_extra(tmp_path: Path) -> None:
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\ndependencies = ["flask==3.1.0", "segno"]\n'
                         '[project.optional-dependencies]\npi = ["lgpio==0.2.2.0"]\n'
                         'test = ["pytest"]\n')
    assert shim_host.pi_packages(str(pyproject)) == ["flask==3.1.0", "segno", "lgpio==0.2.2.0"]


def test_the_projects_pi_packages_hold_the_real_drivers() -> None:
    names = [p.split("==")[0].split(">")[0] for p in
             shim_host.pi_packages(str(REPO / "pyproject.toml"))]
    assert {"rpi-ws281x", "lgpio"} <= set(names) and "pytest" not in names


def test_each_detection_case_is_one_line_even_after_a_message_of_the_library() -> None:
    probe_output = [
        'starting\n',
        '{"case": "pi4", "outcome": "started", "said": ""}\n',
        'ws2811_init failed{"case": "pi5", "outcome": "refused", "said": "Hardware revision '
        'is not supported"}\n',
        '{"ok": true}\n',
    ]
    assert shim_host.detect_cases(probe_output) == [
        "    pi4: started",
        "    pi5: refused -> Hardware revision is not supported"]


def test_it_runs_as_the_script_shim_check_sh_calls(tmp_path: Path) -> None:
    out = tmp_path / "detect.out"
    out.write_text('{"case": "pi3", "outcome": "started", "said": ""}\n')
    script = REPO / "tools" / "pibox" / "shim_host.py"
    proc = subprocess.run([sys.executable, str(script), "detect-cases", str(out)],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert (proc.returncode, proc.stdout) == (0, "    pi3: started\n")
    shim_check = (REPO / "tools/pibox/shim-check.sh").read_text()
    assert '"$HERE/shim_host.py" detect-cases "$WORK/detect.out"' in shim_check
    assert '"$HERE/shim_host.py" pi-packages "$REPO/pyproject.toml"' in shim_check
