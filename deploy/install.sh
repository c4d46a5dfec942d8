#!/usr/bin/env bash
# Install, update or remove riskboard on Raspberry Pi OS 64-bit, Trixie or Bookworm.
#
#   sudo deploy/install.sh                 install, or update an existing install
#   sudo deploy/install.sh uninstall       remove it; keeps games and config
#   sudo deploy/install.sh uninstall --purge   remove games, config and the user too
#
# Re-running it is an update: the config is checked first (with the new code, before
# pip touches the venv the service runs from), then the package is reinstalled into the
# venv and the service restarted; /etc/riskboard/config.toml (once created) and the data
# folder are never overwritten, so games and settings survive, and the running game
# resumes from its journal after the restart. Outside the venv (which pip rewrites on
# every run) a second run with nothing new changes no file.
#
# The data folder (storage.data_dir) is adopted only when it is new, empty, or already
# riskboard's (its `.riskboard-data` marker, or only riskboard's files); system folders,
# /home, /root, users' homes, `~` and paths with spaces are refused. `--purge` deletes
# only riskboard's files there, and the folder only if that leaves it empty.
#
# Why it needs root (sudo): it creates the system user `riskboard`, writes to
# /etc (config, systemd unit, udev rule), /opt/riskboard (the venv) and
# /var/lib/riskboard (games), installs apt build prerequisites, and asks systemd
# and udev to reload. The service itself then runs as the unprivileged
# `riskboard` user (groups dialout, gpio, spi) — except with leds.backend =
# "ws281x" on a PWM/PCM pin, where rpi-ws281x's DMA needs /dev/mem and so root
# (a drop-in says so; prefer the SPI pin 10 or the Pico "bridge" backend).
#
# For CI and image builds, --root DIR installs into DIR instead of / (no root
# needed; user creation and apt are skipped, systemd is told offline with
# `systemctl --root`). Run with --help for every option.
#
# This file reads the options and says the order of the steps (do_install, do_uninstall);
# each job's functions are in a part beside it, sourced from deploy/install.d/: files.sh
# (idempotent file operations), os-check.sh, folders.sh (the user, the data folder),
# config.sh, boot-config.sh, update.sh (the releases), venv.sh, unit.sh, hotspot.sh.

set -euo pipefail

readonly APP_USER=riskboard
readonly VENV=/opt/riskboard/venv
readonly CONF_DIR=/etc/riskboard
readonly CONF=$CONF_DIR/config.toml
readonly CONF_EXAMPLE=$CONF_DIR/config.example.toml
readonly DEFAULT_DATA_DIR=/var/lib/riskboard
readonly UNIT_NAME=riskboard.service
readonly UNIT=/etc/systemd/system/$UNIT_NAME
readonly DROPIN_DIR=/etc/systemd/system/$UNIT_NAME.d
readonly UDEV_RULE=/etc/udev/rules.d/99-riskboard-pico.rules
readonly BIN_LINK=/usr/local/bin/riskboard
# The Pi firmware's settings (Bookworm; older images: /boot/config.txt).
readonly BOOT_CONFIGS=(/boot/firmware/config.txt /boot/config.txt)
readonly BOOT_BEGIN="# >>> riskboard: LEDs on SPI (GPIO 10), written by deploy/install.sh; its uninstall removes this block"
readonly BOOT_END="# <<< riskboard"
readonly APT_PACKAGES=(python3-venv python3-dev gcc swig)
readonly USER_GROUPS=(dialout gpio spi)

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readonly SCRIPT_DIR

