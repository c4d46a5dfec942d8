# shellcheck shell=bash
# Small idempotent file operations (put_file, put_text, remove_path, make_dir): each counts what
# it changed, so a second run with nothing new says so. Sourced by deploy/install.sh (never run
# alone), which holds the settings and helpers used here and says the order of the steps.

# --- small idempotent file operations ----------------------------------------

# put_file SRC DEST MODE: copy only when the content or mode differs.
put_file() {
    local src=$1 dest=$2 mode=$3
    if [[ -f $dest ]] && cmp -s "$src" "$dest"; then
        if [[ $(stat -c %a "$dest") != "${mode#0}" ]]; then
            chmod "$mode" "$dest"
            CHANGED=$((CHANGED + 1))
        fi
        return 1
    fi
    mkdir -p "$(dirname "$dest")"
    install -m "$mode" "$src" "$dest"
    say "wrote ${dest#"$R"}"
    CHANGED=$((CHANGED + 1))
    return 0
}

# put_text DEST MODE <<< text: like put_file, from stdin.
put_text() {
    local dest=$1 mode=$2 tmp status=0
    tmp=$(mktemp)
    cat >"$tmp"
    put_file "$tmp" "$dest" "$mode" || status=$?
    rm -f "$tmp"
    return "$status"
}

remove_path() {
    local path=$1
    if [[ -e $path || -L $path ]]; then
        rm -rf -- "$path"
        say "removed ${path#"$R"}"
        CHANGED=$((CHANGED + 1))
    fi
}

make_dir() {
    local dir=$1 mode=$2
    if [[ ! -d $dir ]]; then
        mkdir -p "$dir"
        say "created ${dir#"$R"}"
        CHANGED=$((CHANGED + 1))
    fi
    [[ $(stat -c %a "$dir") == "${mode#0}" ]] || chmod "$mode" "$dir"
}
