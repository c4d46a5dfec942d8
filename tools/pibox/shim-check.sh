#!/usr/bin/env bash
# make pi-shim-check: the REAL rpi-ws281x (SPI mode) and lgpio, under the project's own
# hardware/ classes, in an arm64 root filesystem under qemu-user, against the Pi devices that
# tools/pibox/shim/pibox_shim.c fakes at the system-call level (see its README).
#
#   sudo tools/pibox/shim-check.sh     (PIBOX_SUITE=bookworm by default; PIBOX_CACHE moves the cache)
#
# Steps:
#  1. the Pi box's cached root filesystem (tools/pibox/rootfs.sh), never changed here;
#  2. a tool layer cached beside it ($CACHE/shim-tools-$SUITE-arm64: gcc, python3-dev and a
#     venv with rpi-ws281x, lgpio and gpiozero from PyPI), rebuilt when the root filesystem
#     or this script's TOOLS_VERSION changes (~10 minutes under qemu, then cached);
#  3. a throw-away overlay over both, entered with chroot (no systemd: it is not needed to
#     run a library), where the box's own gcc builds pibox_shim.so;
#  4. with the shim preloaded: (a) a frame the LED strip on GPIO 10 shows lights the decoded
#     strip in the colours sent; (b) a press written to the shim's button FIFO from outside
#     reaches a control button through gpiozero's LGPIO factory; (c) where rpi-ws281x's own
#     start-up stops on each Pi model, and the sentence the maker reads.
# Each step fails the run with a sentence; the overlay is removed whatever happened.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
# shellcheck source=tools/pibox/host.sh
source "$HERE/host.sh"

