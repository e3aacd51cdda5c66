/**
 * Loads a test vector file from `test/vectors/` (e.g. `stardust/blocks.json`; sources in test/vectors/README.md).
 * The path is resolved against this module's URL, so it works from any working directory, on Node and inside Deno.
 */
import { readFileSync } from 'node:fs';

export function vectorPath(rel: string): URL {
  return new URL(`../test/vectors/${rel}`, import.meta.url);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadVectors(rel: string): any {
  return JSON.parse(readFileSync(vectorPath(rel), 'utf8'));
}
