/**
 * Strict readers for already-parsed JSON values. Each names the JSON path of the value it reads, so a
 * failure says what, where and the value. Only own properties are read; unknown keys are ignored.
 */
import { fromHex } from '../bytes.ts';
import type { JsonPath } from './path.ts';

export type JsonObject = { readonly [key: string]: unknown };

const MAX_U64 = (1n << 64n) - 1n;

/** Keys that could reach an object's prototype chain if copied blindly; rejected anywhere in the input. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function readObject(v: unknown, p: JsonPath): JsonObject {
  if (!isObject(v)) p.expected('an object', v);
  return v;
}

function own(o: JsonObject, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

/** A mandatory key: absent → MISSING_FIELD. (`null` is a present value; the reader of that value rejects it.) */
export function required(o: JsonObject, key: string, p: JsonPath): unknown {
  const v = own(o, key);
  if (v === undefined) p.key(key).fail('MISSING_FIELD', `missing required key "${key}"`);
  return v;
}

/** An optional key: absent or `null` → undefined. */
export function optional(o: JsonObject, key: string): unknown {
  const v = own(o, key);
  return v === null ? undefined : v;
}

export function readBoolean(v: unknown, p: JsonPath): boolean {
  if (typeof v !== 'boolean') p.expected('a boolean', v);
  return v;
}

export function readString(v: unknown, p: JsonPath): string {
  if (typeof v !== 'string') p.expected('a string', v);
  return v;
}

/** A JSON number that must be an integer in 0..max (u8/u16/u32). */
export function readUint(v: unknown, p: JsonPath, max: number): number {
  if (typeof v !== 'number') p.expected('a number', v);
  if (!Number.isInteger(v) || v < 0 || v > max) {
    p.fail('VALUE_OUT_OF_RANGE', `expected an integer in 0..${max}, got ${String(v)}`, v);
  }
  return v;
}

export const readU8 = (v: unknown, p: JsonPath): number => readUint(v, p, 0xff);
export const readU16 = (v: unknown, p: JsonPath): number => readUint(v, p, 0xffff);
export const readU32 = (v: unknown, p: JsonPath): number => readUint(v, p, 0xffffffff);

/** A u64 as a decimal string of digits only, at most 2^64-1. */
export function readU64(v: unknown, p: JsonPath): bigint {
  if (typeof v !== 'string') p.expected('a decimal string', v);
  if (!/^[0-9]+$/.test(v)) p.expected('a decimal string', v);
  return checkU64(decimalToBigInt(v), v, p);
}

function decimalToBigInt(digits: string): bigint {
  // Leading zeros do not change the value; cap the work on absurdly long inputs before BigInt().
  const trimmed = digits.replace(/^0+(?=.)/, '');
  return trimmed.length > 40 ? MAX_U64 + 1n : BigInt(trimmed);
}

function checkU64(n: bigint, raw: unknown, p: JsonPath): bigint {
  if (n > MAX_U64) p.fail('VALUE_OUT_OF_RANGE', `value exceeds 2^64-1, got ${describeRaw(raw)}`, raw);
  return n;
}

function describeRaw(raw: unknown): string {
  return typeof raw === 'string' ? JSON.stringify(raw.length > 80 ? raw.slice(0, 80) + '…' : raw) : String(raw);
}

/** A u64 as a `0x` hex string (any number of digits, leading zeros allowed, value at most 2^64-1). */
export function readU64Hex(v: string, p: JsonPath): bigint {
  if (!/^0[xX][0-9a-fA-F]+$/.test(v))
    p.fail('INVALID_HEX', `expected a 0x-prefixed hex number, got ${describeRaw(v)}`, v);
  const digits = v.slice(2).replace(/^0+(?=.)/, '');
  return checkU64(digits.length > 16 ? MAX_U64 + 1n : BigInt('0x' + digits), v, p);
}

/**
 * A u256 as `0x` + big-endian hex without leading zeros (go-ethereum hexutil.DecodeBig rules):
 * "0x0" is zero, "0x" and "0x01" are rejected, at most 64 digits.
 */
