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

# Every box script sources this file under `set -euo pipefail`: a command that stops one
# says where, so no run ends with a bare exit status (CI shows the script's output only).
# Only while errexit is on: a cleanup under `set +e` goes on past its failures in silence.
set -o errtrace
trap '[[ $- != *e* ]] || pibox_say "stopped: ${BASH_SOURCE[0]}:$LINENO: \`$BASH_COMMAND\` exited $?"' ERR

# pibox_clear_tree DIR: remove DIR, unmounting first whatever is mounted below it (a
# debootstrap or box cut off half way leaves /proc and more there); rm never crosses a mount.
# A tree with nothing mounted below it is the usual case: grep finding no line is no error.
pibox_clear_tree() {
    local dir=$1 target
    [[ -d $dir ]] || return 0
    { findmnt -rn -o TARGET | grep -F "$dir/" || true; } | sort -r | while read -r target; do
        umount -l "$target" || true
    done
    rm -rf --one-file-system "$dir"
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
# With PIBOX_QEMU set (pibox_qemu), that qemu-aarch64 is the interpreter for the run.
PIBOX_BINFMT_RESTORE=""
pibox_binfmt_credentials() {
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64 flags interpreter magic mask
    flags=$(awk '/^flags:/ { print $2 }' "$entry")
    interpreter=$(awk '/^interpreter/ { print $2 }' "$entry")
    [[ $flags == *C* && ( -z $PIBOX_QEMU || $interpreter == "$PIBOX_QEMU" ) ]] && return 0
    local debian_interpreter=$interpreter
    interpreter=${PIBOX_QEMU:-$interpreter}
    magic=$(awk '/^magic/ { print $2 }' /usr/share/binfmts/qemu-aarch64)
    mask=$(awk '/^mask/ { print $2 }' /usr/share/binfmts/qemu-aarch64)
    [[ -n $magic && -n $mask && -n $interpreter ]] ||
        pibox_fail "cannot read qemu-aarch64's binfmt registration (/usr/share/binfmts/qemu-aarch64)"
    echo -1 >"$entry"
    printf ':qemu-aarch64:M:0:%s:%s:%s:%sOC' "$magic" "$mask" "$interpreter" "${flags//[OC]/}" \
        >/proc/sys/fs/binfmt_misc/register
    PIBOX_BINFMT_RESTORE=":qemu-aarch64:M:0:$magic:$mask:$debian_interpreter:${flags//C/}"
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

# pibox_qemu CACHE: the qemu-aarch64 the box boots Trixie under, in PIBOX_QEMU. Two things in
# Trixie's systemd 257 need a newer qemu-user than Debian Bookworm's 7.2:
# - it starts every unit with pidfd_spawn() (clone3 with CLONE_PIDFD|CLONE_INTO_CGROUP),
#   which 7.2 answers EINVAL ("Failed to spawn executor: Invalid argument" for every unit);
# - it tells its sandbox's new root from the old one by statx()'s stx_mnt_id. qemu-user
#   before 11 says it filled stx_mnt_id (STATX_MNT_ID in stx_mask) but leaves it 0, so every
#   mount looks like "/": systemd skips pivot_root() into the sandbox and then fails on a
#   mount that is not there, and every unit with PrivateTmp=, ProtectSystem= and the other
#   mount-namespace settings fails 226/NAMESPACE ("Failed to set up mount namespacing:
#   Invalid argument"; found with QEMU_STRACE on systemd-executor: mount(NULL,
#   "/run/systemd/incoming", NULL, MS_SLAVE) = EINVAL right after a switch of root that
#   made no pivot_root() call). qemu 11 copies stx_mnt_id (linux-user: update statx
#   emulation); Debian's trixie-backports has 11.1.
# A host whose qemu-aarch64-static is older than PIBOX_QEMU_MIN gets the static qemu-aarch64
# of qemu-user from Debian's backports (its own release's and trixie-backports; the newest
# wins; a static binary runs on any amd64 Debian), fetched once by apt with lists of its own
# (the host's apt sources and packages are left alone) and kept in CACHE/qemu.
readonly PIBOX_QEMU_MIN=11.1
PIBOX_QEMU=""

# pibox_qemu_new_enough QEMU: whether that qemu-aarch64 is PIBOX_QEMU_MIN or newer.
pibox_qemu_new_enough() {
    local version
    version=$("$1" --version 2>/dev/null | sed -n 's/.*version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
    [[ -n $version ]] && printf '%s\n%s\n' "$PIBOX_QEMU_MIN" "$version" | sort -V -C
}

pibox_qemu() {
    local cache=$1 dir tmp codename mirror suite suites=()
    if pibox_qemu_new_enough qemu-aarch64-static; then
        PIBOX_QEMU="" # the host's own registration will do
        return 0
    fi
    # Debian's qemu knows binfmt_misc's P flag (argv[0] kept) by its name, *-binfmt-P: the
    # interpreter registered is a hard link of that name.
    dir=$cache/qemu
    if [[ -x $dir/aarch64-binfmt-P ]] && pibox_qemu_new_enough "$dir/qemu-aarch64"; then
        PIBOX_QEMU=$dir/aarch64-binfmt-P
        return 0
    fi
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
    mirror=$(pibox_debian_mirror)
    [[ -n $codename && -n $mirror ]] ||
        pibox_fail "qemu-aarch64-static is older than $PIBOX_QEMU_MIN and this is no Debian whose backports have a newer one; install qemu-user $PIBOX_QEMU_MIN or newer"
    suites=("$codename-backports")
    [[ $codename == trixie ]] || suites+=(trixie-backports)
    pibox_say "fetching qemu-user $PIBOX_QEMU_MIN or newer from ${suites[*]} (this host's qemu-aarch64-static is older; Trixie's systemd needs it)"
    tmp=$(mktemp -d)
    mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
    for suite in "${suites[@]}"; do
        printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
            "$mirror" "$suite"
    done >"$tmp/sources.list"
    local opts=(-q -o "Dir::Etc::sourcelist=$tmp/sources.list" -o Dir::Etc::sourceparts=-
        -o "Dir::State::lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" -o Dir::State::status=/dev/null
        -o APT::Sandbox::User=root)
    if ! retry 3 apt-get "${opts[@]}" update >"$tmp/apt.log" 2>&1 ||
        ! (cd "$tmp" && retry 3 apt-get "${opts[@]}" download qemu-user >>"$tmp/apt.log" 2>&1) ||
        ! dpkg-deb --fsys-tarfile "$tmp"/qemu-user_*.deb | tar -x -C "$tmp" ./usr/bin/qemu-aarch64; then
        local log
        log=$(tail -n 3 "$tmp/apt.log" | tr '\n' ' ')
        rm -rf "$tmp"
        pibox_fail "could not fetch qemu-user from ${suites[*]}: $log"
    fi
    if ! pibox_qemu_new_enough "$tmp/usr/bin/qemu-aarch64"; then
        local found
        found=$("$tmp/usr/bin/qemu-aarch64" --version 2>&1 | head -n 1)
        rm -rf "$tmp"
        pibox_fail "the newest qemu-user in ${suites[*]} is '$found'; the box needs $PIBOX_QEMU_MIN or newer for Trixie"
    fi
    install -D -m 0755 "$tmp/usr/bin/qemu-aarch64" "$dir/qemu-aarch64.new"
    mv -f "$dir/qemu-aarch64.new" "$dir/qemu-aarch64"
    ln -f "$dir/qemu-aarch64" "$dir/aarch64-binfmt-P"
    rm -rf "$tmp"
    PIBOX_QEMU=$dir/aarch64-binfmt-P
}
