#!/usr/bin/env bash
# Node.js and npm for `make jscheck` (the pages' ESLint and node tests): Debian's packages,
# installed here when this is root (CI runs as root on a fresh machine); otherwise it says how
# and fails, since the checks must not pass without the pages' own.
set -euo pipefail
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "error: node or npm is missing and this is not root; install them with:" >&2
  echo "       sudo apt-get install -y nodejs npm" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq nodejs npm >/dev/null 2>&1 || {
  apt-get update -qq >/dev/null
  apt-get install -y -qq nodejs npm >/dev/null
}
