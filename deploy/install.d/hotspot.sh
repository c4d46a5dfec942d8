# shellcheck shell=bash
# Away from home: the table's own Wi-Fi (--hotspot, NetworkManager) and its printable table card.
# Sourced by deploy/install.sh (never run alone), which holds the settings and helpers used here
# and says the order of the steps.

# --- away from home: the table's own Wi-Fi -----------------------------------------
#
# With --hotspot, NetworkManager gets a Wi-Fi access point profile, riskboard-hotspot,
# with the lowest autoconnect priority: at boot a known network in range wins, and with
# none the Pi runs its own (WPA2, the Pi at 10.42.0.1, phones get addresses from it).
# Once the hotspot is up it stays up until the next boot or `nmcli connection up <home>`.
readonly HOTSPOT_NAME=riskboard-hotspot
readonly HOTSPOT_ADDRESS=10.42.0.1
readonly TABLE_CARD=$CONF_DIR/table-card.svg

hotspot_checks() {
    ((HOTSPOT)) || return 0
    if [[ -n $HOTSPOT_PASSWORD ]] && ((${#HOTSPOT_PASSWORD} < 8 || ${#HOTSPOT_PASSWORD} > 63)); then
        die "--hotspot-password must be 8 to 63 characters (WPA2), got ${#HOTSPOT_PASSWORD}. Nothing was changed."
    fi
    if [[ -n $HOTSPOT_SSID ]] && ((${#HOTSPOT_SSID} > 32)); then
        die "--hotspot-ssid must be at most 32 characters, got ${#HOTSPOT_SSID}. Nothing was changed."
    fi
    if [[ $SERVICES == live ]] && ! command -v nmcli >/dev/null; then
        die "--hotspot needs NetworkManager (nmcli), which Raspberry Pi OS Bookworm and Trixie have; this system has none. Nothing was changed."
    fi
}

# hotspot: create or update NetworkManager's profile, then write the table card.
hotspot() {
    ((HOTSPOT)) || return 0
    local ssid=$HOTSPOT_SSID password=$HOTSPOT_PASSWORD verb=add
    [[ -n $ssid ]] || ssid="riskboard-$(hostname 2>/dev/null || echo table)"
    ssid=${ssid:0:32}
    if [[ $SERVICES == live ]] && nmcli -t -f NAME connection show | grep -qx "$HOTSPOT_NAME"; then
        verb=modify
        [[ -n $password ]] || password=$(nmcli -s -g 802-11-wireless-security.psk connection show "$HOTSPOT_NAME" 2>/dev/null || true)
    fi
    # 10 characters from a set with nothing to confuse (no 0/O, 1/l/I) when none was given
    [[ -n $password ]] || password=$(tr -dc 'abcdefghjkmnpqrstuvwxyz23456789' </dev/urandom | head -c 10)
    local settings=(connection.autoconnect yes connection.autoconnect-priority -100
        802-11-wireless.ssid "$ssid" 802-11-wireless.mode ap 802-11-wireless.band bg
        ipv4.method shared ipv4.addresses "$HOTSPOT_ADDRESS/24" ipv6.method ignore
        wifi-sec.key-mgmt wpa-psk wifi-sec.psk "$password")
    if [[ $SERVICES == live ]]; then
        if [[ $verb == add ]]; then
            nmcli connection add type wifi ifname wlan0 con-name "$HOTSPOT_NAME" "${settings[@]}" >/dev/null
        else
            nmcli connection modify "$HOTSPOT_NAME" "${settings[@]}"
        fi
        say "NetworkManager: $HOTSPOT_NAME '$ssid' comes up when no known Wi-Fi is in range (the Pi is then $HOTSPOT_ADDRESS)"
    else
        say "skipping NetworkManager (--services $SERVICES): the hotspot '$ssid' is only on the card"
    fi
    local card=$R$TABLE_CARD riskboard=$R$VENV/bin/riskboard
    [[ -x $riskboard ]] || riskboard=""
    local url="http://$HOTSPOT_ADDRESS"
    ((WEB_PORT == 80)) || url+=":$WEB_PORT"
    if [[ -n $riskboard ]]; then
        "$riskboard" table-card --url "$url" --wifi-ssid "$ssid" --wifi-password "$password" --out "$card" >/dev/null
    else
        PYTHONPATH=$(dirname "$SCRIPT_DIR") "$PYTHON" -m pi_app table-card --url "$url" \
            --wifi-ssid "$ssid" --wifi-password "$password" --out "$card" >/dev/null
    fi
    chmod 0644 "$card"
    CHANGED=$((CHANGED + 1))
    say "wrote the table card ${TABLE_CARD}: print it (its QR codes join '$ssid' and open $url)"
}
