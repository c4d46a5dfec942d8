# shellcheck shell=bash
# The systemd unit, its drop-ins, the udev rule and the riskboard command, and starting the
# service (switching back when a new version does not start). Sourced by deploy/install.sh (never
# run alone), which holds the settings and helpers used here and says the order of the steps.

# Drop-ins the config calls for; stale ones are removed so re-runs converge.
service_dropins() {
    # shellcheck disable=SC2153 # DATA_DIR is config.sh's read_config's, not a misspelling
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
