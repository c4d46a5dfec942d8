# shellcheck shell=bash
# The config: read through riskboard's own loader, and a fresh one written for the Pi model on a
# first install (never overwritten after). Sourced by deploy/install.sh (never run alone), which
# holds the settings and helpers used here and says the order of the steps.

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
    # The settings the other steps read (unit.sh's drop-ins, install.sh's last words).
    # shellcheck disable=SC2034
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
        # shellcheck disable=SC2034
        DATA_DIR=$DEFAULT_DATA_DIR
        RAW_DATA_DIR=$DEFAULT_DATA_DIR
    fi
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
