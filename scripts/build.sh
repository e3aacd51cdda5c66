#!/usr/bin/env bash
# Compiles the node (src/, gateway/) to JavaScript in dist/, what `ledger-node` runs in production (bin/ledger-node.js;
# docs/decisions.md: tsx at run time costs about 50 MB of RSS and a slower start). Incremental: a build with nothing
# changed takes a few seconds. Copies what the compiled code reads beside itself (package.json for the version, the
# dashboard's files), then stamps the build; bin/ledger-node.js runs dist/ only while the stamp is newer than every
# source file, and the TypeScript sources through tsx otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
npx tsc -p tsconfig.build.json
mkdir -p dist/gateway/dashboard
cp package.json dist/package.json
cp gateway/dashboard/* dist/gateway/dashboard/
touch dist/.stamp
