# shellcheck shell=bash
# The venv: the package's extra for this Pi, and a new release built by pip (as the riskboard
# user) beside the running one. Sourced by deploy/install.sh (never run alone), which holds the
# settings and helpers used here and says the order of the steps.

# pi_extra: the package's extra for this Pi: "pi" (rpi-ws281x for the LEDs, lgpio for the
# buttons), or "pi5" (lgpio only: rpi-ws281x cannot drive a Pi 5, whose LEDs go through
# the Pico, so it is not built there).
pi_extra() {
    case $(pi_model) in
        *"Raspberry Pi 500"* | *"Raspberry Pi 5"* | *"Compute Module 5"*) echo pi5 ;;
        *) echo pi ;;
    esac
}

# copy_release FROM TO: a working copy of venv FROM at TO: its scripts' #! lines name
# FROM's python, and now TO's (nothing else in a venv holds its own path).
copy_release() {
    local from=$1 to=$2 old script
    cp -a -- "$from" "$to"
    old=$(sed -n '1s|^#!\(.*\)/bin/python[0-9.]*$|\1|p' "$to/bin/pip" 2>/dev/null || true)
    [[ -n $old ]] || old=${from#"$R"}
    for script in "$to"/bin/*; do
        [[ -f $script && ! -L $script ]] || continue
        sed -i "1s|^#!$old/bin/|#!${to#"$R"}/bin/|" "$script"
    done
}

venv_and_package() {
    if ((!DO_PIP)); then
        say "skipping the venv and pip install (--no-pip)"
        return 0
    fi
    local current id new
    current=$(current_release)
    id=$(release_id)
    new=$R$RELEASES/$id
    mkdir -p "$R$RELEASES"
    NEW_RELEASE=$new
    if [[ -n $current && -x $current/bin/python ]]; then
        say "preparing the new version beside the running one (${RELEASES}/$id)"
        copy_release "$current" "$new"
    else
        say "creating the venv ${RELEASES}/$id"
        "$PYTHON" -m venv "$new"
    fi
    CHANGED=$((CHANGED + 1))
    # pip runs the build code of sdists (rpi-ws281x, lgpio have no wheels for every Pi), so
    # on a real install it runs as the unprivileged riskboard user, over a copy of the
    # source that user can read (a home folder is 0700 on Bookworm and Trixie) and the new
    # venv lent to it for the build; the venv goes back to root afterwards, so the service
    # cannot change its own code. --no-cache-dir: a Pi Zero 2 W has 512 MB of RAM and a
    # small SD card.
    local src=$SOURCE stage status=0 extra wheel builds=lgpio
    extra=$(pi_extra)
    [[ $extra == pi ]] && builds="lgpio and rpi-ws281x"
    # PYPI=1: lgpio's setup.py then links its own C sources in statically (its PyPI
    # wheels are built so), instead of wanting liblgpio-dev (see apt_packages).
    local pip=(env MAKEFLAGS=-j1 PYPI=1 "$new/bin/pip" --no-cache-dir --disable-pip-version-check -q)
    stage=$(mktemp -d "${TMPDIR:-/tmp}/riskboard-build.XXXXXX")
    if [[ -d $SOURCE ]]; then
        tar -C "$SOURCE" --exclude=./.git --exclude=./.venv --exclude=./build \
            --exclude=__pycache__ -cf - . |
            tar -C "$stage" -xf -
        src=$stage
    fi
    mkdir "$stage/dist"
    if [[ ! -d $SOURCE ]]; then # a wheel: install a copy the riskboard user can read
        cp -- "$SOURCE" "$stage/dist/"
        wheel=$stage/dist/${SOURCE##*/}
    fi
    if ((DO_USERADD)); then
        chown -R "$APP_USER:$APP_USER" "$stage" "$new"
        pip=(runuser -u "$APP_USER" -- env "HOME=$stage" "${pip[@]}")
    fi
    # Debian's pip 23.0 would build rpi-ws281x with the deprecated `setup.py install`.
    say "upgrading pip, setuptools and wheel in the venv"
    "${pip[@]}" install --upgrade pip setuptools wheel || status=$?
    # The package is built once, into a wheel; both installs below use that wheel.
    if ((status == 0)) && [[ -d $SOURCE ]]; then
        say "building riskboard from $SOURCE"
        "${pip[@]}" wheel --no-deps --wheel-dir "$stage/dist" "$src" || status=$?
        wheel=$(find "$stage/dist" -name 'riskboard-*.whl' | head -n 1)
    fi
    if ((status == 0)); then
        say "installing riskboard[$extra] (a few minutes on a Pi Zero 2 W: pip may build $builds)"
        "${pip[@]}" install --upgrade "${wheel}[$extra]" || status=$?
    fi
    if ((status == 0)); then
        # Same version number, new code: make sure this code replaces the old.
        "${pip[@]}" install --force-reinstall --no-deps "$wheel" || status=$?
    fi
    if ((DO_USERADD)); then
        chown -R root:root "$new"
    fi
    rm -rf -- "$stage"
    if ((status == 0)) && [[ -e $R$CONF ]]; then
        # The new version loads the config it will run with, before anything is switched.
        if ! PYTHONPATH="" "$new/bin/python" -m pi_app.config --install-settings "$R$CONF" >/dev/null; then
            status=1
            warn "the new version cannot load ${CONF} (above)"
        fi
    fi
    if ((status != 0)); then
        rm -rf -- "$new"
        # shellcheck disable=SC2034 # update.sh's, which now has no new release to switch to
        NEW_RELEASE=""
        if [[ -n $current ]]; then
            die "the update could not be installed (pip, above; a network problem?); the running version was not touched and is still running: fix the cause and run install.sh again"
        fi
        die "pip could not install riskboard (above): fix the cause (a network problem?) and run install.sh again"
    fi
}
