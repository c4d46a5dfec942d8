"""tools/pibox/box.sh's wait for the box's boot: systemctl asked before systemd has its
control socket answers nothing (Bookworm's 252) or "offline" (Trixie's 257), which is
"ask again", not the boot's verdict (CI's Trixie box failed at once on it)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tools.pibox.constants import REPO

BOX_SH = REPO / "tools" / "pibox" / "box.sh"
HOST_SH = REPO / "tools" / "pibox" / "host.sh"


def wait_booted(tmp_path: Path, answers: list[str],
                seconds: int = 60) -> subprocess.CompletedProcess[str]:
    """Run box_wait_booted with box_run replaced by a systemctl that gives `answers` in
    turn (the last one again once they run out); the box's PID 1 is this shell."""
    queue = tmp_path / "answers"
    queue.write_text("".join(f"{a}\n" for a in answers))
    log = tmp_path / "nspawn.log"
    log.write_text("Welcome to Debian GNU/Linux 13 (trixie)!\n")
    script = f"""set -euo pipefail
source {HOST_SH}
source {BOX_SH}
sleep() {{ :; }}
box_run() {{
    [[ $* == *is-system-running* ]] || {{ echo "asked: $*"; return 0; }}
    local first; first=$(head -n 1 {queue})
    (( $(wc -l < {queue}) > 1 )) && sed -i 1d {queue}
    echo asked >> {tmp_path / 'count'}
    [[ $first == none ]] && return 1
    echo "$first"; [[ $first == running ]]
}}
BOX_LEADER=$$ BOX_LOG={log}
box_wait_booted {seconds}
echo booted
"""
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)


def asked(tmp_path: Path) -> int:
    """How many times the boot's state was asked."""
    return len((tmp_path / "count").read_text().splitlines())


def test_offline_and_no_answer_before_the_bus_are_asked_again(tmp_path: Path) -> None:
    done = wait_booted(tmp_path, ["none", "offline", "offline", "running"])
    assert (done.returncode, done.stdout) == (0, "booted\n"), done.stderr
    assert asked(tmp_path) == 4


def test_a_degraded_boot_fails_naming_the_state_and_the_boot_log(tmp_path: Path) -> None:
    done = wait_booted(tmp_path, ["offline", "degraded"])
    assert done.returncode == 1
    assert "booted" not in done.stdout
    assert "the box's boot ended 'degraded'" in done.stderr
    assert "asked: systemctl --no-pager --failed" in done.stderr
    assert "Welcome to Debian GNU/Linux 13" in done.stderr
    assert asked(tmp_path) == 2


def test_a_box_that_never_gets_its_bus_fails_at_the_deadline(tmp_path: Path) -> None:
    # `sleep` is a no-op here, so the loop spins on SECONDS; one second is enough to end.
    done = wait_booted(tmp_path, ["offline"], seconds=1)
    assert done.returncode == 1
    assert "the box's boot ended 'offline'" in done.stderr
    assert asked(tmp_path) >= 1
