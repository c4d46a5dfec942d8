# shellcheck shell=bash
# The releases an update switches between: the running one, the one built beside it, and the one
# before (to switch back to when a new one does not start). Sourced by deploy/install.sh (never
# run alone), which holds the settings and helpers used here and says the order of the steps.

# --- the program: each version in a venv of its own, switched only once it starts -------
#
# /opt/riskboard/venv is a link to the release the service runs, /opt/riskboard/releases/ID.
# An update builds the new release beside it (a copy of the running one, upgraded, so pip
# rebuilds nothing that did not change), points the link at it, and restarts; when the
# build fails (a Wi-Fi drop in pip) the running release was never touched, and when the
# new one does not start, the link goes back and the old one is started again. The
# release before the running one is kept for that; older ones are deleted.
readonly RELEASES=/opt/riskboard/releases
NEW_RELEASE=""      # the release this run built (empty: none)
PREVIOUS_RELEASE="" # what $VENV pointed to before the switch ("" = nothing)

# current_release: the folder $VENV stands for now (empty when there is none).
current_release() {
    if [[ -L $R$VENV ]]; then
        readlink -f "$R$VENV"
    elif [[ -d $R$VENV ]]; then
        echo "$R$VENV" # an install from before releases: the venv folder itself
    fi
}

# release_id: a new release's name (time of the build; a suffix if one has it already).
release_id() {
    local id n=1
    id=$(date -u +%Y%m%d-%H%M%S)
    while [[ -e $R$RELEASES/$id ]]; do id=$(date -u +%Y%m%d-%H%M%S)-$n; n=$((n + 1)); done
    echo "$id"
}

# switch_release: point $VENV at the release just built (an atomic rename of a new link),
# remembering what it pointed to. An install from before releases moves its venv folder
# into releases/ first, so it can be switched back to.
switch_release() {
    [[ -n $NEW_RELEASE ]] || return 0
    local current link=$R$VENV.new-link
    current=$(current_release)
    if [[ -n $current && ! -L $R$VENV ]]; then
        local legacy
        legacy=$R$RELEASES/$(release_id)-before-releases
        mv -T -- "$R$VENV" "$legacy"
        current=$legacy
    fi
    PREVIOUS_RELEASE=$current
    ln -sfn -- "releases/${NEW_RELEASE##*/}" "$link"
    mv -T -- "$link" "$R$VENV"
}

# switch_back: the new release did not start; the link goes back to the old one.
switch_back() {
    [[ -n $PREVIOUS_RELEASE ]] || return 1
    local link=$R$VENV.new-link
    if [[ $PREVIOUS_RELEASE == *-before-releases ]]; then
        rm -f -- "$R$VENV"
        mv -T -- "$PREVIOUS_RELEASE" "$R$VENV"
    else
        ln -sfn -- "releases/${PREVIOUS_RELEASE##*/}" "$link"
        mv -T -- "$link" "$R$VENV"
    fi
    rm -rf -- "$NEW_RELEASE"
}

# prune_releases: keep the running release and the one before it; delete the others.
prune_releases() {
    local keep_now keep_before release
    keep_now=$(current_release)
    keep_before=$PREVIOUS_RELEASE
    [[ -d $R$RELEASES ]] || return 0
    for release in "$R$RELEASES"/*; do
        [[ -d $release ]] || continue
        [[ $release == "$keep_now" || $release == "$keep_before" ]] && continue
        rm -rf -- "$release"
        say "removed the old version ${release#"$R"}"
    done
}
