#!/usr/bin/env bash
# Makes Debian's Prometheus server and promtool available for the tests of the shipped alert rules (ops/prometheus/,
# test/ops/) and prints the folder holding both, nothing else, on standard output: `prometheus` and `promtool` on PATH,
# else Debian's `prometheus` package through `apt-get install -y` (CI runs as root with the Debian registry; the
# package's service is not started: the tests start their own server). Exit 1, with the reason on standard error, when
# they cannot be had: those tests then skip, or fail with CI=true. Called by scripts/test.sh and by the tests.
set -uo pipefail

find_prometheus() {
  if command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1; then
    dirname "$(command -v promtool)"
    return 0
  fi
  return 1
}

if find_prometheus; then exit 0; fi
source "$(dirname "$0")/lib/apt-install.sh"
# The package starts its service when installed, unless policy-rc.d says no: say no for this install only.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [[ ! -e $policy && $(id -u) -eq 0 ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
fi
apt_install ensure-prometheus prometheus
installed=$?
[[ $own_policy -eq 1 ]] && rm -f "$policy"
[[ $installed -eq 0 ]] || exit 1
if find_prometheus; then exit 0; fi
echo "ensure-prometheus: apt-get could not install prometheus" >&2
exit 1
