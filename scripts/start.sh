#!/usr/bin/env bash
# The README's start command: install if needed, then run the node on its embedded default.
# Memory: the node's live heap is about 100 MB at a million blocks; V8 left alone grows its heap far beyond that before
# collecting, and glibc's malloc fragments under the node's native allocations, so its RSS keeps growing with the
# blocks seen while the live data is flat. A heap cap and jemalloc (preloaded; scripts/ensure-jemalloc.sh finds or
# installs it; LEDGER_NODE_ALLOCATOR=glibc opts out) keep RSS flat under a steady load; without jemalloc, two glibc
# arenas at least bound the per-thread ones (README, Running for months). An operator's own settings win.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=256}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
if jemalloc=$(bash scripts/ensure-jemalloc.sh); then
  export LD_PRELOAD="${jemalloc}${LD_PRELOAD:+:$LD_PRELOAD}"
else
  echo "start: running on the C library's malloc; RSS grows slowly with the blocks seen (see above for why there is no jemalloc)" >&2
fi
exec node bin/ledger-node.js run "$@"
