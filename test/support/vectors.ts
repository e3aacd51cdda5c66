/**
 * Loads a test vector file from the shared folder that sits beside the checkout (../shared/vectors),
 * or from $LEDGER_SHARED_DIR/vectors when set. Works on Node and inside Deno.
 */
import { readFileSync } from 'node:fs';

export function vectorPath(rel: string): string | URL {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.LEDGER_SHARED_DIR;
  if (env) return `${env}/vectors/${rel}`;
  return new URL(`../../../shared/vectors/${rel}`, import.meta.url);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function loadVectors(rel: string): any {
  return JSON.parse(readFileSync(vectorPath(rel), 'utf8'));
}
