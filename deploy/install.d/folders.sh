# shellcheck shell=bash
# The riskboard user and its folders: the system user and its groups, and the data folder, adopted
# only when it is riskboard's and purged of riskboard's files only. Sourced by deploy/install.sh
# (never run alone), which holds the settings and helpers used here and says the order of the
# steps.

system_user() {
    ((DO_USERADD)) || { say "skipping the '$APP_USER' user (--no-useradd or --root)"; return 0; }
    if ! getent passwd "$APP_USER" >/dev/null; then
        useradd --system --home-dir "$DEFAULT_DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --user-group "$APP_USER"
        say "created system user $APP_USER"
        CHANGED=$((CHANGED + 1))
    fi
    local group
    for group in "${USER_GROUPS[@]}"; do
        getent group "$group" >/dev/null || continue
        [[ " $(id -nG "$APP_USER") " == *" $group "* ]] && continue
        usermod -a -G "$group" "$APP_USER"
        say "added $APP_USER to group $group"
        CHANGED=$((CHANGED + 1))
    done
}

# --- the data folder: adopted only when it is riskboard's -------------------------

# Files riskboard itself writes in its data folder (the journal with SQLite's side files,
# seat tokens, the host PIN and the host's devices, the link position, the board profile
# learned at bring-up with its backup, and each one's half-written temporary) and
# install.sh's marker. Purge deletes these and nothing else (tests/deploy/test_install.py
# holds this list to the names in the code).
readonly DATA_MARKER=.riskboard-data
readonly DATA_FILES=(journal.sqlite journal.sqlite-wal journal.sqlite-shm journal.sqlite-journal
    seat_tokens.json seat_tokens.tmp host-pin host_devices.json host_devices.tmp
    link-position.json link-position.json.tmp
    board-profile.toml board-profile.toml.bak .board-profile.toml.new .board-profile.toml.bak.new
    "$DATA_MARKER")
# Folders that are never riskboard's own, nor may hold it: adopting one would chown it and
# purge would empty it.
readonly SYSTEM_DIRS=(/ /bin /boot /boot/firmware /dev /etc /home /lib /lib64 /lost+found
    /media /mnt /opt /proc /root /run /sbin /srv /sys /tmp /usr /usr/local /usr/bin /usr/lib
    /usr/share /var /var/lib /var/log /var/tmp /var/cache /var/local /var/opt /var/spool)

# Every user's home folder (from $R/etc/passwd in a --root install), except riskboard's.
user_homes() {
    local passwd_lines
    if ((LIVE)); then
        passwd_lines=$(getent passwd || true)
    else
        passwd_lines=$(cat "$R/etc/passwd" 2>/dev/null || true)
    fi
    awk -F: -v me="$APP_USER" '$1 != me && $6 != "" { print $6 }' <<<"$passwd_lines"
}

# data_dir_problem RAW DIR: prints why DIR (storage.data_dir, RAW as written in the config)
# cannot be the service's data folder; prints nothing when it can.
data_dir_problem() {
    local raw=$1 dir=$2 system home
    if [[ $raw == "~"* ]]; then
        echo "storage.data_dir = \"$raw\" starts with ~, which would mean root's home here and the service runs as '$APP_USER': write the full path, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ $dir =~ [[:space:]] ]]; then
        echo "storage.data_dir = \"$raw\" contains a space or tab; systemd would split it in ReadWritePaths=: choose a path without spaces, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ $dir != /* ]]; then
        echo "storage.data_dir = \"$raw\" is not an absolute path: write it starting with /, e.g. $DEFAULT_DATA_DIR"
        return
    fi
    if [[ /$dir/ == *"/./"* || /$dir/ == *"/../"* ]]; then
        echo "storage.data_dir = \"$raw\" contains . or .. parts: write the folder's plain path"
        return
    fi
    for system in "${SYSTEM_DIRS[@]}"; do
        if [[ $dir == "$system" ]]; then
            echo "storage.data_dir = \"$raw\" is a system folder; riskboard would take it over (and uninstall --purge would empty it): use a folder of its own, e.g. $DEFAULT_DATA_DIR"
            return
        fi
    done
    case $dir in
        /home/* | /root/*)
            echo "storage.data_dir = \"$raw\" is inside /home or /root, which the service cannot see (ProtectHome=yes): use a folder such as $DEFAULT_DATA_DIR or /srv/riskboard"
            return ;;
        /opt/riskboard | /opt/riskboard/* | "$CONF_DIR" | "$CONF_DIR"/* | /proc/* | /sys/* | /dev/* | /run/* | /tmp/*)
            echo "storage.data_dir = \"$raw\" lies in a folder that is not kept or is removed by install.sh: use a folder such as $DEFAULT_DATA_DIR"
            return ;;
    esac
    while IFS= read -r home; do
        [[ -n $home && $home != / ]] || continue
        if [[ $dir == "${home%/}" ]]; then
            echo "storage.data_dir = \"$raw\" is a user's home folder: use a folder of riskboard's own, e.g. $DEFAULT_DATA_DIR"
            return
        fi
    done < <(user_homes)
}

# foreign_entry DIR: the first entry of DIR that riskboard did not write (empty: none).
foreign_entry() {
    local dir=$1 entry name known
    for entry in "$dir"/* "$dir"/.[!.]* "$dir"/..?*; do
        [[ -e $entry || -L $entry ]] || continue
        name=${entry##*/}
        known=0
        for own in "${DATA_FILES[@]}"; do [[ $name == "$own" ]] && known=1; done
        if ((!known)) || [[ -L $entry || ! -f $entry ]]; then
            echo "$name"
            return
        fi
    done
}

