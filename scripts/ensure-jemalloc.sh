#!/usr/bin/env bash
# Prints the path of jemalloc's shared library (libjemalloc.so.2) on standard output, nothing else, for the node to run
# on it (LD_PRELOAD). Why: on jemalloc the node stores blocks about 12% faster than on glibc's malloc with a lower RSS,
# and the LevelDB binding's leak of empty values is a quarter as large (README, Pruning and snapshots). In this order: $LEDGER_NODE_ALLOCATOR when it names a file; the library where the dynamic linker or the
# usual Debian, Fedora, Alpine and /usr/local folders have it; else Debian's `libjemalloc2` package through
# `apt-get install -y` when running as root (the package lists are refreshed once when the first attempt fails).
# Exit 1, with the reason on standard error, when there is none (not Linux, not root, no apt-get, no registry) or when
# LEDGER_NODE_ALLOCATOR=glibc asks for none: the node then runs on the C library's malloc.
# Called by scripts/start.sh, and by benchmarks/pruning/run.ts.
set -uo pipefail

choice="${LEDGER_NODE_ALLOCATOR:-jemalloc}"
if [[ "$choice" == glibc || "$choice" == system ]]; then
  echo "ensure-jemalloc: LEDGER_NODE_ALLOCATOR=$choice: the C library's malloc" >&2
  exit 1
fi
if [[ "$choice" != jemalloc ]]; then
  if [[ -f "$choice" ]]; then echo "$choice"; exit 0; fi
  echo "ensure-jemalloc: LEDGER_NODE_ALLOCATOR=$choice is neither jemalloc, glibc nor a library file" >&2
  exit 1
fi
if [[ "$(uname -s)" != Linux ]]; then
  echo "ensure-jemalloc: not Linux: the system's malloc" >&2
  exit 1
fi

find_lib() {
  local path
  path=$(ldconfig -p 2>/dev/null | awk '/libjemalloc\.so\.2 /{print $NF; exit}')
  if [[ -n "$path" && -f "$path" ]]; then echo "$path"; return 0; fi
  for path in /usr/lib/"$(uname -m)"-linux-gnu/libjemalloc.so.2 /usr/lib64/libjemalloc.so.2 /usr/lib/libjemalloc.so.2 /usr/local/lib/libjemalloc.so.2; do
    if [[ -f "$path" ]]; then echo "$path"; return 0; fi
  done
  return 1
}

if find_lib; then exit 0; fi

source "$(dirname "$0")/lib/apt-install.sh"
apt_install ensure-jemalloc libjemalloc2 || { echo "ensure-jemalloc: set LEDGER_NODE_ALLOCATOR=glibc to silence this" >&2; exit 1; }

if find_lib; then exit 0; fi
echo "ensure-jemalloc: apt-get could not install libjemalloc2 (no access to the Debian registry?)" >&2
exit 1