CACHE=${PIBOX_CACHE:-/var/cache/riskboard-pibox}
SUITE=${PIBOX_SUITE:-bookworm}
BASE=$CACHE/$SUITE-arm64
TOOLS=$CACHE/shim-tools-$SUITE-arm64
readonly TOOLS_VERSION=2
readonly VENV=/opt/pibox-shim/venv
# What the project asks for on a Pi: pyproject.toml's dependencies and its pi extra
# (rpi-ws281x, lgpio); the project itself runs from the checkout (PYTHONPATH).
mapfile -t PI_PACKAGES < <(python3 "$HERE/shim_host.py" pi-packages "$REPO/pyproject.toml")
((${#PI_PACKAGES[@]})) || pibox_fail "found no dependencies in $REPO/pyproject.toml"
readonly SHIM_ENV=(PIBOX_SHIM_DIR=/run/pibox-shim LD_PRELOAD=/usr/local/lib/pibox_shim.so
    "PIBOX_SHIM_MODEL=Raspberry Pi 4 Model B Rev 1.4" PIBOX_SHIM_REVISION=c03114
    PYTHONPATH=/srv/shim:/srv/riskboard PYTHONDONTWRITEBYTECODE=1)

[[ $EUID == 0 ]] || pibox_fail "the shim check needs root (overlay mounts, chroot): sudo make pi-shim-check"
T0=$SECONDS
pibox_host_packages
pibox_binfmt
"$HERE/rootfs.sh" "$CACHE" "$SUITE"

MOUNTS=()
WORK=""
cleanup() {
    local status=$? m i
    set +e
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        m=${MOUNTS[i]}
        mountpoint -q "$m" && { umount "$m" || umount -l "$m"; }
    done
    [[ -n $WORK ]] && rm -rf --one-file-system "$WORK"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# mount_root DIR LOWER: an overlay with a fresh upper layer in $WORK, and what programs in a
# chroot need: /proc, and a /dev of its own with only the harmless nodes (no host disk, no
# /dev/mem: the shim is the only Pi device there).
mount_root() {
    local root=$1 lower=$2 n
    mkdir -p "$WORK/upper" "$WORK/work" "$root"
    mount -t overlay pibox-shim -o "lowerdir=$lower,upperdir=$WORK/upper,workdir=$WORK/work" "$root"
    MOUNTS+=("$root")
    mount -t proc proc "$root/proc"
    MOUNTS+=("$root/proc")
    mount -t tmpfs -o mode=0755 pibox-shim-dev "$root/dev"
    MOUNTS+=("$root/dev")
    for n in null zero full random urandom; do
        touch "$root/dev/$n"
        mount --bind "/dev/$n" "$root/dev/$n"
        MOUNTS+=("$root/dev/$n")
    done
    mkdir -p "$root/dev/shm" "$root/dev/pts"
    mount -t tmpfs pibox-shim-shm "$root/dev/shm"
    MOUNTS+=("$root/dev/shm")
    mount -t devpts -o newinstance,ptmxmode=0666 pibox-shim-pts "$root/dev/pts"
    MOUNTS+=("$root/dev/pts")
    ln -s pts/ptmx "$root/dev/ptmx"
    mount -t tmpfs -o mode=0755 pibox-shim-run "$root/run"
    MOUNTS+=("$root/run")
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
}

unmount_all() {
    local i
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount "${MOUNTS[i]}" || umount -l "${MOUNTS[i]}"; done
    MOUNTS=()
}

in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 chroot "$ROOT" "$@"; }

# Step 2: the tool layer, one build at a time.
exec 7>"$CACHE/shim.lock"
flock -w 3600 7 || pibox_fail "another shim check held $CACHE/shim.lock for an hour"
STAMP="$TOOLS_VERSION $(cat "$BASE.settled" 2>/dev/null) $(stat -c %Y "$BASE.bootstrapped") ${PI_PACKAGES[*]}"
T_TOOLS=0
if [[ $(cat "$TOOLS.stamp" 2>/dev/null) != "$STAMP" ]]; then
    pibox_say "shim step 1: the tool layer (gcc, python3-dev, ${PI_PACKAGES[*]}; ~4-10 minutes under qemu, once)"
    B0=$SECONDS
    rm -rf --one-file-system "$TOOLS" "$TOOLS.stamp"
    WORK=$(mktemp -d /var/tmp/riskboard-shim-tools.XXXXXX)
    ROOT=$WORK/root
    mount_root "$ROOT" "$BASE"
    packages=(gcc libc6-dev make python3-dev python3-venv swig)
    retry 3 in_root apt-get update -q >"$WORK/apt.log" 2>&1 ||
        pibox_fail "apt-get update failed in the arm64 root: $(tail -n 3 "$WORK/apt.log" | tr '\n' ' ')"
    retry 3 in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        "${packages[@]}" >>"$WORK/apt.log" 2>&1 ||
        pibox_fail "could not install ${packages[*]} in the arm64 root: $(tail -n 3 "$WORK/apt.log" | tr '\n' ' ')"
    in_root apt-get clean
    in_root python3 -m venv "$VENV"
    # PYPI=1: lgpio's sdist (Python 3.13 has no wheel) links its own C sources (as install.sh).
    retry 3 in_root env PYPI=1 "$VENV/bin/pip" install -q --disable-pip-version-check \
        "${PI_PACKAGES[@]}" >"$WORK/pip.log" 2>&1 ||
        pibox_fail "pip could not install ${PI_PACKAGES[*]} in the arm64 root: $(tail -n 3 "$WORK/pip.log" | tr '\n' ' ')"
    rm -f "$ROOT/etc/resolv.conf"
    unmount_all
    mv "$WORK/upper" "$TOOLS"
    rm -rf --one-file-system "$WORK"
    WORK=""
    echo "$STAMP" >"$TOOLS.stamp"
    T_TOOLS=$((SECONDS - B0))
fi
flock -u 7

# Step 3: the throw-away root, the project's hardware/ package and the shim built in it.
WORK=$(mktemp -d /var/tmp/riskboard-shim.XXXXXX)
ROOT=$WORK/root
mount_root "$ROOT" "$TOOLS:$BASE"
mkdir -p "$ROOT/srv/shim" "$ROOT/run/pibox-shim"
mkdir -p "$ROOT/srv/riskboard"
git -C "$REPO" ls-files -z --cached --others --exclude-standard | (cd "$REPO" && xargs -0 cp --parents -t "$ROOT/srv/riskboard" 2>/dev/null) || true
[[ -f $ROOT/srv/riskboard/pi_app/cli/__init__.py ]] || pibox_fail "could not copy this checkout into the arm64 root"
cp "$HERE/shim/pibox_shim.c" "$HERE/shim/probe.py" "$HERE/shim/Makefile" "$ROOT/srv/shim/"
pibox_say "shim step 2: building pibox_shim.so with the arm64 root's own gcc"
B0=$SECONDS
in_root make -s -C /srv/shim install PREFIX=/usr/local >"$WORK/build.log" 2>&1 ||
    pibox_fail "the shim did not build: $(tail -n 5 "$WORK/build.log" | tr '\n' ' ')"
T_BUILD=$((SECONDS - B0))
grep -q . "$WORK/build.log" && pibox_say "compiler said: $(tr '\n' ' ' <"$WORK/build.log")"

probe() { in_root env "${SHIM_ENV[@]}" "$VENV/bin/python" /srv/shim/probe.py "$@"; }
status=0
result() { # result NAME FILE: say the probe's last line; a failure fails the run
    # The probe's last result line: swig may print after it (at exit), and rpi-ws281x's
    # messages on stderr end without a newline, so one may stand before it on its line.
    local last
    last=$(grep -o '{"ok".*' "$2" | tail -n 1)
    if [[ $last == '{"ok": true'* ]]; then
        pibox_say "$1: ok: $last"
    else
        pibox_say "$1: FAILED: $last"
        sed 's/^/    /' "$2" >&2
        status=1
    fi
}

pibox_say "shim step 3a: the LED strip on GPIO 10 (rpi-ws281x, SPI) lights the decoded strip"
B0=$SECONDS
probe leds >"$WORK/leds.out" 2>&1 || true
result "LEDs" "$WORK/leds.out"
T_LEDS=$((SECONDS - B0))

pibox_say "shim step 3b: a press on GPIO 17 reaches the control button (gpiozero, lgpio)"
B0=$SECONDS
probe buttons >"$WORK/buttons.out" 2>&1 &
probe_pid=$!
wait_for() { # wait_for WORD: until the probe printed WORD (or ended, or 180 s)
    local deadline=$((SECONDS + 180))
    until grep -q "^$1" "$WORK/buttons.out"; do
        kill -0 "$probe_pid" 2>/dev/null || return 1
        ((SECONDS < deadline)) || return 1
        sleep 0.5
    done
}
FIFO=$ROOT/run/pibox-shim/buttons
if wait_for READY && [[ -p $FIFO ]]; then
    echo "17 0" >"$FIFO" # the contact closes: the line goes low (the button's pull-up)
    wait_for PRESSED || true
    sleep 0.2 # held longer than the 30 ms debounce
    echo "17 1" >"$FIFO"
else
    pibox_say "the button probe never became ready, or the shim made no FIFO at $FIFO"
fi
wait "$probe_pid" || true
result "buttons" "$WORK/buttons.out"
T_BUTTONS=$((SECONDS - B0))

pibox_say "shim step 3c: where rpi-ws281x's own start-up stops, model by model"
B0=$SECONDS
probe detect >"$WORK/detect.out" 2>&1 || true
"${PIBOX_PYTHON:-python3}" "$HERE/shim_host.py" detect-cases "$WORK/detect.out" >&2 || true
result "hardware detection" "$WORK/detect.out"
T_DETECT=$((SECONDS - B0))

pibox_say "shim step 3d: riskboard serve with its LEDs on rpi-ws281x and its buttons on lgpio; doctor"
B0=$SECONDS
SERVICE_PORT=8097
cp "$HERE/shim/service.toml" "$ROOT/srv/service.toml"
mkdir -p "$ROOT/run/riskboard"
RISKBOARD=(-c 'import sys; from pi_app.cli import main; sys.argv[0] = "riskboard"; sys.exit(main())')
# The service's own pid (the same seen from here: a chroot shares the pid namespace).
in_root env "${SHIM_ENV[@]}" LG_WD=/run/riskboard PYTHONUNBUFFERED=1 sh -c \
    'echo $$ >/run/riskboard/service.pid && exec "$@"' sh "$VENV/bin/python" "${RISKBOARD[@]}" \
    serve --config /srv/service.toml >"$WORK/service.out" 2>&1 &
for ((i = 0; i < 60; i++)); do [[ -s $ROOT/run/riskboard/service.pid ]] && break; sleep 0.5; done
service_pid=$(cat "$ROOT/run/riskboard/service.pid" 2>/dev/null || echo "$!")
service_says() { grep -q "$1" "$WORK/service.out"; }
wait_service() { # wait_service PATTERN SECONDS: until the service's output has it
    local deadline=$((SECONDS + $2))
    until service_says "$1"; do
        kill -0 "$service_pid" 2>/dev/null || return 1
        ((SECONDS < deadline)) || return 1
        sleep 1
    done
}
service_problems=()
if ! wait_service "event=serve.ready" 180; then
    service_problems+=("the service did not become ready within 180 s")
elif ! wait_service "event=controls.open" 60; then
    service_problems+=("the service never opened its control buttons")
else
    api_status=$(curl -fsS --max-time 30 "http://127.0.0.1:$SERVICE_PORT/api/status" || true)
    doctor=$(in_root env "${SHIM_ENV[@]}" "$VENV/bin/python" "${RISKBOARD[@]}" \
        doctor --config /srv/service.toml 2>&1 || true)
    leds_line=$(grep -E '^(ok|FAIL|WARN) +leds ' <<<"$doctor" || true)
    buttons_line=$(grep -E '^(ok|FAIL|WARN) +buttons ' <<<"$doctor" || true)
    pibox_say "doctor: $leds_line"
    pibox_say "doctor: $buttons_line"
    [[ $leds_line == ok*"ws281x: 135 LEDs"* ]] || service_problems+=("doctor's leds line does not say ws281x with the profile's 135 LEDs")
    [[ $buttons_line == ok*"gpiozero's LGPIO pins"* ]] || service_problems+=("doctor's buttons line does not say lgpio answered")
    [[ $api_status == *"gpiozero's LGPIO pins"* ]] || service_problems+=("/api/status does not say lgpio answered the buttons")
    frame=$(cat "$ROOT/run/pibox-shim/leds" 2>/dev/null || true)
    grep -qx 'leds 135' <<<"$frame" && grep -qx 'bad_symbols 0' <<<"$frame" && grep -qx 'speed_hz 2400000' <<<"$frame" ||
        service_problems+=("the service's LED frame did not decode to 135 LEDs at 2.4 MHz: $(head -n 9 <<<"$frame" | tr '\n' ' ')")
    # end_phase is GPIO 16 on classic-42; with no Pico there is no game, so the table
    # answers the press with its no_game refusal: the press reached the game's input.
    if service_says "code=no_game"; then
        service_problems+=("the table refused something before the press")
    else
        echo "16 0" >"$ROOT/run/pibox-shim/buttons"
        sleep 0.3
        echo "16 1" >"$ROOT/run/pibox-shim/buttons"
        wait_service "event=table.refused code=no_game" 60 ||
            service_problems+=("the end_phase press on GPIO 16 never reached the table")
    fi
fi
kill -INT "$service_pid" 2>/dev/null || true
for ((i = 0; i < 30; i++)); do kill -0 "$service_pid" 2>/dev/null || break; sleep 1; done
kill -KILL "$service_pid" 2>/dev/null || true
wait "$service_pid" 2>/dev/null || true
if ((${#service_problems[@]})); then
    pibox_say "the service: FAILED: ${service_problems[*]}"
    tail -n 30 "$WORK/service.out" | sed 's/^/    /' >&2
    status=1
else
    pibox_say "the service: ok: its ws281x frames decode to the profile's 135 LEDs, doctor and /api/status say LGPIO, a press on GPIO 16 reached the table"
fi
T_SERVICE=$((SECONDS - B0))

pibox_say "shim log (what the shim answered):"
sed -n '1,40p' "$ROOT/run/pibox-shim/log" | sed 's/^/    /' >&2 || true
pibox_say "shim timings: tool layer ${T_TOOLS} s (0 = cached), build ${T_BUILD} s, LEDs ${T_LEDS} s, buttons ${T_BUTTONS} s, detection ${T_DETECT} s, service ${T_SERVICE} s, whole run $((SECONDS - T0)) s"
((status == 0)) || pibox_fail "the shim check failed (above)"
pibox_say "shim check passed"
