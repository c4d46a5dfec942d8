#!/usr/bin/env bash
# The host side of the Pi box: what this (amd64 Debian) machine needs to run an arm64
# Raspberry Pi OS-like root filesystem with its own systemd. Sourced by pi-check.sh and
# rootfs.sh; nothing here is needed on a real Pi.

# Debian packages the box needs on the host. --no-install-recommends matters: the
# recommended libnss-mymachines would edit the host's /etc/nsswitch.conf.
readonly PIBOX_HOST_PACKAGES=(qemu-user-static binfmt-support debootstrap systemd-container
    debian-archive-keyring ca-certificates)

pibox_say() { printf 'pibox: %s\n' "$*" >&2; }
pibox_fail() {
    printf 'pibox: FAILED: %s\n' "$*" >&2
    exit 1
}

# retry N CMD...: run CMD up to N times, 10 s, 20 s, ... apart (the network flickers).
retry() {
    local tries=$1 n=1
    shift
    until "$@"; do
        ((n >= tries)) && return 1
        pibox_say "retrying in $((n * 10)) s: $*"
        sleep $((n * 10))
        n=$((n + 1))
    done
}

# Install the host packages that are missing (apt, as root).
pibox_host_packages() {
    local missing=() pkg
    for pkg in "${PIBOX_HOST_PACKAGES[@]}"; do
        [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) == *"ok installed" ]] || missing+=("$pkg")
    done
    ((${#missing[@]})) || return 0
    pibox_say "installing host packages: ${missing[*]}"
    retry 3 apt-get update -q || pibox_fail "apt-get update failed on the host"
    retry 3 env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${missing[@]}" || pibox_fail "could not install ${missing[*]} on the host"
}

# Make arm64 programs run here: binfmt_misc mounted, qemu-aarch64 registered and enabled.
pibox_binfmt() {
    if [[ ! -e /proc/sys/fs/binfmt_misc/status ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
            pibox_fail "cannot mount binfmt_misc; arm64 programs cannot run on this machine"
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
        update-binfmts --import qemu-aarch64 >/dev/null 2>&1 || true
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    fi
    [[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]] ||
        pibox_fail "qemu-aarch64 is not registered in binfmt_misc (update-binfmts --enable qemu-aarch64)"
    grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        echo 1 >/proc/sys/fs/binfmt_misc/qemu-aarch64
    # The F flag loads the interpreter now, so the root filesystem needs no copy of it.
    grep -q '^flags:.*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 ||
        pibox_fail "qemu-aarch64 is registered without the F flag; reinstall qemu-user-static"
}

# Let setuid arm64 programs (sudo, which the maker's every root step goes through) run
# as they would on a Pi: binfmt_misc's C flag computes a program's credentials from the
# program rather than from qemu. Debian registers qemu without it (safer on a shared
# machine), so the box adds it for its run and pibox_binfmt_restore puts Debian's back.
PIBOX_BINFMT_RESTORE=""
pibox_binfmt_credentials() {
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64 flags interpreter magic mask
    flags=$(awk '/^flags:/ { print $2 }' "$entry")
    [[ $flags == *C* ]] && return 0
    interpreter=$(awk '/^interpreter/ { print $2 }' "$entry")
    magic=$(awk '/^magic/ { print $2 }' /usr/share/binfmts/qemu-aarch64)
    mask=$(awk '/^mask/ { print $2 }' /usr/share/binfmts/qemu-aarch64)
    [[ -n $magic && -n $mask && -n $interpreter ]] ||
        pibox_fail "cannot read qemu-aarch64's binfmt registration (/usr/share/binfmts/qemu-aarch64)"
    echo -1 >"$entry"
    printf ':qemu-aarch64:M:0:%s:%s:%s:%sOC' "$magic" "$mask" "$interpreter" "$flags" \
        >/proc/sys/fs/binfmt_misc/register
    PIBOX_BINFMT_RESTORE=":qemu-aarch64:M:0:$magic:$mask:$interpreter:$flags"
}

pibox_binfmt_restore() {
    [[ -n $PIBOX_BINFMT_RESTORE ]] || return 0
    echo -1 >/proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null || true
    printf '%s' "$PIBOX_BINFMT_RESTORE" >/proc/sys/fs/binfmt_misc/register
    PIBOX_BINFMT_RESTORE=""
}

# The Debian mirror this machine's apt already uses (its first plain "deb" source that is
# not the security archive), so the box never names a host of its own.
pibox_debian_mirror() {
    local files=() f
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [[ -f $f ]] && files+=("$f")
    done
    awk '
        # one-line format: deb [options] URI suite components
        FILENAME ~ /\.list$/ && $1 == "deb" {
            i = 2
            if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
            uri = $(i); suite = $(i + 1)
            if (uri !~ /security/ && suite !~ /-/ && uri ~ /debian\/?$/) { print uri; exit }
        }
        # deb822 format: paragraphs with Types:, URIs:, Suites:
        FILENAME ~ /\.sources$/ {
            if ($0 ~ /^[ \t]*$/) { types = ""; uris = "" ; next }
            if ($1 == "Types:") types = $0
            if ($1 == "URIs:") uris = $2
            if (types ~ /deb( |$)/ && uris != "" && uris !~ /security/ && uris ~ /debian\/?$/) { print uris; exit }
        }
    ' "${files[@]}"
}
