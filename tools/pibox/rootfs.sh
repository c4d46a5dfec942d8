#!/usr/bin/env bash
# Build the bare arm64 root filesystem of the Pi box, once, and cache it outside the
# checkout: a Debian Bookworm (or Trixie) with what Raspberry Pi OS Lite brings that riskboard's
# install relies on (systemd, udev, sudo, Python 3.11, git) and a maker's user with sudo.
#
#   sudo tools/pibox/rootfs.sh [CACHE_DIR [SUITE]]   (default /var/cache/riskboard-pibox, bookworm)
#
# The result is CACHE_DIR/SUITE-arm64. debootstrap (~7 minutes) runs only when it is
# missing or half built; the few settings after it (`settle`, seconds) run again whenever
# this script's SETTLED version changes, so improving them needs no new debootstrap.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/pibox/host.sh
source "$HERE/host.sh"

CACHE=${1:-${PIBOX_CACHE:-/var/cache/riskboard-pibox}}
SUITE=${2:-${PIBOX_SUITE:-bookworm}}
ROOTFS=$CACHE/$SUITE-arm64
BOOTSTRAPPED=$ROOTFS.bootstrapped # debootstrap finished
SETTLED=$ROOTFS.settled           # holds the version of `settle` applied
readonly SETTLE_VERSION=3

# What a Raspberry Pi OS Lite image has that a minimal Debian does not, and that the
# install path touches: systemd as PID 1 with udev and D-Bus, sudo, Python 3, git (the
# README's first step installs it; having it already is harmless), and the tools a
# maker (and the checks) use: ps, ip, curl.
readonly BASE_PACKAGES=systemd,systemd-sysv,dbus,udev,sudo,ca-certificates,python3,git,procps,iproute2,curl,less
readonly MAKER=maker # the maker's own login user (the Pi Imager asks for one)
# Raspberry Pi OS puts its first user in these groups (gpio, spi, i2c: its device groups).
readonly MAKER_GROUPS=sudo,adm,dialout,gpio,spi,i2c,video,plugdev,users

[[ $EUID == 0 ]] || pibox_fail "building the root filesystem needs root (debootstrap, chroot)"
mkdir -p "$(dirname "$CACHE")"
exec 9>"$CACHE.lock"
flock -w 3600 9 || pibox_fail "another pi-check held $CACHE.lock for an hour"

# A debootstrap cut off half way can leave /proc (or more) mounted inside the root filesystem:
# pibox_clear_tree (host.sh) unmounts what is below it before removing it.
clear_rootfs() { pibox_clear_tree "$ROOTFS"; }

bootstrap() {
    local mirror attempt
    mirror=$(pibox_debian_mirror)
    [[ -n $mirror ]] || pibox_fail "found no Debian mirror in /etc/apt/sources.list*; debootstrap needs one"
    clear_rootfs
    rm -f "$BOOTSTRAPPED" "$SETTLED"
    mkdir -p "$CACHE"
    pibox_say "building $SUITE arm64 into $ROOTFS (debootstrap from apt's mirror, ~7 minutes)"
    for attempt in 1 2 3; do
        clear_rootfs
        if debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" \
            "$SUITE" "$ROOTFS" "$mirror" >"$CACHE/debootstrap-$SUITE.log" 2>&1; then
            # The same sources a Pi has: the release and its updates.
            printf 'deb %s %s main\ndeb %s %s-updates main\n' "$mirror" "$SUITE" "$mirror" "$SUITE" \
                >"$ROOTFS/etc/apt/sources.list"
            touch "$BOOTSTRAPPED"
            return 0
        fi
        pibox_say "debootstrap attempt $attempt failed: $(tail -n 3 "$CACHE/debootstrap-$SUITE.log" | tr '\n' ' ')"
        sleep $((attempt * 15))
    done
    pibox_fail "debootstrap of $SUITE arm64 failed three times (log: $CACHE/debootstrap-$SUITE.log)"
}

# The box runs commands with `env -i chroot`, so nothing of the host's environment leaks in.
in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$ROOTFS" "$@"; }

# settle: what makes the bare Debian a Pi's system and lets it boot in a container.
# Idempotent: it runs again over the same tree when SETTLE_VERSION changes.
settle() {
    local R=$ROOTFS unit group name
    # The host's locally added CA certificates (update-ca-certificates(8): they live in
    # /usr/local/share/ca-certificates), so pip inside trusts what pip here trusts.
    # Only when they changed: update-ca-certificates takes minutes under qemu.
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null &&
        ! diff -rq /usr/local/share/ca-certificates "$R/usr/local/share/ca-certificates" >/dev/null 2>&1; then
        mkdir -p "$R/usr/local/share/ca-certificates"
        cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
        in_root update-ca-certificates >/dev/null 2>&1
    fi
    echo raspberrypi >"$R/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' >"$R/etc/hosts"
    # The groups Raspberry Pi OS has for its devices (install.sh adds riskboard to them).
    for group in gpio spi i2c; do in_root groupadd -f --system "$group"; done
    if ! in_root id "$MAKER" >/dev/null 2>&1; then
        in_root useradd --create-home --shell /bin/bash "$MAKER"
    fi
    in_root usermod -a -G "$MAKER_GROUPS" "$MAKER"
    echo "$MAKER ALL=(ALL) NOPASSWD: ALL" >"$R/etc/sudoers.d/010_$MAKER-nopasswd"
    chmod 0440 "$R/etc/sudoers.d/010_$MAKER-nopasswd"
    # Under qemu-user every unit using LoadCredential= fails with 243/CREDENTIALS: a
    # drop-in empties the list for each stock unit that has one (and ImportCredential=,
    # which Trixie's systemd 257 units use the same way).
    local key reset
    for unit in "$R"/lib/systemd/system/*.service; do
        reset=""
        for key in LoadCredential ImportCredential; do
            grep -qs "^$key=" "$unit" && reset+="$key="$'\n'
        done
        [[ -n $reset ]] || continue
        name=${unit##*/}
        mkdir -p "$R/etc/systemd/system/$name.d"
        printf '# pibox: credentials fail under qemu-user (243/CREDENTIALS)\n[Service]\n%s' "$reset" \
            >"$R/etc/systemd/system/$name.d/pibox-no-credentials.conf"
    done
    # Nothing in the box needs a login prompt on a console.
    in_root systemctl mask console-getty.service getty@tty1.service serial-getty@.service \
        >/dev/null 2>&1 || true
    in_root apt-get clean
    echo "$SETTLE_VERSION" >"$SETTLED"
}

start=$SECONDS
if [[ ! -f $BOOTSTRAPPED || ! -x $ROOTFS/usr/bin/python3 ]]; then
    pibox_host_packages
    pibox_binfmt
    bootstrap
fi
if [[ $(cat "$SETTLED" 2>/dev/null) != "$SETTLE_VERSION" ]]; then
    pibox_binfmt
    settle
    pibox_say "root filesystem ready in $((SECONDS - start)) s: $ROOTFS"
else
    pibox_say "root filesystem cached: $ROOTFS"
fi
