# shellcheck shell=bash
# The system, checked before anything changes: root and Python (preflight), the OS, the
# architecture and the Pi model; and the apt packages the build needs. Sourced by
# deploy/install.sh (never run alone), which holds the settings and helpers used here and says the
# order of the steps.

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
