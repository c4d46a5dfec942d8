#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is missing (root only; CI runs as root).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "note: chromium is not installed and this is not root; browser tests will fail." >&2
  echo "      install it with: sudo apt-get install -y chromium" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
