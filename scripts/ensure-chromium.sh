#!/usr/bin/env bash
# The browser tests drive Debian's chromium with playwright-core (no browser is ever downloaded by npm),
# with CJK fonts for the 中文 pages.
exec bash "$(dirname "$0")/ensure-debian.sh" /usr/bin/chromium chromium fonts-noto-cjk
