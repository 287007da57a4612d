#!/usr/bin/env bash
# What the whole test suite needs on this machine, brought up when missing (CI runs it on a fresh machine):
# PostgreSQL on 127.0.0.1:5432 with a database `test`, Redis on 127.0.0.1:6379, Debian's HAProxy and
# Chromium. Shared services are only started, never restarted: tests use their own schemas and prefixes.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 -q && break; sleep 1; done
fi
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" | grep -q 1 \
  || createdb -h 127.0.0.1 -U postgres test

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /tmp
  for _ in $(seq 1 30); do redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi

bash scripts/ensure-haproxy.sh
bash scripts/ensure-chromium.sh
