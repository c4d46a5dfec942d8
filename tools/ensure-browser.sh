#!/usr/bin/env bash
# What the browser tests need beyond the venv: Debian's Chromium (chromium-headless-shell,
# which the tests run, and chromium, which bench/page_weight.py runs), fonts for the Korean and
# Japanese pages (their screenshots must be legible), and axe-core from the npm registry
# (the accessibility check, installed under .venv/axe). Root installs the Debian packages
# (CI runs as root); otherwise it says what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
fc-list 2>/dev/null | grep -qi nanum || missing+=(fonts-nanum)
fc-list 2>/dev/null | grep -qi ipagothic || missing+=(fonts-ipafont-gothic)
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "note: missing ${missing[*]} and this is not root; browser tests will fail." >&2
    echo "      install them with: sudo apt-get install -y ${missing[*]}" >&2
  else
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
AXE_VERSION=4.14.1  # pinned: a new axe release may add rules, and the matrix would change with it
AXE_PACKAGE=.venv/axe/node_modules/axe-core/package.json
if ! grep -q "\"version\": \"$AXE_VERSION\"" "$AXE_PACKAGE" 2>/dev/null \
    && command -v npm >/dev/null 2>&1; then
  npm install --silent --no-audit --no-fund --save-exact --prefix .venv/axe \
    "axe-core@$AXE_VERSION" >/dev/null
fi
