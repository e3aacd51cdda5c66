#!/usr/bin/env bash
# The README's start command: install if needed, then run the node on its embedded default.
# Memory: the node's live heap is about 100 MB at a million blocks; V8 left alone grows its heap far beyond that before
# collecting, hence the heap cap. jemalloc (preloaded; scripts/ensure-jemalloc.sh finds or installs it;
# LEDGER_NODE_ALLOCATOR=glibc opts out) stores blocks about 12% faster than glibc's malloc and keeps the LevelDB
# binding's leak of empty values at a quarter; without it, two glibc arenas bound the per-thread ones (README, Pruning
# and snapshots). An operator's own settings win.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
# The compiled build (dist/), when a source is newer than it or there is none (bin/ledger-node.js checks the same).
if [[ ! -f dist/.stamp || -n "$(find src gateway package.json -newer dist/.stamp -print -quit)" ]]; then
  echo "start: compiling to dist/ (scripts/build.sh)" >&2
  bash scripts/build.sh
fi
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=256}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
if jemalloc=$(bash scripts/ensure-jemalloc.sh); then
  export LD_PRELOAD="${jemalloc}${LD_PRELOAD:+:$LD_PRELOAD}"
else
  echo "start: running on the C library's malloc (see above for why there is no jemalloc)" >&2
fi
exec node bin/ledger-node.js run "$@"
