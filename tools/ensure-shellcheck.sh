#!/usr/bin/env bash
# ShellCheck for `make test` (and so CI): Debian's package, installed here when this is root
# (CI runs as root on a fresh machine); otherwise it says how and fails, since make test
# must not pass without linting the shell scripts.
set -euo pipefail
command -v shellcheck >/dev/null 2>&1 && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "error: shellcheck is missing and this is not root; install it with:" >&2
  echo "       sudo apt-get install -y shellcheck" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq shellcheck >/dev/null 2>&1 || {
  apt-get update -qq >/dev/null
  apt-get install -y -qq shellcheck >/dev/null
}