# check_data_dir: stop (before anything is changed by pip or chown) unless the configured
# folder may be riskboard's: a plain absolute path outside system and home folders that is
# new, empty, marked by an earlier install, or holds only riskboard's own files.
check_data_dir() {
    local problem path foreign
    problem=$(data_dir_problem "$RAW_DATA_DIR" "$DATA_DIR")
    [[ -z $problem ]] || die "$problem. Nothing was changed."
    [[ $DATA_DIR == / ]] || DATA_DIR=${DATA_DIR%/}
    path=$R$DATA_DIR
    if [[ -L $path ]]; then
        die "storage.data_dir = \"$DATA_DIR\" is a symbolic link: name the real folder. Nothing was changed."
    fi
    if [[ -e $path && ! -d $path ]]; then
        die "storage.data_dir = \"$DATA_DIR\" exists and is not a folder. Nothing was changed."
    fi
    if [[ -d $path && ! -f $path/$DATA_MARKER ]]; then
        foreign=$(foreign_entry "$path")
        if [[ -n $foreign ]]; then
            die "storage.data_dir = \"$DATA_DIR\" already holds files riskboard did not put there (e.g. '$foreign'): point it at a new or empty folder. Nothing was changed."
        fi
    fi
}

# data_folder: create the checked folder, mark it as riskboard's, give it to the user.
data_folder() {
    local path=$R$DATA_DIR
    make_dir "$path" 0700
    put_text "$path/$DATA_MARKER" 0644 <<'EOF' || true
This folder holds riskboard's games. `install.sh uninstall --purge` deletes only
riskboard's own files here (journal, seat tokens, host PIN and devices, link position, the
board profile learned at bring-up and its backup, this file).
EOF
    if ((DO_USERADD)); then
        # -R: a run as root (ws281x on PWM) may have left root-owned files behind.
        chown -R "$APP_USER:$APP_USER" "$path"
    fi
}

# purge_data: delete riskboard's own files from its data folder, and the folder if that
# leaves it empty; a folder that is not riskboard's is left whole.
purge_data() {
    local path=$R${DATA_DIR%/} problem own
    problem=$(data_dir_problem "$RAW_DATA_DIR" "$DATA_DIR")
    if [[ -n $problem ]]; then
        warn "kept ${DATA_DIR}: $problem"
        return 0
    fi
    [[ -d $path && ! -L $path ]] || return 0
    if [[ ! -f $path/$DATA_MARKER && -n $(foreign_entry "$path") ]]; then
        warn "kept ${DATA_DIR}: it has no $DATA_MARKER marker and holds files that are not riskboard's"
        return 0
    fi
    for own in "${DATA_FILES[@]}"; do
        if [[ -f $path/$own && ! -L $path/$own ]]; then
            rm -f -- "$path/$own"
            say "removed ${DATA_DIR%/}/$own"
            CHANGED=$((CHANGED + 1))
        fi
    done
    if rmdir -- "$path" 2>/dev/null; then
        say "removed ${DATA_DIR}"
    else
        warn "kept ${DATA_DIR}: it still holds files that are not riskboard's"
    fi
}
