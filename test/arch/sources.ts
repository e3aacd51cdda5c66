/**
 * The hand-written TypeScript files the house-rule tests of test/arch hold to their limits (line-length.test.ts,
 * file-length.test.ts): every .ts file under src, gateway, harness, test, scripts, benchmarks and bin, generated code
 * aside (src/grpc/gen/, *.generated.ts, *.d.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** The folders of hand-written code. */
export const SOURCE_FOLDERS = ['src', 'gateway', 'harness', 'test', 'scripts', 'benchmarks', 'bin'];
const GENERATED = ['src/grpc/gen/'];

function walk(dir: string): string[] {
  const out: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(join(root, dir));
  } catch {
    return out; // a folder the checkout does not have
  }
  for (const e of entries) {
    const rel = `${dir}/${e}`;
    if (e === 'node_modules' || GENERATED.some((g) => `${rel}/`.startsWith(g))) continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...walk(rel));
    else if (e.endsWith('.ts') && !e.endsWith('.generated.ts') && !e.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Every hand-written TypeScript file, relative to the repository (generated code aside). */
export function typescriptSources(): string[] {
  return SOURCE_FOLDERS.flatMap((d) => walk(d));
}

/** A file's lines (a final newline ends the last line; it does not start another). */
export function linesOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}
