/** Range helpers shared by every adapter: prefix bounds, bound checks and argument validation. */
import { compareBytes } from '../bytes.ts';
import type { BatchOp, RangeOptions } from './kv.ts';

/**
 * The smallest key greater than every key that starts with `prefix`, or `undefined` when none exists
 * (the prefix is empty or all 0xff). `[0x01, 0xff]` gives `[0x02]`, so a scan never bleeds into the next prefix.
 */
export function prefixUpperBound(prefix: Uint8Array): Uint8Array | undefined {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return undefined;
  const out = prefix.slice(0, end);
  out[end - 1] = prefix[end - 1]! + 1;
  return out;
}

/** The range of every key that starts with `prefix` (in order, optionally reversed and limited). */
export function prefixRange(prefix: Uint8Array, options: { reverse?: boolean; limit?: number } = {}): RangeOptions {
  const lt = prefixUpperBound(prefix);
  return { gte: prefix, ...(lt ? { lt } : {}), ...options };
}

/** Keys must be non-empty Uint8Array (every table key starts with its one-byte prefix). */
export function checkKey(key: unknown, field = 'key'): asserts key is Uint8Array {
  if (!(key instanceof Uint8Array))
    throw new TypeError(`Cannot use store ${field}: expected a Uint8Array, got ${describe(key)}`);
  if (key.length === 0) throw new TypeError(`Cannot use store ${field}: keys must not be empty`);
}

export function checkValue(value: unknown, field = 'value'): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array))
    throw new TypeError(`Cannot use store ${field}: expected a Uint8Array, got ${describe(value)}`);
}

/** Validates a whole batch before anything is written, so a bad op fails the batch with nothing applied. */
export function checkOps(ops: readonly BatchOp[]): void {
  if (!Array.isArray(ops)) throw new TypeError(`Cannot write batch: expected an array of ops, got ${describe(ops)}`);
  ops.forEach((op, i) => {
    if (op === null || typeof op !== 'object') throw new TypeError(`Cannot write batch: op[${i}] is ${describe(op)}`);
    checkKey(op.key, `op[${i}].key`);
    if (op.type === 'put') checkValue(op.value, `op[${i}].value`);
    else if (op.type !== 'del')
      throw new TypeError(`Cannot write batch: op[${i}] has unknown type ${String((op as { type: unknown }).type)}`);
  });
}

export function checkRange(range: RangeOptions): void {
  for (const b of ['gt', 'gte', 'lt', 'lte'] as const) {
    const v = range[b];
    if (v !== undefined && !(v instanceof Uint8Array))
      throw new TypeError(`Cannot iterate store: range.${b} must be a Uint8Array, got ${describe(v)}`);
  }
  if (range.limit !== undefined && !Number.isInteger(range.limit))
    throw new TypeError(`Cannot iterate store: range.limit must be an integer, got ${range.limit}`);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return (v as object).constructor?.name ?? 'object';
  return typeof v;
}

type Bound = { readonly key: Uint8Array; readonly inclusive: boolean };

function tighter(a: Bound | undefined, b: Bound | undefined, lower: boolean): Bound | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const c = compareBytes(a.key, b.key);
  if (c !== 0) return c > 0 === lower ? a : b;
  return a.inclusive ? b : a; // same key: the exclusive bound is tighter
}

/**
 * The intersection of ranges, with at most one lower and one upper bound (the tighter wins when both `gt` and
 * `gte`, or both `lt` and `lte`, apply), so engines that honour only one of each see the intended range.
 * `reverse` and `limit` come from the last range that sets them.
 */
export function intersectRanges(...ranges: RangeOptions[]): RangeOptions {
  let lo: Bound | undefined;
  let hi: Bound | undefined;
  let reverse: boolean | undefined;
  let limit: number | undefined;
  for (const r of ranges) {
    if (r.gt !== undefined) lo = tighter(lo, { key: r.gt, inclusive: false }, true);
    if (r.gte !== undefined) lo = tighter(lo, { key: r.gte, inclusive: true }, true);
    if (r.lt !== undefined) hi = tighter(hi, { key: r.lt, inclusive: false }, false);
    if (r.lte !== undefined) hi = tighter(hi, { key: r.lte, inclusive: true }, false);
    if (r.reverse !== undefined) reverse = r.reverse;
    if (r.limit !== undefined) limit = r.limit;
  }
  return {
    ...(lo ? (lo.inclusive ? { gte: lo.key } : { gt: lo.key }) : {}),
    ...(hi ? (hi.inclusive ? { lte: hi.key } : { lt: hi.key }) : {}),
    ...(reverse !== undefined ? { reverse } : {}),
    ...(limit !== undefined ? { limit } : {}),
  };
}
