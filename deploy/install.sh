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

# --- small idempotent file operations ----------------------------------------

# put_file SRC DEST MODE: copy only when the content or mode differs.
put_file() {
    local src=$1 dest=$2 mode=$3
    if [[ -f $dest ]] && cmp -s "$src" "$dest"; then
        if [[ $(stat -c %a "$dest") != "${mode#0}" ]]; then
            chmod "$mode" "$dest"
            CHANGED=$((CHANGED + 1))
        fi
        return 1
    fi
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" "$src" "$dest"
    say "wrote ${dest#"$R"}"
    CHANGED=$((CHANGED + 1))
    return 0
}

# put_text DEST MODE <<< text: like put_file, from stdin.
put_text() {
    local dest=$1 mode=$2 tmp status=0
    tmp=$(mktemp)
    cat >"$tmp"
    put_file "$tmp" "$dest" "$mode" || status=$?
    rm -f "$tmp"
    return "$status"
}

remove_path() {
    local path=$1
    if [[ -e $path || -L $path ]]; then
        rm -rf -- "$path"
        say "removed ${path#"$R"}"
        CHANGED=$((CHANGED + 1))
    fi
}

make_dir() {
    local dir=$1 mode=$2
    if [[ ! -d $dir ]]; then
        mkdir -p "$dir"
        say "created ${dir#"$R"}"
        CHANGED=$((CHANGED + 1))
    fi
    [[ $(stat -c %a "$dir") == "${mode#0}" ]] || chmod "$mode" "$dir"
}

# --- the data folder: adopted only when it is riskboard's -------------------------

# Files riskboard itself writes in its data folder (the journal with SQLite's side files,
# seat tokens, the host PIN, the link position) and install.sh's marker. Purge deletes
# these and nothing else.
readonly DATA_MARKER=.riskboard-data
readonly DATA_FILES=(journal.sqlite journal.sqlite-wal journal.sqlite-shm journal.sqlite-journal
    seat_tokens.json seat_tokens.json.tmp host-pin link-position.json link-position.json.tmp
    "$DATA_MARKER")
# Folders that are never riskboard's own, nor may hold it: adopting one would chown it and
# purge would empty it.
readonly SYSTEM_DIRS=(/ /bin /boot /boot/firmware /dev /etc /home /lib /lib64 /lost+found
    /media /mnt /opt /proc /root /run /sbin /srv /sys /tmp /usr /usr/local /usr/bin /usr/lib
    /usr/share /var /var/lib /var/log /var/tmp /var/cache /var/local /var/opt /var/spool)

# Every user's home folder (from $R/etc/passwd in a --root install), except riskboard's.
user_homes() {
    local passwd_lines
    if ((LIVE)); then
        passwd_lines=$(getent passwd || true)
    else
        passwd_lines=$(cat "$R/etc/passwd" 2>/dev/null || true)
    fi
    awk -F: -v me="$APP_USER" '$1 != me && $6 != "" { print $6 }' <<<"$passwd_lines"
}

# data_dir_problem RAW DIR: prints why DIR (storage.data_dir, RAW as written in the config)
# cannot be the service's data folder; prints nothing when it can.
data_dir_problem() {
    local raw=$1 dir=$2 system home
    if [[ $raw == "~"* ]]; then
        echo "storage.data_dir = \"$raw\" starts with ~, which would mean root's home here and the service runs as '$APP_USER': write the full path, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ $dir =~ [[:space:]] ]]; then
        echo "storage.data_dir = \"$raw\" contains a space or tab; systemd would split it in ReadWritePaths=: choose a path without spaces, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ $dir != /* ]]; then
        echo "storage.data_dir = \"$raw\" is not an absolute path: write it starting with /, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ /$dir/ == *"/./"* || /$dir/ == *"/../"* ]]; then
        echo "storage.data_dir = \"$raw\" contains . or .. parts: write the folder's plain path"
        return
    fi
    for system in "${SYSTEM_DIRS[@]}"; do
        if [[ $dir == "$system" ]]; then
            echo "storage.data_dir = \"$raw\" is a system folder; riskboard would take it over (and uninstall --purge would empty it): use a folder of its own, e.g. $DEFAULT_DATA_DIR"
            return
        fi
    done
    case $dir in
        /home/* | /root/*)
            echo "storage.data_dir = \"$raw\" is inside /home or /root, which the service cannot see (ProtectHome=yes): use a folder such as $DEFAULT_DATA_DIR or /srv/riskboard"
            return ;;
        /opt/riskboard | /opt/riskboard/* | "$CONF_DIR" | "$CONF_DIR"/* | /proc/* | /sys/* | /dev/* | /run/* | /tmp/*)
            echo "storage.data_dir = \"$raw\" lies in a folder that is not kept or is removed by install.sh: use a folder such as $DEFAULT_DATA_DIR"
            return ;;
    esac
    while IFS= read -r home; do
        [[ -n $home && $home != / ]] || continue
        if [[ $dir == "${home%/}" ]]; then
            echo "storage.data_dir = \"$raw\" is a user's home folder: use a folder of riskboard's own, e.g. $DEFAULT_DATA_DIR"
            return
        fi
    done < <(user_homes)
}

# foreign_entry DIR: the first entry of DIR that riskboard did not write (empty: none).
foreign_entry() {
    local dir=$1 entry name known
    for entry in "$dir"/* "$dir"/.[!.]* "$dir"/..?*; do
        [[ -e $entry || -L $entry ]] || continue
        name=${entry##*/}
        known=0
        for own in "${DATA_FILES[@]}"; do [[ $name == "$own" ]] && known=1; done
        if ((!known)) || [[ -L $entry || ! -f $entry ]]; then
            echo "$name"
            return
        fi
    done
}

