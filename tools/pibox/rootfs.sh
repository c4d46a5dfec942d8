#!/usr/bin/env bash
# Build the bare arm64 root filesystem of the Pi box, once, and cache it outside the
# checkout: a Debian Bookworm with what Raspberry Pi OS Lite brings that riskboard's
# install relies on (systemd, udev, sudo, Python 3.11, git) and a maker's user with sudo.
#
#   sudo tools/pibox/rootfs.sh [CACHE_DIR [SUITE]]   (default /var/cache/riskboard-pibox, bookworm)
#
# The result is CACHE_DIR/SUITE-arm64, complete only when CACHE_DIR/SUITE-arm64.done
# exists; a half-built one (interrupted) is deleted and built again. Takes ~7 minutes.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tools/pibox/host.sh
source "$HERE/host.sh"

CACHE=${1:-${PIBOX_CACHE:-/var/cache/riskboard-pibox}}
SUITE=${2:-${PIBOX_SUITE:-bookworm}}
ROOTFS=$CACHE/$SUITE-arm64
DONE=$ROOTFS.done

# What a Raspberry Pi OS Lite image has that a minimal Debian does not, and that the
# install path touches: systemd as PID 1 with udev and D-Bus, sudo, Python 3, git (the
# README's first step installs it; having it already is harmless), and the tools a
# maker (and the checks) use: ps, ip, curl.
readonly BASE_PACKAGES=systemd,systemd-sysv,dbus,udev,sudo,ca-certificates,python3,git,procps,iproute2,curl,less
readonly MAKER=maker     # the maker's own login user (the Pi Imager asks for one)

[[ $EUID == 0 ]] || pibox_fail "building the root filesystem needs root (debootstrap, chroot)"
if [[ -f $DONE && -x $ROOTFS/usr/bin/python3 ]]; then
    pibox_say "root filesystem cached: $ROOTFS"
    exit 0
fi
pibox_host_packages
pibox_binfmt
MIRROR=$(pibox_debian_mirror)
[[ -n $MIRROR ]] || pibox_fail "found no Debian mirror in /etc/apt/sources.list*; debootstrap needs one"

start=$SECONDS
rm -rf "$ROOTFS" "$ROOTFS.partial" "$DONE"
mkdir -p "$CACHE"
pibox_say "building $SUITE arm64 into $ROOTFS (debootstrap from apt's mirror, ~7 minutes)"
built=0
for attempt in 1 2 3; do
    rm -rf "$ROOTFS.partial"
    if debootstrap --arch=arm64 --variant=minbase --include="$BASE_PACKAGES" \
        "$SUITE" "$ROOTFS.partial" "$MIRROR" >"$CACHE/debootstrap.log" 2>&1; then
        built=1
        break
    fi
    pibox_say "debootstrap attempt $attempt failed: $(tail -n 3 "$CACHE/debootstrap.log" | tr '\n' ' ')"
    sleep $((attempt * 15))
done
((built)) || pibox_fail "debootstrap of $SUITE arm64 failed three times (log: $CACHE/debootstrap.log)"

R=$ROOTFS.partial
# The box runs commands with `env -i chroot`, so nothing of the host's environment leaks in.
in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$R" "$@"; }

# The host's locally added CA certificates (update-ca-certificates(8): they live in
# /usr/local/share/ca-certificates), so pip inside trusts what pip here trusts.
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    mkdir -p "$R/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null
fi

# The same sources a Pi would have: the release, its updates and security archive.
cat >"$R/etc/apt/sources.list" <<SOURCES
deb $MIRROR $SUITE main
deb $MIRROR $SUITE-updates main
SOURCES

echo raspberrypi >"$R/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' >"$R/etc/hosts"
# The groups Raspberry Pi OS has for its devices (install.sh adds riskboard to them).
for group in gpio spi i2c; do in_root groupadd -f --system "$group"; done
in_root useradd --create-home --shell /bin/bash --groups sudo,dialout,gpio,spi "$MAKER"
echo "$MAKER ALL=(ALL) NOPASSWD: ALL" >"$R/etc/sudoers.d/010_$MAKER-nopasswd"
chmod 0440 "$R/etc/sudoers.d/010_$MAKER-nopasswd"
# Under qemu-user, every unit using LoadCredential= fails with 243/CREDENTIALS (the
# emulator cannot do what systemd needs for it): mask it for the stock units that use it.
for unit in systemd-journald systemd-sysctl systemd-tmpfiles-setup systemd-tmpfiles-setup-dev \
    systemd-sysusers systemd-resolved systemd-networkd systemd-udevd; do
    if grep -qs '^LoadCredential' "$R/lib/systemd/system/$unit.service"; then
        mkdir -p "$R/etc/systemd/system/$unit.service.d"
        printf '# pibox: LoadCredential= fails under qemu-user (243/CREDENTIALS)\n[Service]\nLoadCredential=\n' \
            >"$R/etc/systemd/system/$unit.service.d/pibox-no-credentials.conf"
    fi
done
# Nothing in the box needs a login prompt on a console.
in_root systemctl mask console-getty.service getty@tty1.service serial-getty@.service >/dev/null 2>&1 || true
in_root apt-get clean
mv "$R" "$ROOTFS"
touch "$DONE"
pibox_say "root filesystem built in $((SECONDS - start)) s: $ROOTFS"
