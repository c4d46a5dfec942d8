"""Check 8, second half: `uninstall` keeps config and games; `uninstall --purge` leaves
nothing of riskboard's behind."""

from __future__ import annotations

from tools.pibox.box import Box
from tools.pibox.constants import CONFIG, REPO
from tools.pibox.errors import CheckFailed
from tools.pibox.run import Run

# What the maker's own first `sudo` leaves (Debian's sudo notes that a member of the sudo
# group has used it), whatever they install.
MAKERS_OWN = frozenset({"/home/maker/.sudo_as_admin_successful"})


def apt_owned(box: Box) -> set[str]:
    """Every path the installed Debian packages account for: dpkg's file lists, the links
    update-alternatives made (/usr/bin/cc, /usr/lib/cpp ...), the Python files their
    postinst byte-compiled, and the folders above all of these."""
    out = box.run("cat /var/lib/dpkg/info/*.list; find /usr -xdev "
                  "-lname '/etc/alternatives/*'; find /usr/lib/python3 /usr/lib/python3.* "
                  "-xdev -path '*__pycache__*' 2>/dev/null; true", timeout=600).stdout
    owned = set()
    for line in out.splitlines():
        path = line.strip()
        while path and path not in owned and path != "/":
            owned.add(path)
            path = path.rsplit("/", 1)[0] or "/"
    owned.update(p for p in box.run("ls -d /etc/alternatives/*", check=False).stdout.split())
    return owned


def check_8_uninstall(run: Run) -> str:
    """8 (second half). `uninstall` keeps config and games; `uninstall --purge` leaves
    nothing of riskboard's behind, and nothing else was removed."""
    box = run.box
    if run.pico is not None:
        run.pico.close()
        run.pico = None
    box.maker("cd riskboard && sudo deploy/install.sh uninstall 2>&1", 600)
    for path in ("/etc/systemd/system/riskboard.service", "/opt/riskboard",
                 "/usr/local/bin/riskboard", "/etc/udev/rules.d/99-riskboard-pico.rules"):
        if (box.root / path.lstrip("/")).exists():
            raise CheckFailed(f"uninstall left {path}")
    for path in (CONFIG, "/var/lib/riskboard/journal.sqlite"):
        if box.run(["test", "-e", path], check=False).returncode != 0:
            raise CheckFailed(f"uninstall (without --purge) removed {path}")
    if "# >>> riskboard" in box.text("/boot/firmware/config.txt"):
        raise CheckFailed("uninstall left riskboard's block in /boot/firmware/config.txt")
    box.maker("cd riskboard && sudo deploy/install.sh uninstall --purge 2>&1", 600)
    after = box.files()
    owned = apt_owned(box)
    left = sorted(p for p in after - run.before_install if p not in owned | MAKERS_OWN)
    removed = sorted(run.before_install - after)
    users = [line for line in box.text("/etc/passwd").splitlines() + box.text(
        "/etc/group").splitlines() if line.startswith("riskboard:")]
    stock = (REPO / "tools/pibox/config.txt").read_text()
    problems = []
    if left:
        problems.append(f"left {', '.join(left[:5])}")
    if users:
        problems.append("left the riskboard user or group")
    if removed:
        problems.append(f"removed what was there before: {', '.join(removed[:5])}")
    if box.text("/boot/firmware/config.txt") != stock:
        problems.append("/boot/firmware/config.txt differs from before the install")
    if problems:
        raise CheckFailed("uninstall --purge " + "; ".join(problems))
    added = sorted(after - run.before_install)
    return (f"uninstall kept config and games; after the purge each of the {len(added)} new "
            "paths belongs to the apt packages install.sh added (dpkg's file lists, their "
            "alternatives and byte-compiled Python)")