# --- reading the config -------------------------------------------------------

# read_config [check]: load the installed config into LED_BACKEND, LED_PIN, WEB_PORT,
# DATA_DIR and RAW_DATA_DIR through riskboard's own loader (`python -m pi_app.config
# --install-settings`: one home for the defaults). With "check" it validates the file
# first, so a typo stops the install, not a game; without (uninstall), a broken file is
# read leniently, so it never stops a removal.
read_config() {
    local mode=${1:-} runner=() line out flags=()
    # The loader of the code about to be installed (the checkout, or the wheel, which
    # Python imports as a zip), before pip touches the venv the running service uses;
    # else the installed venv's.
    if [[ -f $SOURCE/pi_app/config.py || $SOURCE == *.whl ]]; then
        runner=(env "PYTHONPATH=$SOURCE" "$PYTHON")
    elif [[ -x $R$VENV/bin/python ]]; then
        runner=("$R$VENV/bin/python")
    elif [[ -f $SCRIPT_DIR/../pi_app/config.py ]]; then # the checkout install.sh is in
        runner=(env "PYTHONPATH=$(dirname "$SCRIPT_DIR")" "$PYTHON")
    else
        [[ $mode == check ]] && die "cannot read ${CONF}: no riskboard checkout at $SOURCE and no venv at $VENV"
        warn "cannot read ${CONF} (no checkout and no venv): assuming its defaults"
        runner=()
    fi
    [[ $mode == check ]] || flags=(--lenient)
    if ((${#runner[@]})); then
        out=$("${runner[@]}" -m pi_app.config --install-settings "${flags[@]}" "$R$CONF") ||
            die "${CONF} has a problem (above). Fix it and run install.sh again; the service was left as it was."
    fi
    LED_BACKEND=memory LED_PIN=10 WEB_PORT=8080 DATA_DIR="" RAW_DATA_DIR=""
    while IFS= read -r line; do
        case ${line%%=*} in
            LED_BACKEND) LED_BACKEND=${line#*=} ;;
            LED_PIN) LED_PIN=${line#*=} ;;
            WEB_PORT) WEB_PORT=${line#*=} ;;
            DATA_DIR) DATA_DIR=${line#*=} ;;
            RAW_DATA_DIR) RAW_DATA_DIR=${line#*=} ;;
        esac
    done <<<"${out:-}"
    # No storage.data_dir: the service's home, which is the default folder.
    if [[ -z $RAW_DATA_DIR ]]; then
        DATA_DIR=$DEFAULT_DATA_DIR
        RAW_DATA_DIR=$DEFAULT_DATA_DIR
    fi
}

# --- the firmware's config.txt: SPI and a fixed core clock for the LEDs -----------

# boot_lines MODEL: what config.txt must say for WS281x LEDs on SPI (GPIO 10) on this Pi
# model; nothing for a Pi 5 (its LEDs go through the Pico) or a machine that is no Pi.
# The SPI clock is derived from the core clock: if the core clock changes (it scales with
# load unless fixed), the LED data is sent at the wrong speed and garbles silently.
boot_lines() {
    local model=$1 clock=()
    case $model in
        *"Raspberry Pi 5"* | *"Raspberry Pi 500"* | *"Compute Module 5"*) return 0 ;;
        *"Raspberry Pi 4"* | *"Raspberry Pi 400"* | *"Compute Module 4"*)
            clock=(core_freq=500 core_freq_min=500) ;;
        *"Raspberry Pi"*) clock=(core_freq=250) ;; # 3B+, Zero 2 W, and the older ones
        *) return 0 ;;
    esac
    printf '%s\n' "[all]" "dtparam=spi=on" "${clock[@]}"
}

# boot_config_file: the config.txt of this system (empty when there is none).
boot_config_file() {
    local file
    for file in "${BOOT_CONFIGS[@]}"; do
        # Bookworm's /boot/config.txt is only a note saying the file moved.
        if [[ -f $R$file ]] && ! grep -q 'DO NOT EDIT THIS FILE' "$R$file"; then
            echo "$R$file"
            return
        fi
    done
}

