#!/usr/bin/env bash
# Boot, enter and stop the Pi box: a copy of the cached arm64 root filesystem run by
# systemd-nspawn under qemu-user, with its own systemd as PID 1. Sourced by pi-check.sh.
#
# What was learnt making this work on a VM without systemd of its own:
# - the container boots only with `--register=no --keep-unit` (no machined here), and
#   `machinectl` cannot reach it: commands go in with nsenter into its namespaces;
# - it shares the host's network (ports, and the Debian and PyPI mirrors);
# - stop it with `systemctl poweroff` inside, or SIGKILL of its PID 1 — never SIGTERM,
#   which systemd takes as "re-execute yourself";
# - cgroup limits (TasksMax, MemoryMax) are shown but not enforced here, so the checks
#   measure threads and memory and compare them with the unit's numbers.
#
# Globals: BOX_ROOT (the root filesystem folder), BOX_LOG (nspawn's output),
# BOX_NSPAWN (its pid), BOX_LEADER (the container's PID 1, seen from the host).

BOX_NSPAWN=""
BOX_LEADER=""
readonly BOX_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# box_boot ROOT LOG: start systemd in ROOT and wait until it has finished booting.
box_boot() {
    BOX_ROOT=$1
    BOX_LOG=$2
    # systemd 256 and newer (Trixie's 257) refuse to boot on cgroup v1, which nspawn hands
    # a container on a host with the hybrid layout (this one): give it cgroup v2 alone.
    # Bookworm's 252 keeps what it was proven on.
    local unified=()
    [[ ${PIBOX_SUITE:-bookworm} == bookworm ]] || unified=(env SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1)
    # A reboot inside the box ends nspawn with 133 (--keep-unit asks for that, as a
    # service manager would restart it): the loop boots it again, like a Pi's power-on.
    (
        while :; do
            rc=0
            setsid "${unified[@]}" systemd-nspawn --quiet --boot --register=no --keep-unit \
                --directory="$BOX_ROOT" --machine=riskboard-pibox --hostname=raspberrypi \
                --resolv-conf=copy-host --timezone=off --console=read-only || rc=$?
            ((rc == 133)) || exit "$rc"
            echo "pibox: the box rebooted; booting it again"
        done
    ) </dev/null >"$BOX_LOG" 2>&1 &
    BOX_NSPAWN=$! # the loop around nspawn
    local deadline=$((SECONDS + 120))
    while [[ -z $BOX_LEADER ]]; do
        kill -0 "$BOX_NSPAWN" 2>/dev/null ||
            pibox_fail "systemd-nspawn stopped before the box booted: $(tail -n 5 "$BOX_LOG" | tr '\n' ' ')"
        ((SECONDS < deadline)) || pibox_fail "the box's systemd did not start within 120 s"
        BOX_LEADER=$(box_find_leader)
        [[ -n $BOX_LEADER ]] || sleep 1
    done
    box_wait_booted 600
}

# box_wait_booted SECONDS: wait until the box's systemd says its boot is over, and fail
# unless it is "running". `is-system-running --wait` returns once boot is over: "running",
# or "degraded" if a unit failed (named then, and the run fails: a Pi's boot should be
# clean). Until systemd has its control socket systemctl cannot reach it and answers
# nothing (systemd 252) or "offline" (257, Trixie): both mean "ask again", not a verdict
# (CI's Trixie box failed at once on an "offline" asked too early).
box_wait_booted() {
    local state="" deadline=$((SECONDS + $1))
    while [[ -z $state || $state == offline ]] && ((SECONDS < deadline)); do
        kill -0 "$BOX_LEADER" 2>/dev/null || pibox_fail "the box's systemd stopped while booting: $(tail -n 5 "$BOX_LOG" | tr '\n' ' ')"
        state=$(box_run timeout "$1" systemctl is-system-running --wait 2>/dev/null || true)
        [[ -n $state && $state != offline ]] || sleep 2
    done
    if [[ $state != running ]]; then
        box_run systemctl --no-pager --failed >&2 || true
        tail -n 20 "$BOX_LOG" >&2 || true # CI shows only what the script prints
        pibox_fail "the box's boot ended '${state:-without an answer}', not 'running' (failed units and the boot's last lines above; log $BOX_LOG)"
    fi
}

# box_find_leader: the container's PID 1 as the host sees it (a descendant of nspawn whose
# pid in its own namespace is 1); empty when there is none. A reboot of the box (nspawn
# starts it again) gives it a new one.
box_find_leader() {
    local pid level=("$BOX_NSPAWN") next _depth
    for _depth in 1 2 3 4; do # the loop, nspawn, (its helper,) the container's PID 1
        next=()
        for pid in "${level[@]}"; do
            # shellcheck disable=SC2207
            next+=($(pgrep -P "$pid"))
        done
        for pid in "${next[@]}"; do
            if [[ $(awk '/^NSpid:/ { print $NF }' "/proc/$pid/status" 2>/dev/null) == 1 ]]; then
                echo "$pid"
                return
            fi
        done
        level=("${next[@]}")
        ((${#level[@]})) || return 0
    done
}

# box_run CMD...: run CMD as root inside the box, with a clean environment (nothing of the
# host's pip or proxy settings leaks in).
box_run() {
    nsenter -t "$BOX_LEADER" -m -u -i -n -p -C -r -w -- \
        env -i PATH="$BOX_PATH" HOME=/root LANG=C.UTF-8 TERM=dumb "$@"
}

# box_maker 'shell commands': run them as the maker's own user, in their home folder,
# through a login shell as an SSH session would.
box_maker() {
    box_run runuser -u maker -- env -i PATH="$BOX_PATH" HOME=/home/maker USER=maker \
        LOGNAME=maker LANG=C.UTF-8 TERM=dumb bash -lc "cd ~ && $1"
}

# box_stop: power the box off (60 s), else SIGKILL its PID 1; always returns.
box_stop() {
    [[ -n $BOX_NSPAWN ]] || return 0
    BOX_LEADER=$(box_find_leader) # the checks may have rebooted the box
    if [[ -n $BOX_LEADER ]] && kill -0 "$BOX_LEADER" 2>/dev/null; then
        box_run systemctl poweroff --no-block >/dev/null 2>&1 || true
        local deadline=$((SECONDS + 60))
        while kill -0 "$BOX_NSPAWN" 2>/dev/null && ((SECONDS < deadline)); do sleep 1; done
        kill -0 "$BOX_NSPAWN" 2>/dev/null && kill -KILL "$BOX_LEADER" 2>/dev/null
    fi
    local deadline=$((SECONDS + 20))
    while kill -0 "$BOX_NSPAWN" 2>/dev/null && ((SECONDS < deadline)); do sleep 1; done
    if kill -0 "$BOX_NSPAWN" 2>/dev/null; then
        # nspawn's pid is read before the loop goes (once the loop is gone, nspawn belongs
        # to init and `pkill -P` finds nothing: a run left nspawn behind that way).
        local nspawn
        nspawn=$(pgrep -P "$BOX_NSPAWN")
        kill -KILL "$BOX_NSPAWN" 2>/dev/null # the loop first, so it boots nothing again
        # shellcheck disable=SC2086
        [[ -z $nspawn ]] || kill -KILL $nspawn 2>/dev/null
    fi
    wait "$BOX_NSPAWN" 2>/dev/null || true
    BOX_NSPAWN=""
    BOX_LEADER=""
}
