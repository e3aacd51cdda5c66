#!/usr/bin/env bash
# Makes nftables' `nft` available for the fault tests (partitions and packet loss between loopback addresses,
# harness/nft.ts) and prints its path, nothing else, on standard output: an `nft` on PATH (or in /usr/sbin), else
# Debian's `nftables` package through `apt-get install -y` (CI runs as root with the Debian registry). Exit 1, with
# the reason on standard error, when it cannot be had or the kernel refuses a table (no CAP_NET_ADMIN): the fault
# tests then skip, or fail with CI=true. Called by scripts/test.sh before the tests, and by harness/nft.ts.
set -uo pipefail

find_nft() {
  if command -v nft >/dev/null 2>&1; then command -v nft; return 0; fi
  if [[ -x /usr/sbin/nft ]]; then echo /usr/sbin/nft; return 0; fi
  return 1
}

if ! nft_path=$(find_nft); then
  source "$(dirname "$0")/lib/apt-install.sh"
  apt_install ensure-nft nftables || exit 1
  nft_path=$(find_nft) || { echo "ensure-nft: apt-get could not install nftables" >&2; exit 1; }
fi

# The kernel must let this process create (and delete) a table of its own.
probe="ledger_probe_$$"
if ! "$nft_path" add table inet "$probe" 2>/dev/null; then
  echo "ensure-nft: the kernel refused an nftables table (root with CAP_NET_ADMIN is needed)" >&2
  exit 1
fi
"$nft_path" delete table inet "$probe"
echo "$nft_path"