# set_boot_block [LINES]: make riskboard's marked block in config.txt hold LINES (none:
# remove the block). Idempotent; the file is copied to config.txt.riskboard-backup before
# each change, and replaced by a rename. Sets BOOT_CHANGED=1 when the file changed.
set_boot_block() {
    local lines=${1:-} file tmp
    BOOT_CHANGED=0
    file=$(boot_config_file)
    if [[ -z $file ]]; then
        [[ -n $lines ]] && warn "no /boot/firmware/config.txt here: for the LEDs on GPIO 10 add these lines to the end of the Pi's config.txt yourself and reboot: $(tr '\n' ' ' <<<"$lines")"
        return 0
    fi
    tmp=$(mktemp)
    awk -v begin="$BOOT_BEGIN" -v end="$BOOT_END" '
        $0 == begin { skip = 1; next }
        skip && $0 == end { skip = 0; next }
        !skip { print }
    ' "$file" >"$tmp"
    if [[ -n $lines ]]; then
        printf '%s\n%s\n%s\n' "$BOOT_BEGIN" "$lines" "$BOOT_END" >>"$tmp"
    fi
    if cmp -s "$tmp" "$file"; then
        rm -f "$tmp"
        return 0
    fi
    # The FAT partition may lose power (the Pi is unplugged after "reboot needed"): the new
    # file is written beside the old one, flushed, then renamed over it, so config.txt is
    # always either the old file or the new one, never half of each.
    cp -p -- "$file" "$file.riskboard-backup"
    cp -p -- "$file" "$file.riskboard-new" # the owner and mode (vfat: its mount's)
    cat "$tmp" >"$file.riskboard-new"
    rm -f "$tmp"
    sync -- "$file.riskboard-backup" "$file.riskboard-new"
    mv -f -- "$file.riskboard-new" "$file"
    sync -f -- "$file"
    BOOT_CHANGED=1
    CHANGED=$((CHANGED + 1))
    if [[ -n $lines ]]; then
        say "wrote the LED settings ($(grep -v '^\[' <<<"$lines" | tr '\n' ' ')) into ${file#"$R"} (the old one is ${file#"$R"}.riskboard-backup)"
    else
        say "removed riskboard's LED settings from ${file#"$R"} (the old one is ${file#"$R"}.riskboard-backup)"
    fi
}

# boot_config: the block this config needs (LEDs on SPI), or none.
boot_config() {
    local lines=""
    if [[ $LED_BACKEND == ws281x && $LED_PIN == 10 ]]; then
        lines=$(boot_lines "$(pi_model)")
    fi
    set_boot_block "$lines"
    if ((BOOT_CHANGED)) && [[ -n $lines ]]; then
        REBOOT_NEEDED=1
    fi
}

# --- away from home: the table's own Wi-Fi -----------------------------------------
#
# With --hotspot, NetworkManager gets a Wi-Fi access point profile, riskboard-hotspot,
# with the lowest autoconnect priority: at boot a known network in range wins, and with
# none the Pi runs its own (WPA2, the Pi at 10.42.0.1, phones get addresses from it).
# Once the hotspot is up it stays up until the next boot or `nmcli connection up <home>`.
readonly HOTSPOT_NAME=riskboard-hotspot
readonly HOTSPOT_ADDRESS=10.42.0.1
readonly TABLE_CARD=$CONF_DIR/table-card.svg

