#!/usr/bin/env bash
# `npm run cluster` and the cluster tests route with Debian's HAProxy (2.6 on bookworm). Installs it when
# missing; CI runs as root on a fresh machine. Safe to run concurrently: the install happens under a lock.
set -euo pipefail
have() { command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ]; }
have && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
exec 9>/tmp/watergate-ensure-haproxy.lock
flock 9
have && exit 0
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends haproxy >/dev/null
have
echo "installed $(/usr/sbin/haproxy -v 2>/dev/null | head -1)"
