#!/usr/bin/env bash
# Makes a Chromium available for the dashboard's browser test (test/e2e/dashboard/) and prints its path, nothing else,
# on standard output. In this order: $CHROMIUM_PATH when it names a program, a `chromium` (or `chromium-browser`) on
# PATH, else Debian's `chromium` package through `apt-get install -y` (CI runs as root with the Debian registry and no
# standard input; the package lists are refreshed once when the first attempt fails). Exit 1, with the reason on
# standard error, when no browser can be had (not root, no apt-get, no registry): the test then skips, or fails on CI.
# Called by scripts/test.sh before the tests, and by the test itself when it runs alone.
set -uo pipefail

find_browser() {
  if [[ -n "${CHROMIUM_PATH:-}" && -x "${CHROMIUM_PATH}" ]]; then echo "$CHROMIUM_PATH"; return 0; fi
  local name
  for name in chromium chromium-browser; do
    if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  done
  return 1
}

if find_browser; then exit 0; fi

source "$(dirname "$0")/lib/apt-install.sh"
apt_install ensure-chromium chromium || exit 1

if find_browser; then exit 0; fi
echo "ensure-chromium: apt-get could not install chromium (no access to the Debian registry?)" >&2
exit 1
