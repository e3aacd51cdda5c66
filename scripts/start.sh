#!/usr/bin/env bash
# The README's start command: install if needed, then run the node on its embedded default.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ensure-deps.sh
exec node bin/ledger-node.js run "$@"
