#!/usr/bin/env bash
# make pi-check: riskboard installed and run the way a maker does it, on an arm64 Raspberry
# Pi OS (Bookworm) in a box, its Pico the real firmware on MicroPython on an emulated RP2040
# (tools/picobox, run on this host and plugged into the box: tools/pibox/usb.py), and the
# checks of issues 11 and 33.
# PIBOX_SUITE=trixie builds and boots Trixie instead, under a newer qemu-user (see below).
#
#   sudo tools/pibox/pi-check.sh           (make pi-check; CI runs it after make test)
#
# What it does, in order:
#  1. installs what this (amd64 Debian) machine needs: qemu-user-static, binfmt-support,
#     debootstrap, systemd-container (tools/pibox/host.sh);
#  2. builds the bare arm64 root filesystem once and caches it in
#     /var/cache/riskboard-pibox/SUITE-arm64 (tools/pibox/rootfs.sh; 14-35 minutes
#     depending on the load; PIBOX_CACHE moves it);
#  3. lays a throw-away copy over it (overlayfs) and gives it what a Pi has and a container
#     lacks: the firmware's /boot/firmware/config.txt, the Pi model in
#     /sys/firmware/devicetree/base/model (a Pi 4), a /dev/gpiochip0, and this checkout as
#     the git repository the maker clones (committed or not);
#  4. boots it with systemd-nspawn (tools/pibox/box.sh) and runs the checks
#     (`python -m tools.pibox`, one module a check in tools/pibox/checks/): README's
#     "Installing on the Pi" as the maker's own user, then checks 1-13 (the miswired board
#     brought up over HTTP, played, its Pico reset and its firmware updated with mpremote
#     among them), each failing the run with a sentence;
#  5. powers the box off (or kills it), unmounts and deletes the copy, whatever happened.
#
# PIBOX_BENCH: benches to run in the box (default bench.table_latency,bench.rules_engine;
# empty for none). PIBOX_KEEP=1 keeps the copy for a look afterwards.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=tools/pibox/host.sh
source "$HERE/host.sh"
# shellcheck source=tools/pibox/box.sh
source "$HERE/box.sh"

CACHE=${PIBOX_CACHE:-/var/cache/riskboard-pibox}
SUITE=${PIBOX_SUITE:-bookworm}
export PIBOX_SUITE=$SUITE
BENCH=${PIBOX_BENCH-bench.table_latency,bench.rules_engine}
PYTHON=${PIBOX_PYTHON:-$REPO/.venv/bin/python}
PI_MODEL="Raspberry Pi 4 Model B Rev 1.4"

