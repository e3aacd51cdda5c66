#!/usr/bin/env bash
# The one test command (README, `npm test`, .ci/run): installs, generates, type-checks, lints, then runs every test
# on Node and the core tests inside Deno. Ends with one line "total: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."

# Each stage's wall time, printed as it ends and once more, all together, before the total line.
times=()
stage_name=""
stage_start=$SECONDS
stage() {
  if [[ -n $stage_name ]]; then
    local took=$((SECONDS - stage_start))
    times+=("$stage_name ${took}s")
    echo "   ($stage_name: ${took}s)"
  fi
  stage_name=$1
  stage_start=$SECONDS
  [[ -n $1 ]] && echo "== $1"
}

# 1. Install exactly what package-lock.json says, when node_modules is missing or older than the lock file.
stage "dependencies"
source scripts/ensure-deps.sh

# 2. Code generation (idempotent; drift against the committed output is checked by the tests).
if [[ -x scripts/gen-proto.sh && -d proto && -n "$(ls proto/*.proto 2>/dev/null)" ]]; then
  stage "generate gRPC code"
  bash scripts/gen-proto.sh --check || exit 1
fi
if [[ -f scripts/build-wasm.ts ]]; then
  stage "build WebAssembly kernels"
  npx tsx scripts/build-wasm.ts || exit 1
fi

# 3. The compiled build (dist/) that `ledger-node` runs: the end-to-end tests start the node through bin/ledger-node.js.
stage "build dist/"
bash scripts/build.sh || exit 1

# 4. Type checks: the whole project, then the neutrality gate over src/core (ES2022 only, no Node/Deno types).
stage "typecheck"
npx tsc -p tsconfig.json --noEmit || exit 1
npx tsc -p tsconfig.core.json --noEmit || exit 1

# 4b. Format and lint (biome.json): a file not formatted or a lint error fails the run.
stage "format and lint (Biome)"
npx biome ci . || exit 1

# 5. A browser for the dashboard's test (test/e2e/dashboard/): Debian's chromium, installed when missing. Without one
#    that test alone is skipped with the reason; with CI=true it fails instead.
stage "Chromium for the dashboard browser test"
if chromium_path=$(bash scripts/ensure-chromium.sh); then
  export CHROMIUM_PATH="$chromium_path"
  echo "$CHROMIUM_PATH"
else
  echo "no Chromium: the dashboard browser test will be skipped (with CI=true it fails)"
fi

# 5b. nftables for the fault tests (partitions and loss between loopback addresses, harness/nft.ts), installed when
#     missing. Without it those tests skip with the reason; with CI=true they fail instead.
stage "nftables for the fault tests"
bash scripts/ensure-nft.sh || echo "no nft: the fault tests will be skipped (with CI=true they fail)"

# 5c. Debian's Prometheus (server and promtool) for the tests of the shipped alert rules (ops/prometheus/), installed
#     when missing. Without it those tests skip with the reason; with CI=true they fail instead.
stage "Prometheus for the alert-rule tests"
bash scripts/ensure-prometheus.sh || echo "no Prometheus: the alert-rule tests will be skipped (with CI=true they fail)"

# 6. Tests.
status=0
log=$(mktemp)
stage "mocha on Node"
npx mocha 'test/**/*.test.ts' 2>&1 | tee "$log" || status=1
stage "mocha inside Deno (src/core only)"
npx deno run -A node_modules/mocha/bin/mocha.js --config .mocharc.deno.json 'test/core/**/*.test.ts' 2>&1 | tee -a "$log" || status=1

stage ""
echo "stage times: ${times[*]/%/,} total $((SECONDS))s" | sed 's/, total/; total/'
passed=$(grep -E '^(node|deno): [0-9]+ passed' "$log" | awk '{s+=$2} END {print s+0}')
failed=$(grep -E '^(node|deno): [0-9]+ passed' "$log" | awk '{s+=$4} END {print s+0}')
runs=$(grep -cE '^(node|deno): [0-9]+ passed' "$log")
rm -f "$log"
if [[ $runs -lt 2 ]]; then echo "a test run did not finish"; status=1; fi
[[ $failed -gt 0 ]] && status=1
echo "total: $passed passed, $failed failed"
exit $status