usage() {
    cat <<'EOF'
usage: install.sh [install|uninstall] [options]

  install      (default) install riskboard, or update an existing install
  uninstall    stop and remove the service, venv, unit and udev rule;
               keeps /etc/riskboard and the data folder unless --purge

options:
  --root DIR         install into DIR instead of / (env RISKBOARD_ROOT); implies
                     --no-useradd --no-apt and --services offline
  --source PATH      checkout folder or wheel to pip install (default: this checkout)
  --python PATH      Python 3.11+ used to create the venv (default: python3)
  --model-file FILE  where the Pi model is read (env RISKBOARD_MODEL_FILE; default
                     /proc/device-tree/model, else /sys/firmware/devicetree/base/model)
  --os-release FILE  where the OS names itself (env RISKBOARD_OS_RELEASE; default
                     /etc/os-release, or DIR/etc/os-release with --root when it exists)
  --services MODE    live: systemctl daemon-reload/enable/restart and udevadm reload
                     offline: only `systemctl --root DIR enable` (default with --root)
                     none: leave systemd and udev alone
  --no-systemctl     same as --services none
  --no-pip           do not create/update the venv (CI: slow, needs the Pi extras)
  --no-apt           do not apt-get install build prerequisites
  --no-useradd       do not create the riskboard user or chown its files
  --hotspot          let the table run its own Wi-Fi network when no known one is
                     there (NetworkManager; Raspberry Pi OS Bookworm and Trixie use it)
                     and write a printable table card with its QR codes
  --hotspot-ssid NAME      the hotspot's name (default riskboard-HOSTNAME)
  --hotspot-password TEXT  its WPA2 password, 8-63 characters (default: a new random
                     one, printed on the card); keeps the one set before when omitted
  --purge            (uninstall) also delete config, riskboard's files in the
                     data folder, and the user
  --list-apt-packages  print the Debian packages the install needs (with --python's
                     version) and exit; image builders can bake them in
  -h, --help         this help
EOF
}

say() { printf 'riskboard: %s\n' "$*"; }
warn() { printf 'riskboard: warning: %s\n' "$*" >&2; }
die() {
    printf 'riskboard: error: %s\n' "$*" >&2
    exit 1
}

ACTION=install
ROOT=${RISKBOARD_ROOT:-/}
SOURCE=""
PYTHON=python3
MODEL_FILE=${RISKBOARD_MODEL_FILE:-}
OS_RELEASE=${RISKBOARD_OS_RELEASE:-}
SERVICES=""
DO_PIP=1
DO_APT=1
DO_USERADD=1
PURGE=0
HOTSPOT=0
HOTSPOT_SSID=""
HOTSPOT_PASSWORD=""

while (($#)); do
    case $1 in
        install | uninstall) ACTION=$1 ;;
        --root) ROOT=${2:?--root needs a folder}; shift ;;
        --root=*) ROOT=${1#*=} ;;
        --source) SOURCE=${2:?--source needs a path}; shift ;;
        --source=*) SOURCE=${1#*=} ;;
        --python) PYTHON=${2:?--python needs a path}; shift ;;
        --python=*) PYTHON=${1#*=} ;;
        --model-file) MODEL_FILE=${2:?--model-file needs a path}; shift ;;
        --model-file=*) MODEL_FILE=${1#*=} ;;
        --os-release) OS_RELEASE=${2:?--os-release needs a file}; shift ;;
        --os-release=*) OS_RELEASE=${1#*=} ;;
        --services) SERVICES=${2:?--services needs live, offline or none}; shift ;;
        --services=*) SERVICES=${1#*=} ;;
        --no-systemctl) SERVICES=none ;;
        --no-pip) DO_PIP=0 ;;
        --no-apt) DO_APT=0 ;;
        --no-useradd) DO_USERADD=0 ;;
        --purge) PURGE=1 ;;
        --hotspot) HOTSPOT=1 ;;
        --hotspot-ssid) HOTSPOT=1; HOTSPOT_SSID=${2:?--hotspot-ssid needs a name}; shift ;;
        --hotspot-ssid=*) HOTSPOT=1; HOTSPOT_SSID=${1#*=} ;;
        --hotspot-password) HOTSPOT=1; HOTSPOT_PASSWORD=${2:?--hotspot-password needs a password}; shift ;;
        --hotspot-password=*) HOTSPOT=1; HOTSPOT_PASSWORD=${1#*=} ;;
        --list-apt-packages) ACTION=list-apt-packages ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown argument: $1" ;;
    esac
    shift
done

