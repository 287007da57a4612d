#!/usr/bin/env bash
# `npm run cluster` and the cluster tests route with Debian's HAProxy (2.6 on bookworm).
exec bash "$(dirname "$0")/ensure-debian.sh" /usr/sbin/haproxy haproxy