export function readU256(v: unknown, p: JsonPath): bigint {
  if (typeof v !== 'string') p.expected('a 0x-prefixed hex number', v);
  if (!(v.startsWith('0x') || v.startsWith('0X')))
    p.fail('INVALID_HEX', `expected a 0x-prefixed hex number, got ${describeRaw(v)}`, v);
  const digits = v.slice(2);
  if (digits.length === 0) p.fail('INVALID_HEX', 'empty hex number "0x"', v);
  if (!/^[0-9a-fA-F]+$/.test(digits)) p.fail('INVALID_HEX', `invalid hex digit in ${describeRaw(v)}`, v);
  if (digits.length > 1 && digits[0] === '0')
    p.fail('INVALID_HEX', `hex number with leading zero digits ${describeRaw(v)}`, v);
  if (digits.length > 64) p.fail('VALUE_OUT_OF_RANGE', `hex number wider than 256 bits (${digits.length} digits)`, v);
  return BigInt('0x' + digits);
}

/** A byte string: `0x` + an even number of hex digits, length within [min, max]. */
export function readBytes(v: unknown, p: JsonPath, min = 0, max = Number.MAX_SAFE_INTEGER): Uint8Array {
  if (typeof v !== 'string') p.expected('a 0x-prefixed hex string', v);
  if (!(v.startsWith('0x') || v.startsWith('0X')))
    p.fail('INVALID_HEX', `expected a 0x-prefixed hex string, got ${describeRaw(v)}`, v);
  const n = v.length - 2;
  if (n % 2 !== 0) p.fail('INVALID_HEX', `hex string has an odd number of digits (${n})`, v);
  if (!/^[0-9a-fA-F]*$/.test(v.slice(2))) p.fail('INVALID_HEX', `invalid hex digit in ${describeRaw(v)}`, v);
  const len = n / 2;
  if (len < min || len > max) {
    const range =
      min === max ? `exactly ${min}` : max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `${min}..${max}`;
    p.fail('LENGTH_OUT_OF_RANGE', `byte string of ${len} byte${len === 1 ? '' : 's'}, expected ${range}`, v);
  }
  return fromHex(v, p.where);
}

/** A fixed-size byte string (IDs, keys, signatures). */
export function readFixed(v: unknown, p: JsonPath, size: number): Uint8Array {
  return readBytes(v, p, size, size);
}

/** A JSON array with at most `max` entries, each read by `item`. */
export function readList<T>(v: unknown, p: JsonPath, max: number, item: (e: unknown, p: JsonPath) => T): T[] {
  if (!Array.isArray(v)) p.expected('an array', v);
  if (v.length > max) p.fail('COUNT_OUT_OF_RANGE', `list has ${v.length} entries, at most ${max} allowed`, v);
  const out: T[] = [];
  for (let i = 0; i < v.length; i++) out.push(item(v[i], p.index(i)));
  return out;
}

/** An optional list (absent or null → empty). */
export function readOptionalList<T>(
  o: JsonObject,
  key: string,
  p: JsonPath,
  max: number,
  item: (e: unknown, p: JsonPath) => T,
): T[] {
  const v = optional(o, key);
  return v === undefined ? [] : readList(v, p.key(key), max, item);
}

/** An optional byte string (absent or null → empty). */
export function readOptionalBytes(o: JsonObject, key: string, p: JsonPath, max: number): Uint8Array {
  const v = optional(o, key);
  return v === undefined ? new Uint8Array(0) : readBytes(v, p.key(key), 0, max);
}

/**
 * Rejects `__proto__`, `constructor` and `prototype` keys anywhere in the value (INVALID_JSON).
 * Iterative, so deeply nested input cannot exhaust the call stack.
 */
export function assertNoForbiddenKeys(root: unknown, p: JsonPath): void {
  const stack: Array<[unknown, JsonPath]> = [[root, p]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (typeof v[i] === 'object' && v[i] !== null) stack.push([v[i], at.index(i)]);
    } else if (typeof v === 'object' && v !== null) {
      for (const k of Object.keys(v)) {
        if (FORBIDDEN_KEYS.includes(k)) at.key(k).fail('INVALID_JSON', `forbidden key "${k}"`);
        const child = (v as JsonObject)[k];
        if (typeof child === 'object' && child !== null) stack.push([child, at.key(k)]);
      }
    }
  }
}
