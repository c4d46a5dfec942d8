"""Where things are in the box and the numbers the checks hold the install to."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOX_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PLAYERS = ["red", "blue", "green"]
PORT = 8080  # the example config's web.port
VENV_PYTHON = "/opt/riskboard/venv/bin/python"
CONFIG = "/etc/riskboard/config.toml"
SHIM_DIR = "/run/riskboard/shim"  # pibox-gpio.conf's PIBOX_SHIM_DIR: the decoded strip, the FIFO
SHIM_SO = "/usr/local/lib/pibox/pibox_shim.so"
DATA = "/var/lib/riskboard"  # the example config's storage.data_dir

# `systemd-analyze security` of deploy/riskboard.service before this round (at 7098b5a; the
# same number as tests/deploy/test_unit_file.py's): the unit must score this or better.
SECURITY_BASELINE = 1.6

# Paths that change on their own on any running system (logs, caches, apt's and systemd's
# state): left out when comparing the filesystem before the install and after the purge.
VOLATILE = ("/proc", "/sys", "/dev", "/run", "/tmp", "/var/tmp", "/var/log", "/var/cache",
            "/var/lib/apt", "/var/lib/dpkg", "/var/lib/systemd", "/var/lib/dbus",
            "/var/lib/ucf", "/var/lib/python", "/etc/ld.so.cache", "/etc/.pwd.lock",
            "/home/maker/riskboard", "/home/maker/.cache", "/root", "/usr/local/lib/pibox",
            "/home/maker/mpremote-venv",  # the maker's own mpremote (check 13), not riskboard's
            "/srv/riskboard.git", "/var/lib/pam", "/etc/machine-id", "/var/lib/sudo",
            "/var/lib/private")