hotspot_checks() {
    ((HOTSPOT)) || return 0
    if [[ -n $HOTSPOT_PASSWORD ]] && ((${#HOTSPOT_PASSWORD} < 8 || ${#HOTSPOT_PASSWORD} > 63)); then
        die "--hotspot-password must be 8 to 63 characters (WPA2), got ${#HOTSPOT_PASSWORD}. Nothing was changed."
    fi
    if [[ -n $HOTSPOT_SSID ]] && ((${#HOTSPOT_SSID} > 32)); then
        die "--hotspot-ssid must be at most 32 characters, got ${#HOTSPOT_SSID}. Nothing was changed."
    fi
    if [[ $SERVICES == live ]] && ! command -v nmcli >/dev/null; then
        die "--hotspot needs NetworkManager (nmcli), which Raspberry Pi OS Bookworm and Trixie have; this system has none. Nothing was changed."
    fi
}

# hotspot: create or update NetworkManager's profile, then write the table card.
hotspot() {
    ((HOTSPOT)) || return 0
    local ssid=$HOTSPOT_SSID password=$HOTSPOT_PASSWORD verb=add
    [[ -n $ssid ]] || ssid="riskboard-$(hostname 2>/dev/null || echo table)"
    ssid=${ssid:0:32}
    if [[ $SERVICES == live ]] && nmcli -t -f NAME connection show | grep -qx "$HOTSPOT_NAME"; then
        verb=modify
        [[ -n $password ]] || password=$(nmcli -s -g 802-11-wireless-security.psk connection show "$HOTSPOT_NAME" 2>/dev/null || true)
    fi
    # 10 characters from a set with nothing to confuse (no 0/O, 1/l/I) when none was given
    [[ -n $password ]] || password=$(tr -dc 'abcdefghjkmnpqrstuvwxyz23456789' </dev/urandom | head -c 10)
    local settings=(connection.autoconnect yes connection.autoconnect-priority -100
        802-11-wireless.ssid "$ssid" 802-11-wireless.mode ap 802-11-wireless.band bg
        ipv4.method shared ipv4.addresses "$HOTSPOT_ADDRESS/24" ipv6.method ignore
        wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$password")
    if [[ $SERVICES == live ]]; then
        if [[ $verb == add ]]; then
            nmcli connection add type wifi ifname wlan0 con-name "$HOTSPOT_NAME" "${settings[@]}" >/dev/null
        else
            nmcli connection modify "$HOTSPOT_NAME" "${settings[@]}"
        fi
        say "NetworkManager: $HOTSPOT_NAME '$ssid' comes up when no known Wi-Fi is in range (the Pi is then $HOTSPOT_ADDRESS)"
    else
        say "skipping NetworkManager (--services $SERVICES): the hotspot '$ssid' is only on the card"
    fi
    local card=$R$TABLE_CARD riskboard=$R$VENV/bin/riskboard
    [[ -x $riskboard ]] || riskboard=""
    local url="http://$HOTSPOT_ADDRESS"
    ((WEB_PORT == 80)) || url+=":$WEB_PORT"
    if [[ -n $riskboard ]]; then
        "$riskboard" table-card --url "$url" --wifi-ssid "$ssid" --wifi-password "$password" --out "$card" >/dev/null
    else
        PYTHONPATH=$(dirname "$SCRIPT_DIR") "$PYTHON" -m pi_app table-card --url "$url" \
            --wifi-ssid "$ssid" --wifi-password "$password" --out "$card" >/dev/null
    fi
    chmod 0644 "$card"
    CHANGED=$((CHANGED + 1))
    say "wrote the table card ${TABLE_CARD}: print it (its QR codes join '$ssid' and open $url)"
}

# --- the steps ----------------------------------------------------------------

preflight() {
    if ((LIVE)) && ((EUID != 0)); then
        die "installing to / needs root: it creates the '$APP_USER' user and writes to /etc, /opt and /var/lib. Run: sudo $0 $ACTION"
    fi
    "$PYTHON" -c 'import tomllib' 2>/dev/null ||
        die "$PYTHON is not Python 3.11 or newer (Raspberry Pi OS Trixie and Bookworm have it); pass --python"
}

# --- the system: which OS, architecture and Pi, checked before anything changes ---------

# The Debian releases riskboard installs on (Raspberry Pi OS is built on them): 13 trixie
# (Python 3.13, what Raspberry Pi Imager offers first since October 2025) and 12 bookworm
# (Python 3.11). Both are run by the Pi box (make pi-check).
readonly SUPPORTED_RELEASES=(trixie bookworm)
# Pi models whose LEDs riskboard drives, from their device-tree names: rpi-ws281x on SPI for
# the 3, 3B+, 4, 400, CM3/CM4 and Zero 2 W; the Pico bridge on the 5, 500 and CM5. The
# older ones (Pi 1, 2, Zero, Zero W) cannot run the 64-bit OS at all.
readonly OLD_PI_PATTERN='Raspberry Pi (Model [AB]|Zero (Rev|W)|2 Model|Compute Module( Rev|$))'

# os_field KEY: a field of os-release (empty when the file or the field is missing).
os_field() {
    local file=$OS_RELEASE
    [[ -n $file ]] || file=$R/etc/os-release
    [[ -r $file ]] || return 0
    sed -n "s/^$1=//p" "$file" | head -n 1 | tr -d '"'
}

# architecture: the system's Debian architecture (arm64, armhf, amd64, ...); RISKBOARD_ARCH
# stands in for it in tests. With --root, that of the folder's own dpkg, if it has one.
architecture() {
    if [[ -n ${RISKBOARD_ARCH:-} ]]; then
        echo "$RISKBOARD_ARCH"
    elif ((LIVE)); then
        dpkg --print-architecture 2>/dev/null || uname -m
    elif [[ -r $R/var/lib/dpkg/arch ]]; then
        head -n 1 "$R/var/lib/dpkg/arch"
    fi
}

# system_checks: refuse, with one sentence and before anything is changed, a system riskboard
# cannot run on; name the one it found. A --root folder with no os-release is an image
# being built: nothing to check there.
system_checks() {
    local name codename arch model release ok=0
    name=$(os_field PRETTY_NAME)
    codename=$(os_field VERSION_CODENAME)
    arch=$(architecture)
    model=$(pi_model)
    if [[ -z $name && -z $codename ]] && ((!LIVE)); then
        return 0
    fi
    for release in "${SUPPORTED_RELEASES[@]}"; do [[ $codename == "$release" ]] && ok=1; done
    case $arch in
        armhf | armel | arm | armv6l | armv7l)
            die "this is a 32-bit system ($arch, ${name:-unknown OS}); riskboard installs on the 64-bit Raspberry Pi OS: write \"Raspberry Pi OS (64-bit)\" or \"Raspberry Pi OS Lite (64-bit)\" to the card with Raspberry Pi Imager (a Pi 3B+, 4, 400, 5 or Zero 2 W runs it). Nothing was changed." ;;
    esac
    if [[ $model =~ $OLD_PI_PATTERN ]]; then
        die "'$model' cannot run the 64-bit Raspberry Pi OS riskboard needs; use a Pi 3B+, 4, 400, 5 or Zero 2 W. Nothing was changed."
    fi
    if ((!ok)); then
        case $codename in
            bullseye | buster | stretch | jessie)
                die "${name:-this system} is too old: riskboard needs Raspberry Pi OS Trixie or Bookworm (64-bit; Python 3.11 or newer); write a current image to the card with Raspberry Pi Imager. Nothing was changed." ;;
            *) warn "${name:-this system (no /etc/os-release)} is not one riskboard is tested on (Raspberry Pi OS Trixie or Bookworm, 64-bit); going on" ;;
        esac
    fi
    if [[ $model == *"Raspberry Pi"* && $arch != arm64 && -n $arch ]]; then
        die "the Pi runs a $arch system; riskboard installs on the 64-bit (arm64) Raspberry Pi OS: write it to the card with Raspberry Pi Imager. Nothing was changed."
    fi
    say "system: ${name:-unknown OS} ($arch) on ${model:-a machine that is not a Raspberry Pi (the table runs with the virtual board)}"
}

# The Pi model as its firmware names it, e.g. "Raspberry Pi 4 Model B Rev 1.4" (empty off a
# Pi). /proc/device-tree is a link to /sys/firmware/devicetree/base; either may be readable.
pi_model() {
    local file files=("$MODEL_FILE")
    [[ -n $MODEL_FILE ]] || files=(/proc/device-tree/model /sys/firmware/devicetree/base/model)
    for file in "${files[@]}"; do
        if [[ -r $file ]]; then
            tr -d '\0' <"$file"
            return 0
        fi
    done
}

# apt_packages: the Debian packages pip needs to build the Pi extras (rpi-ws281x has no
# wheel; lgpio has none for Python 3.13, Trixie's). Not liblgpio-dev: only Raspberry Pi's
# own archive has it, so lgpio is built from the C sources its sdist carries (PYPI=1 in
# venv_and_package), which works on Raspberry Pi OS and plain Debian alike.
apt_packages() {
    printf '%s\n' "${APT_PACKAGES[@]}"
}

apt_prerequisites() {
    ((DO_APT)) || return 0
    local packages=() missing=() pkg
    mapfile -t packages < <(apt_packages)
    command -v apt-get >/dev/null || { warn "no apt-get; install ${packages[*]} yourself"; return 0; }
    for pkg in "${packages[@]}"; do
        [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == *"ok installed" ]] ||
            missing+=("$pkg")
    done
    ((${#missing[@]})) || return 0
    say "installing ${missing[*]} (to build rpi-ws281x and lgpio in the venv)"
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

system_user() {
    ((DO_USERADD)) || { say "skipping the '$APP_USER' user (--no-useradd or --root)"; return 0; }
    if ! getent passwd "$APP_USER" >/dev/null; then
        useradd --system --home-dir "$DEFAULT_DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --user-group "$APP_USER"
        say "created system user $APP_USER"
        CHANGED=$((CHANGED + 1))
    fi
    local group
    for group in "${USER_GROUPS[@]}"; do
        getent group "$group" >/dev/null || continue
        [[ " $(id -nG "$APP_USER") " == *" $group "* ]] && continue
        usermod -a -G "$group" "$APP_USER"
        say "added $APP_USER to group $group"
        CHANGED=$((CHANGED + 1))
    done
}

# The fresh config: the commented example with the LED backend this Pi model needs.
fresh_config() {
    local model=$1 backend=ws281x buttons=gpio
    case $model in
        *"Raspberry Pi 5"* | *"Compute Module 5"*) backend=bridge ;; # no rpi-ws281x on the Pi 5
        *"Raspberry Pi"*) backend=ws281x ;;
        *) backend=memory buttons=mock ;; # not a Pi: nothing to drive
    esac
    say "Pi model: '${model:-unknown}' -> leds.backend = \"$backend\"" >&2
    printf '# Created by install.sh for: %s\n' "${model:-an unknown machine (not a Raspberry Pi)}"
    sed -e "/^\[leds\]/,/^\[/ s/^backend = .*/backend = \"$backend\"/" \
        -e "/^\[buttons\]/,/^\[/ s/^backend = .*/backend = \"$buttons\"/" \
        "$SCRIPT_DIR/config.example.toml"
}

config_files() {
    make_dir "$R$CONF_DIR" 0755
    put_file "$SCRIPT_DIR/config.example.toml" "$R$CONF_EXAMPLE" 0644 || true
    if [[ -e $R$CONF ]]; then
        say "kept your ${CONF}"
        return 0
    fi
    put_text "$R$CONF" 0640 < <(fresh_config "$(pi_model)") || true
    if ((DO_USERADD)); then chgrp "$APP_USER" "$R$CONF"; fi
}

# pi_extra: the package's extra for this Pi: "pi" (rpi-ws281x for the LEDs, lgpio for the
# buttons), or "pi5" (lgpio only: rpi-ws281x cannot drive a Pi 5, whose LEDs go through
# the Pico, so it is not built there).
pi_extra() {
    case $(pi_model) in
        *"Raspberry Pi 5"* | *"Raspberry Pi 500"* | *"Compute Module 5"*) echo pi5 ;;
        *) echo pi ;;
    esac
}

# --- the program: each version in a venv of its own, switched only once it starts -------
#
# /opt/riskboard/venv is a link to the release the service runs, /opt/riskboard/releases/ID.
# An update builds the new release beside it (a copy of the running one, upgraded, so pip
# rebuilds nothing that did not change), points the link at it, and restarts; when the
# build fails (a Wi-Fi drop in pip) the running release was never touched, and when the
# new one does not start, the link goes back and the old one is started again. The
# release before the running one is kept for that; older ones are deleted.
readonly RELEASES=/opt/riskboard/releases
NEW_RELEASE=""      # the release this run built (empty: none)
PREVIOUS_RELEASE="" # what $VENV pointed to before the switch ("" = nothing)

# current_release: the folder $VENV stands for now (empty when there is none).
current_release() {
    if [[ -L $R$VENV ]]; then
        readlink -f "$R$VENV"
    elif [[ -d $R$VENV ]]; then
        echo "$R$VENV" # an install from before releases: the venv folder itself
    fi
}

# release_id: a new release's name (time of the build; a suffix if one has it already).
release_id() {
    local id n=1
    id=$(date -u +%Y%m%d-%H%M%S)
    while [[ -e $R$RELEASES/$id ]]; do id=$(date -u +%Y%m%d-%H%M%S)-$n; n=$((n + 1)); done
    echo "$id"
}

# copy_release FROM TO: a working copy of venv FROM at TO: its scripts' #! lines name
# FROM's python, and now TO's (nothing else in a venv holds its own path).
copy_release() {
    local from=$1 to=$2 old script
    cp -a -- "$from" "$to"
    old=$(sed -n '1s|^#!\(.*\)/bin/python[0-9.]*$|\1|p' "$to/bin/pip" 2>/dev/null || true)
    [[ -n $old ]] || old=${from#"$R"}
    for script in "$to"/bin/*; do
        [[ -f $script && ! -L $script ]] || continue
        sed -i "1s|^#!$old/bin/|#!${to#"$R"}/bin/|" "$script"
    done
}

venv_and_package() {
    if ((!DO_PIP)); then
        say "skipping the venv and pip install (--no-pip)"
        return 0
    fi
    local current id new
    current=$(current_release)
    id=$(release_id)
    new=$R$RELEASES/$id
    mkdir -p "$R$RELEASES"
    NEW_RELEASE=$new
    if [[ -n $current && -x $current/bin/python ]]; then
        say "preparing the new version beside the running one (${RELEASES}/$id)"
        copy_release "$current" "$new"
    else
        say "creating the venv ${RELEASES}/$id"
        "$PYTHON" -m venv "$new"
    fi
    CHANGED=$((CHANGED + 1))
    # pip runs the build code of sdists (rpi-ws281x, lgpio have no wheels for every Pi), so
    # on a real install it runs as the unprivileged riskboard user, over a copy of the
    # source that user can read (a home folder is 0700 on Bookworm and Trixie) and the new
    # venv lent to it for the build; the venv goes back to root afterwards, so the service
    # cannot change its own code. --no-cache-dir: a Pi Zero 2 W has 512 MB of RAM and a
    # small SD card.
    local src=$SOURCE stage status=0 extra wheel builds=lgpio
    extra=$(pi_extra)
    [[ $extra == pi ]] && builds="lgpio and rpi-ws281x"
    # PYPI=1: lgpio's setup.py then links its own C sources in statically (its PyPI
    # wheels are built so), instead of wanting liblgpio-dev (see apt_packages).
    local pip=(env MAKEFLAGS=-j1 PYPI=1 "$new/bin/pip" --no-cache-dir --disable-pip-version-check -q)
    stage=$(mktemp -d "${TMPDIR:-/tmp}/riskboard-build.XXXXXX")
    if [[ -d $SOURCE ]]; then
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./build \
            --exclude=__pycache__ -cf - . |
            tar -C "$stage" -xf -
        src=$stage
    fi
    mkdir "$stage/dist"
    if [[ ! -d $SOURCE ]]; then # a wheel: install a copy the riskboard user can read
        cp -- "$SOURCE" "$stage/dist/"
        wheel=$stage/dist/${SOURCE##*/}
    fi
    if ((DO_USERADD)); then
        chown -R "$APP_USER:$APP_USER" "$stage" "$new"
        pip=(runuser -u "$APP_USER" -- env "HOME=$stage" "${pip[@]}")
    fi
    # Debian's pip 23.0 would build rpi-ws281x with the deprecated `setup.py install`.
    say "upgrading pip, setuptools and wheel in the venv"
    "${pip[@]}" install --upgrade pip setuptools wheel || status=$?
    # The package is built once, into a wheel; both installs below use that wheel.
    if ((status == 0)) && [[ -d $SOURCE ]]; then
        say "building riskboard from $SOURCE"
        "${pip[@]}" wheel --no-deps --wheel-dir "$stage/dist" "$src" || status=$?
        wheel=$(find "$stage/dist" -name 'riskboard-*.whl' | head -n 1)
    fi
    if ((status == 0)); then
        say "installing riskboard[$extra] (a few minutes on a Pi Zero 2 W: pip may build $builds)"
        "${pip[@]}" install --upgrade "${wheel}[$extra]" || status=$?
    fi
    if ((status == 0)); then
        # Same version number, new code: make sure this code replaces the old.
        "${pip[@]}" install --force-reinstall --no-deps "$wheel" || status=$?
    fi
    if ((DO_USERADD)); then
        chown -R root:root "$new"
    fi
    rm -rf -- "$stage"
    if ((status == 0)) && [[ -e $R$CONF ]]; then
        # The new version loads the config it will run with, before anything is switched.
        if ! PYTHONPATH="" "$new/bin/python" -m pi_app.config --install-settings "$R$CONF" >/dev/null; then
            status=1
            warn "the new version cannot load ${CONF} (above)"
        fi
    fi
    if ((status != 0)); then
        rm -rf -- "$new"
        NEW_RELEASE=""
        if [[ -n $current ]]; then
            die "the update could not be installed (pip, above; a network problem?); the running version was not touched and is still running: fix the cause and run install.sh again"
        fi
        die "pip could not install riskboard (above): fix the cause (a network problem?) and run install.sh again"
    fi
}

# switch_release: point $VENV at the release just built (an atomic rename of a new link),
# remembering what it pointed to. An install from before releases moves its venv folder
# into releases/ first, so it can be switched back to.
switch_release() {
    [[ -n $NEW_RELEASE ]] || return 0
    local current link=$R$VENV.new-link
    current=$(current_release)
    if [[ -n $current && ! -L $R$VENV ]]; then
        local legacy
        legacy=$R$RELEASES/$(release_id)-before-releases
        mv -T -- "$R$VENV" "$legacy"
        current=$legacy
    fi
    PREVIOUS_RELEASE=$current
    ln -sfn -- "releases/${NEW_RELEASE##*/}" "$link"
    mv -T -- "$link" "$R$VENV"
}

# switch_back: the new release did not start; the link goes back to the old one.
switch_back() {
    [[ -n $PREVIOUS_RELEASE ]] || return 1
    local link=$R$VENV.new-link
    if [[ $PREVIOUS_RELEASE == *-before-releases ]]; then
        rm -f -- "$R$VENV"
        mv -T -- "$PREVIOUS_RELEASE" "$R$VENV"
    else
        ln -sfn -- "releases/${PREVIOUS_RELEASE##*/}" "$link"
        mv -T -- "$link" "$R$VENV"
    fi
    rm -rf -- "$NEW_RELEASE"
}

# prune_releases: keep the running release and the one before it; delete the others.
prune_releases() {
    local keep_now keep_before release
    keep_now=$(current_release)
    keep_before=$PREVIOUS_RELEASE
    [[ -d $R$RELEASES ]] || return 0
    for release in "$R$RELEASES"/*; do
        [[ -d $release ]] || continue
        [[ $release == "$keep_now" || $release == "$keep_before" ]] && continue
        rm -rf -- "$release"
        say "removed the old version ${release#"$R"}"
    done
}

# check_data_dir: stop (before anything is changed by pip or chown) unless the configured
# folder may be riskboard's: a plain absolute path outside system and home folders that is
# new, empty, marked by an earlier install, or holds only riskboard's own files.
check_data_dir() {
    local problem path foreign
    problem=$(data_dir_problem "$RAW_DATA_DIR" "$DATA_DIR")
    [[ -z $problem ]] || die "$problem. Nothing was changed."
    [[ $DATA_DIR == / ]] || DATA_DIR=${DATA_DIR%/}
    path=$R$DATA_DIR
    if [[ -L $path ]]; then
        die "storage.data_dir = \"$DATA_DIR\" is a symbolic link: name the real folder. Nothing was changed."
    fi
    if [[ -e $path && ! -d $path ]]; then
        die "storage.data_dir = \"$DATA_DIR\" exists and is not a folder. Nothing was changed."
    fi
    if [[ -d $path && ! -f $path/$DATA_MARKER ]]; then
        foreign=$(foreign_entry "$path")
        if [[ -n $foreign ]]; then
            die "storage.data_dir = \"$DATA_DIR\" already holds files riskboard did not put there (e.g. '$foreign'): point it at a new or empty folder. Nothing was changed."
        fi
    fi
}

# data_folder: create the checked folder, mark it as riskboard's, give it to the user.
data_folder() {
    local path=$R$DATA_DIR
    make_dir "$path" 0700
    put_text "$path/$DATA_MARKER" 0644 <<'EOF' || true
This folder holds riskboard's games. `install.sh uninstall --purge` deletes only
riskboard's own files here (journal, seat tokens, host PIN, link position, this file).
EOF
    if ((DO_USERADD)); then
        # -R: a run as root (ws281x on PWM) may have left root-owned files behind.
        chown -R "$APP_USER:$APP_USER" "$path"
    fi
}

# purge_data: delete riskboard's own files from its data folder, and the folder if that
# leaves it empty; a folder that is not riskboard's is left whole.
purge_data() {
    local path=$R${DATA_DIR%/} problem own
    problem=$(data_dir_problem "$RAW_DATA_DIR" "$DATA_DIR")
    if [[ -n $problem ]]; then
        warn "kept ${DATA_DIR}: $problem"
        return 0
    fi
    [[ -d $path && ! -L $path ]] || return 0
    if [[ ! -f $path/$DATA_MARKER && -n $(foreign_entry "$path") ]]; then
        warn "kept ${DATA_DIR}: it has no $DATA_MARKER marker and holds files that are not riskboard's"
        return 0
    fi
    for own in "${DATA_FILES[@]}"; do
        if [[ -f $path/$own && ! -L $path/$own ]]; then
            rm -f -- "$path/$own"
            say "removed ${DATA_DIR%/}/$own"
            CHANGED=$((CHANGED + 1))
        fi
    done
    if rmdir -- "$path" 2>/dev/null; then
        say "removed ${DATA_DIR}"
    else
        warn "kept ${DATA_DIR}: it still holds files that are not riskboard's"
    fi
}

# Drop-ins the config calls for; stale ones are removed so re-runs converge.
service_dropins() {
    local data_dir=$DATA_DIR backend=$LED_BACKEND pin=$LED_PIN port=$WEB_PORT
    if [[ $backend == ws281x && $pin != 10 ]]; then
        warn "leds.backend = \"ws281x\" on GPIO $pin uses DMA and runs the service as root;" \
            "GPIO 10 (SPI) or the \"bridge\" backend would not"
        put_file "$SCRIPT_DIR/ws281x-root.conf" "$R$DROPIN_DIR/ws281x-root.conf" 0644 || true
    else
        remove_path "$R$DROPIN_DIR/ws281x-root.conf"
    fi
    if [[ $data_dir != "$DEFAULT_DATA_DIR" ]]; then
        put_text "$R$DROPIN_DIR/data-dir.conf" 0644 <<EOF || true
# riskboard drop-in, written by install.sh: config.toml moves storage.data_dir.
[Service]
ReadWritePaths=$data_dir
WorkingDirectory=$data_dir
EOF
    else
        remove_path "$R$DROPIN_DIR/data-dir.conf"
    fi
    if ((port < 1024)); then
        put_file "$SCRIPT_DIR/low-port.conf" "$R$DROPIN_DIR/low-port.conf" 0644 || true
    else
        remove_path "$R$DROPIN_DIR/low-port.conf"
    fi
    if [[ -d $R$DROPIN_DIR ]] && [[ -z $(ls -A "$R$DROPIN_DIR") ]]; then
        rmdir "$R$DROPIN_DIR"
    fi
}

system_files() {
    UDEV_CHANGED=0
    if put_file "$SCRIPT_DIR/99-riskboard-pico.rules" "$R$UDEV_RULE" 0644; then UDEV_CHANGED=1; fi
    put_file "$SCRIPT_DIR/riskboard.service" "$R$UNIT" 0644 || true
    if [[ $(readlink "$R$BIN_LINK" 2>/dev/null) != "$VENV/bin/riskboard" ]]; then
        mkdir -p "$(dirname "$R$BIN_LINK")"
        ln -sfn "$VENV/bin/riskboard" "$R$BIN_LINK"
        say "linked ${BIN_LINK} -> $VENV/bin/riskboard"
        CHANGED=$((CHANGED + 1))
    fi
}

start_service() {
    case $SERVICES in
        none)
            say "leaving systemd and udev alone (--no-systemctl)"
            ;;
        offline)
            systemctl --root="$ROOT" --quiet enable "$UNIT_NAME"
            ;;
        live)
            if ((UDEV_CHANGED)); then
                # No udev daemon (a container, a chroot): the rule applies from the next boot.
                if udevadm control --reload-rules 2>/dev/null; then
                    udevadm trigger --subsystem-match=tty --action=add
                else
                    warn "udev is not running here: the Pico's name /dev/riskboard-pico comes with the next boot"
                fi
            fi
            systemctl daemon-reload
            systemctl --quiet enable "$UNIT_NAME"
            # restart, not start: an update must load the new code. The game in
            # progress resumes from its journal. The unit is Type=notify: restart returns
            # once the new version is READY, or fails when it does not start.
            if ! systemctl restart "$UNIT_NAME"; then
                if switch_back; then
                    systemctl restart "$UNIT_NAME" || true
                    die "the new version did not start (journalctl -u riskboard shows why); the previous version is running again$(systemctl is-active --quiet "$UNIT_NAME" || echo ' - or would be: it did not start either')"
                fi
                die "riskboard did not start: journalctl -u riskboard shows why"
            fi
            say "service (re)started: systemctl status riskboard; journalctl -u riskboard -f"
            ;;
    esac
}

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
