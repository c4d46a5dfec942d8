"""tools/pibox/host.sh, sourced by every box script under `set -euo pipefail`: removing a
half-built tree, and a script that stops saying where (CI shows only the script's output)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tools.pibox.constants import REPO

HOST_SH = REPO / "tools" / "pibox" / "host.sh"


def bash(script: str) -> subprocess.CompletedProcess[str]:
    """Run `script` as a box script does: strict mode, host.sh sourced."""
    return subprocess.run(["bash", "-c", f"set -euo pipefail\nsource {HOST_SH}\n{script}"],
                          capture_output=True, text=True, timeout=60)


def test_a_half_built_tree_with_nothing_mounted_is_removed(tmp_path: Path) -> None:
    # The cached root filesystem of a debootstrap cut off half way, with nothing mounted
    # below it: grep finding no mount must not end the script (CI's pi-shim-check stopped
    # there without a word, exit 1).
    tree = tmp_path / "bookworm-arm64"
    (tree / "usr" / "bin").mkdir(parents=True)
    (tree / "usr" / "bin" / "python3").write_text("")
    done = bash(f"pibox_clear_tree {tree}\necho went-on")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "went-on\n"
    assert not tree.exists()


def test_a_missing_tree_is_no_error(tmp_path: Path) -> None:
    done = bash(f"pibox_clear_tree {tmp_path / 'absent'}\necho went-on")
    assert (done.returncode, done.stdout) == (0, "went-on\n")


def test_a_command_that_stops_a_script_is_named() -> None:
    done = bash("inner() { ls /nonexistent-pibox-path >/dev/null; }\ninner\necho not-reached")
    assert done.returncode != 0
    assert "not-reached" not in done.stdout
    assert "pibox: stopped:" in done.stderr and "ls /nonexistent-pibox-path" in done.stderr


def test_a_handled_failure_says_nothing() -> None:
    done = bash("probe() { [[ -n '' ]] && echo x; }\nprobe || echo handled")
    assert (done.returncode, done.stdout, done.stderr) == (0, "handled\n", "")


def test_a_cleanup_under_set_plus_e_goes_on_in_silence() -> None:
    done = bash("cleanup() { set +e; ls /nonexistent-pibox 2>/dev/null; echo cleaned; }\ncleanup")
    assert (done.returncode, done.stdout, done.stderr) == (0, "cleaned\n", "")
