#!/usr/bin/env bash
# The browser tests drive Debian's Chromium with playwright-core (no browser is ever downloaded by npm):
# mostly its headless shell, the build without the desktop browser around the page that Playwright itself
# uses for headless runs (about 40% less CPU for the same journeys, docs/BENCHMARKS.md "Test suite"), and
# the whole browser for the one journey that needs what the shell lacks (a notification permission).
# CJK fonts for the 中文 pages.
set -euo pipefail
here="$(dirname "$0")"
bash "$here/ensure-debian.sh" /usr/bin/chromium-headless-shell chromium-headless-shell fonts-noto-cjk
bash "$here/ensure-debian.sh" /usr/bin/chromium chromium