[[ $ROOT == /* ]] || die "--root must be an absolute path, got '$ROOT'"
R=${ROOT%/}     # "" for the live system, so "$R$CONF" is always the real path
LIVE=0
[[ -z $R ]] && LIVE=1
if ((!LIVE)); then
    DO_APT=0
    DO_USERADD=0
fi
SERVICES=${SERVICES:-$( ((LIVE)) && echo live || echo offline)}
case $SERVICES in live | offline | none) ;; *) die "--services must be live, offline or none" ;; esac
SOURCE=${SOURCE:-$(dirname "$SCRIPT_DIR")}
CHANGED=0
REBOOT_NEEDED=0
BOOT_CHANGED=0

# --- the steps, each job in a part of its own beside this script (deploy/install.d/) ----

[[ -d $SCRIPT_DIR/install.d ]] ||
    die "$SCRIPT_DIR/install.d is missing: run install.sh from the riskboard checkout (git clone), which has its parts beside it"
# shellcheck source=deploy/install.d/files.sh
source "$SCRIPT_DIR/install.d/files.sh"
# shellcheck source=deploy/install.d/os-check.sh
source "$SCRIPT_DIR/install.d/os-check.sh"
# shellcheck source=deploy/install.d/folders.sh
source "$SCRIPT_DIR/install.d/folders.sh"
# shellcheck source=deploy/install.d/config.sh
source "$SCRIPT_DIR/install.d/config.sh"
# shellcheck source=deploy/install.d/boot-config.sh
source "$SCRIPT_DIR/install.d/boot-config.sh"
# shellcheck source=deploy/install.d/update.sh
source "$SCRIPT_DIR/install.d/update.sh"
# shellcheck source=deploy/install.d/venv.sh
source "$SCRIPT_DIR/install.d/venv.sh"
# shellcheck source=deploy/install.d/unit.sh
source "$SCRIPT_DIR/install.d/unit.sh"
# shellcheck source=deploy/install.d/hotspot.sh
source "$SCRIPT_DIR/install.d/hotspot.sh"

do_install() {
    preflight
    system_checks
    hotspot_checks
    apt_prerequisites
    system_user
    config_files
    read_config check # before pip: a bad config leaves the running install untouched
    check_data_dir
    venv_and_package
    data_folder
    service_dropins
    boot_config
    system_files
    switch_release
    start_service
    prune_releases
    hotspot
    if ((CHANGED)); then say "done ($CHANGED changes)"; else say "done; nothing to change"; fi
    if ((REBOOT_NEEDED)); then
        say "REBOOT NEEDED: the LEDs on GPIO 10 work after a restart of the Pi (sudo reboot), which turns SPI on and fixes the core clock"
    elif [[ $LED_BACKEND == ws281x && $LED_PIN == 10 && $LIVE == 1 && ! -e /dev/spidev0.0 ]]; then
        say "REBOOT NEEDED: SPI is still off (no /dev/spidev0.0); restart the Pi once (sudo reboot) for the LEDs on GPIO 10"
    fi
    say "open http://$(hostname 2>/dev/null || echo raspberrypi).local:$WEB_PORT on a phone; check the table with: riskboard doctor"
}

do_uninstall() {
    preflight
    read_config
    case $SERVICES in
        live) systemctl disable --now "$UNIT_NAME" 2>/dev/null || true ;;
        offline) systemctl --root="$ROOT" --quiet disable "$UNIT_NAME" 2>/dev/null || true ;;
        none) ;;
    esac
    remove_path "$R$UNIT"
    remove_path "$R$DROPIN_DIR"
    remove_path "$R$UDEV_RULE"
    remove_path "$R$BIN_LINK"
    remove_path "$R${VENV%/venv}"
    set_boot_block ""
    if ((BOOT_CHANGED)); then
        say "(SPI and the core clock go back to the Pi's own settings at the next reboot)"
    fi
    # riskboard's copy of config.txt, whether this run or an earlier install removed the block
    local boot_file
    boot_file=$(boot_config_file)
    [[ -z $boot_file ]] || remove_path "$boot_file.riskboard-backup"
    if [[ $SERVICES == live ]]; then
        systemctl daemon-reload
        udevadm control --reload-rules 2>/dev/null || true
    fi
    if ((PURGE)); then
        remove_path "$R$CONF_DIR"
        purge_data
        if ((DO_USERADD)) && getent passwd "$APP_USER" >/dev/null; then
            userdel "$APP_USER"
            say "deleted user $APP_USER"
        fi
        say "riskboard removed, with its config and games (--purge)"
    else
        say "riskboard removed; kept your settings in ${CONF_DIR} and your games in ${DATA_DIR}"
        say "(delete them too with: sudo $0 uninstall --purge)"
    fi
}

case $ACTION in
    install) do_install ;;
    uninstall) do_uninstall ;;
    list-apt-packages) apt_packages ;;
esac
