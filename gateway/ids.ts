/**
 * Identifiers in request paths, checked before any call to the node (docs/decisions.md §10): `0x` followed by exactly
 * 2 * length hex digits (either case); anything else is 400 naming the value and what is wrong with it.
 */
import { HttpProblem } from './errors.ts';

/** v2 block and transaction IDs. */
export const V2_ID_BYTES = 32;
/** v3 transaction IDs: 32-byte hash + 4-byte slot index. */
export const V3_ID_BYTES = 36;
/** v3 output IDs: v3 transaction ID + output index (u16 little-endian). */
export const V3_OUTPUT_ID_BYTES = 38;
/** Output IDs: transaction ID + output index (u16 little-endian). */
export const OUTPUT_ID_BYTES = 34;

const U32_MAX = 0xffffffff;

const MAX_SHOWN = 80;

function shown(text: string): string {
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}

/** `0x` + lowercase hex, built natively as one flat string (IDs end up as JSON values and header values). */
export function hex0x(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

function invalidId(what: string, text: string, why: string): HttpProblem {
  return new HttpProblem(400, `invalid ${what}: ${shown(text)}, ${why}`);
}

const NOT_HEX = /[^0-9a-fA-F]/;

/** Parses `0x` + hex of exactly `length` bytes; `what` names the parameter in the message ("block ID"). */
export function parseHexId(text: string, length: number, what: string): Uint8Array {
  if (!text.startsWith('0x')) throw invalidId(what, text, 'hex string without 0x prefix');
  const digits = text.slice(2);
  const bad = NOT_HEX.exec(digits);
  if (bad) throw invalidId(what, text, `invalid hex character "${shown(bad[0])}" at position ${bad.index + 2}`);
  if (digits.length % 2 !== 0) throw invalidId(what, text, 'hex string of odd length');
  if (digits.length !== length * 2) throw invalidId(what, text, `expected ${length} bytes, got ${digits.length / 2}`);
  // every character is a hex digit and the length is even: the native decoder reads all of them (a hot path: every
  // block read parses one ID)
  const out = new Uint8Array(length);
  out.set(Buffer.from(digits, 'hex'));
  return out;
}

/**
 * Parses a milestone index in a path (`what` names it: "milestone index", "migratedAt index"): decimal digits only
 * (leading zeros allowed, as Hornet's strconv.ParseUint takes them) of a value up to 2^32 - 1; anything else is 400.
 */
export function parseIndex(text: string, what: string): number {
  if (!/^[0-9]+$/.test(text)) throw new HttpProblem(400, `invalid ${what}: ${shown(text)}, expected a decimal number`);
  const digits = text.replace(/^0+(?=.)/, '');
  const value = digits.length > 10 ? Infinity : Number(digits);
  if (value > U32_MAX) throw new HttpProblem(400, `invalid ${what}: ${shown(text)}, out of range (at most ${U32_MAX})`);
  return value;
}