[[ $EUID == 0 ]] || pibox_fail "the Pi box needs root (debootstrap, mounts, systemd-nspawn): sudo make pi-check"
[[ -x $PYTHON ]] || pibox_fail "no $PYTHON: run make test (or make .venv/.installed) first"
T0=$SECONDS
# One box at a time: it uses the host's port 8080 (the container shares the network).
mkdir -p "$(dirname "$CACHE")"
exec 8>"$CACHE.run.lock"
flock -w 3600 8 || pibox_fail "another pi-check has held $CACHE.run.lock for an hour"
# The timings below start once the box is ours (another run's hour is not this one's).
((SECONDS - T0 < 5)) || pibox_say "waited $((SECONDS - T0)) s for another box run to end"
T0=$SECONDS
# Something else on 8080 (a test's server, a `make run`) may be about to go: wait for it
# a while before giving up.
for ((waited = 0; ; waited += 5)); do
    (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null || break
    ((waited < 300)) || pibox_fail "port 8080 has been taken on this machine for 5 minutes" \
        "($(ss -Hltnp 'sport = :8080' 2>/dev/null | grep -o 'users:.*' | head -n 1));" \
        "the box shares its network and the service needs it"
    ((waited)) || pibox_say "port 8080 is taken on this machine; waiting up to 5 minutes for it"
    sleep 5
done

pibox_host_packages
pibox_binfmt
# Trixie's systemd 257 needs qemu-user 11.1 or newer (Debian Bookworm's 7.2 refuses its
# pidfd_spawn(), and qemu before 11 leaves statx()'s stx_mnt_id 0, which breaks every unit's
# mount namespace): the box boots it under a newer qemu-aarch64 (host.sh's pibox_qemu says
# why in full; Bookworm keeps the host's).
if [[ $SUITE != bookworm ]]; then
    pibox_qemu "$CACHE"
    pibox_say "$SUITE runs under $("${PIBOX_QEMU:-qemu-aarch64-static}" --version | head -n 1)"
fi
pibox_say "step 1: the root filesystem"
"$HERE/rootfs.sh" "$CACHE" "$SUITE"
T_ROOTFS=$((SECONDS - T0))

WORK=$(mktemp -d /var/tmp/riskboard-pibox.XXXXXX)
ROOT=$WORK/root
# shellcheck disable=SC2317 # run by the EXIT trap below, which shellcheck does not follow
cleanup() {
    local status=$?
    set +e
    box_stop
    pibox_binfmt_restore
    if mountpoint -q "$ROOT"; then umount "$ROOT" || umount -l "$ROOT"; fi
    if [[ ${PIBOX_KEEP:-0} == 1 ]]; then
        pibox_say "kept $WORK (PIBOX_KEEP=1)"
    else
        rm -rf --one-file-system "$WORK"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

pibox_say "step 2: a throw-away copy of it, made into a Pi 4"
mkdir -p "$ROOT" "$WORK/upper" "$WORK/work"
if ! mount -t overlay pibox -o "lowerdir=$CACHE/$SUITE-arm64,upperdir=$WORK/upper,workdir=$WORK/work" "$ROOT" 2>/dev/null; then
    pibox_say "no overlayfs here; copying the root filesystem instead"
    rmdir "$ROOT"
    cp -a "$CACHE/$SUITE-arm64" "$ROOT"
fi
# The firmware's settings file as a fresh Raspberry Pi OS image has it.
install -D -m 0755 "$HERE/config.txt" "$ROOT/boot/firmware/config.txt" # vfat shows 0755
# The box's stand-in for the GPIO header (see pibox-gpio.conf).
install -D -m 0644 "$HERE/pibox-gpio.conf" "$ROOT/usr/local/lib/pibox/pibox-gpio.conf"
# What a Pi's kernel shows and a container lacks, made at every boot of the box (a reboot
# is one of the checks): the Pi model and a GPIO chip node (pi-hardware.sh).
install -D -m 0644 "$HERE/pi-hardware.sh" "$ROOT/usr/local/lib/pibox/pi-hardware.sh"
printf '%s\n' "$PI_MODEL" >"$ROOT/usr/local/lib/pibox/model"
install -D -m 0644 "$HERE/pibox-pi-hardware.service" "$ROOT/etc/systemd/system/pibox-pi-hardware.service"
mkdir -p "$ROOT/etc/systemd/system/sysinit.target.wants"
ln -sfn ../pibox-pi-hardware.service "$ROOT/etc/systemd/system/sysinit.target.wants/pibox-pi-hardware.service"
# This checkout, as the repository the maker clones: HEAD plus any uncommitted change
# (made into a commit with a separate index, so the checkout itself is left alone).
git init -q --bare "$ROOT/srv/riskboard.git"
INDEX=$(mktemp)
(
    cd "$REPO"
    cp "$(git rev-parse --git-path index)" "$INDEX"
    export GIT_INDEX_FILE=$INDEX
    git add -A
    tree=$(git write-tree)
    commit=$(git -c user.name=pibox -c user.email=pibox@localhost commit-tree "$tree" \
        -p HEAD -m "pibox: this checkout as it is")
    git push -q "$ROOT/srv/riskboard.git" "$commit:refs/heads/main"
)
rm -f "$INDEX"
git -C "$ROOT/srv/riskboard.git" symbolic-ref HEAD refs/heads/main
# The maker's repository is theirs (git refuses to read one owned by someone else).
chown -R "$(awk -F: '$1 == "maker" { print $3 ":" $4 }' "$ROOT/etc/passwd")" "$ROOT/srv/riskboard.git"

pibox_say "step 3: booting the box"
pibox_binfmt_credentials
B0=$SECONDS
box_boot "$ROOT" "$WORK/nspawn.log"
T_BOOT=$((SECONDS - B0))
box_run systemctl is-active --quiet pibox-pi-hardware.service ||
    pibox_fail "the box's stand-in for the Pi's device tree did not start: $(box_run systemctl status --no-pager pibox-pi-hardware 2>&1 | tail -n 5 | tr '\n' ' ')"
pibox_say "booted in ${T_BOOT} s"

pibox_say "step 4: the checks ($SUITE)"
# What the box cannot show: qemu-user turns each arm64 system call into the host's own, so
# the unit's SystemCallFilter= and SystemCallArchitectures= (seccomp) filter qemu's x86-64
# calls, not the Pi's. A call the filter would refuse on a Pi may pass here.
pibox_say "note: seccomp (SystemCallFilter=) is not enforced on the Pi's arm64 calls under qemu-user; only a real Pi shows that the filter lets the service run"
status=0
(cd "$REPO" && exec "$PYTHON" -m tools.pibox --leader "$BOX_LEADER" --nspawn "$BOX_NSPAWN" \
    --root "$ROOT" --bench "$BENCH") || status=$?
pibox_say "timings: root filesystem ${T_ROOTFS} s (cached when ~0), boot ${T_BOOT} s, whole run $((SECONDS - T0)) s"
exit "$status"
