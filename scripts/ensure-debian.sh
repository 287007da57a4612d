#!/usr/bin/env bash
# Installs Debian packages the tests or tools need, when their program is missing:
#   bash scripts/ensure-debian.sh <program path> <package>...
# CI runs as root on a fresh machine. Safe to run concurrently: the install happens under a lock, once.
set -euo pipefail
program="$1"
shift
have() { [ -x "$program" ]; }
have && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
exec 9>/tmp/watergate-ensure-debian.lock
flock 9
have && exit 0
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "$@" >/dev/null
have
echo "installed $*"
