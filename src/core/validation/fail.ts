/** Raising validation failures that name the field path and the value. */
import { reject, type ErrorCode } from '../errors.ts';
import type { Problem } from '../codec/rules.ts';

/** "Invalid block: output amount must not be zero at payload.essence.outputs[1].amount (value 0)". */
export function invalid(code: ErrorCode, what: string, path: string, value?: unknown): never {
  const v = value === undefined ? undefined : render(value);
  const message = `Invalid block: ${what} at ${path}${v === undefined ? '' : ` (value ${v})`}`;
  return reject(code, message, v === undefined ? { field: path } : { field: path, value: v });
}

/** Raises a Problem found by a shared codec rule. */
export function check(p: Problem | undefined, path: string, value?: unknown): void {
  if (p) invalid(p.code, p.what, path, value);
}

function render(v: unknown): string {
  if (v instanceof Uint8Array) {
    let s = '0x';
    for (let i = 0; i < v.length && i < 40; i++) s += v[i]!.toString(16).padStart(2, '0');
    return v.length > 40 ? s + '…' : s;
  }
  return String(v);
}
