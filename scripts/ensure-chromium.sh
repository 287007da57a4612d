#!/usr/bin/env bash
# The browser tests drive Debian's chromium with playwright-core (no browser is ever downloaded by npm).
# Installs it (and CJK fonts for the 中文 pages) when missing; CI runs as root on a fresh machine.
# Safe to run concurrently: the install happens under a lock, once.
set -euo pipefail
have() { [ -x /usr/bin/chromium ]; }
have && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
exec 9>/tmp/watergate-ensure-chromium.lock
flock 9
have && exit 0
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
have
echo "installed $(/usr/bin/chromium --version 2>/dev/null | tail -1)"
