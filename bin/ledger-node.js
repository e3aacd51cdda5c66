#!/usr/bin/env node
// Entry point of the `ledger-node` command. It runs the compiled JavaScript in dist/ (scripts/build.sh; `npm start`
// and `npm test` build it) while that build is newer than every source file, and the TypeScript sources through
// tsx's loader otherwise, so an edited source is never shadowed by an older build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Whether some file below `dir` (or `dir` itself, a file) changed after `ms`. */
function newerThan(path, ms) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs > ms;
  return readdirSync(path).some((name) => newerThan(join(path, name), ms));
}

function compiledIsFresh() {
  const stamp = join(root, 'dist', '.stamp');
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return !['src', 'gateway', 'package.json'].some((p) => newerThan(join(root, p), built));
}

let main;
if (process.env.LEDGER_NODE_SOURCES !== '1' && compiledIsFresh()) {
  ({ main } = await import('../dist/src/cli/main.js'));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
