#!/usr/bin/env bash
# The README's start command: install if needed, then run the node on its embedded default.
# Memory: the node's live heap is about 100 MB at a million blocks; V8 left alone grows its heap far beyond that before
# collecting, and glibc's per-thread arenas hold freed native memory. A heap cap and two arenas keep the RSS of a node
# with over a million blocks at about 350 MB (README, Performance). An operator's own settings win.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
export NODE_OPTIONS="${NODE_OPTIONS:---max-old-space-size=256}"
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec node bin/ledger-node.js run "$@"
