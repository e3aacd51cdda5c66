#!/usr/bin/env bash
# Installs exactly what package-lock.json pins when node_modules is missing or older than the lock file.
# Sourced by scripts/start.sh and scripts/test.sh so both README commands work on a fresh clone.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "== npm ci (first run or lock file changed)" >&2
  npm ci --ignore-scripts --no-audit --no-fund >&2 || exit 1
fi
