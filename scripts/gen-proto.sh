#!/usr/bin/env bash
# Generates the TypeScript of the gRPC API (proto/*.proto) into src/grpc/gen/ with protoc + ts-proto.
# The generated files are committed and never edited by hand.
#
#   bash scripts/gen-proto.sh           regenerate src/grpc/gen/
#   bash scripts/gen-proto.sh --check   generate into a temporary folder and fail (exit 1, with a diff) when the
#                                       committed src/grpc/gen/ differs from what the .proto files produce
#
# Tools come from node_modules (exact pins in package.json): protoc 36.2 (npm package `protoc`) and ts-proto 2.18.
# ts-proto options:
#   outputServices=grpc-js   service definition + client class for @grpc/grpc-js
#   forceLong=bigint         uint64 -> bigint, the model's type for u64
#   esModuleInterop=true     default imports of CommonJS packages
#   oneof=unions-value       a oneof is one property `kind: { $case, value }`, mapped by a table in src/grpc/mapping
#   importSuffix=.ts         relative imports end in `.ts`, as this project writes them (allowImportingTsExtensions,
#                            NodeNext, run by tsx); ts-proto already marks type-only imports with `type`, so the
#                            output passes `verbatimModuleSyntax` without loosening tsconfig.json
#   outputJsonMethods=false  no canonical-protobuf JSON: the REST JSON is TIP-25 and rendered by the node
set -euo pipefail
cd "$(dirname "$0")/.."

mode=write
case "${1:-}" in
  "") ;;
  --check) mode=check ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

out=src/grpc/gen
target=$out
if [[ $mode == check ]]; then
  target=$(mktemp -d)
  trap 'rm -rf "$target"' EXIT
else
  rm -rf "$out"
  mkdir -p "$out"
fi

node node_modules/protoc/protoc.cjs \
  --plugin=protoc-gen-ts_proto=node_modules/.bin/protoc-gen-ts_proto \
  --ts_proto_out="$target" \
  --ts_proto_opt=outputServices=grpc-js,forceLong=bigint,esModuleInterop=true,oneof=unions-value,importSuffix=.ts,outputJsonMethods=false \
  -I proto -I node_modules/protoc/include \
  proto/*.proto

if [[ $mode == check ]]; then
  if ! diff -ru "$out" "$target"; then
    echo "src/grpc/gen/ is out of date with proto/: run 'bash scripts/gen-proto.sh' and commit the result" >&2
    exit 1
  fi
  echo "src/grpc/gen/ is up to date"
fi
