/** Byte helpers on plain Uint8Array only (no host byte-buffer types: this runs on any ECMAScript runtime). */
import { reject } from './errors.ts';

const HEX_CODES = new Uint8Array([...'0123456789abcdef'].map((c) => c.charCodeAt(0)));
const asciiDecoder = new TextDecoder();

/**
 * The hex text of `bytes` after `prefix` (ASCII), as ONE flat string. Appending piece by piece (`s += pair`) gives
 * a rope of one V8 cons-string per byte (about 0.9 KB for a 32-byte ID instead of about 80 bytes) that stays a rope
 * when it is kept as a Map/Set key: a node that remembers IDs (peering seen-set, memos) held ~1 KB per block that way.
 */
function hexText(prefix: string, bytes: Uint8Array): string {
  const out = new Uint8Array(prefix.length + 2 * bytes.length);
  for (let i = 0; i < prefix.length; i++) out[i] = prefix.charCodeAt(i);
  for (let i = 0, j = prefix.length; i < bytes.length; i++, j += 2) {
    out[j] = HEX_CODES[bytes[i]! >> 4]!;
    out[j + 1] = HEX_CODES[bytes[i]! & 15]!;
  }
  return asciiDecoder.decode(out);
}

/** Lowercase hex without prefix. */
export function toHex(bytes: Uint8Array): string {
  return hexText('', bytes);
}

/** `0x` + lowercase hex, the JSON form of byte strings and IDs. */
export function toHex0x(bytes: Uint8Array): string {
  return hexText('0x', bytes);
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  if (c >= 65 && c <= 70) return c - 55; // A-F
  return -1;
}

/**
 * Parses hex (with or without `0x`). Rejects odd length and non-hex characters with INVALID_HEX.
 * `field` names the value in the error message.
 */
export function fromHex(text: string, field = 'hex'): Uint8Array {
  if (typeof text !== 'string') reject('INVALID_HEX', `${field}: expected a hex string, got ${typeof text}`, { field });
  const start = text.startsWith('0x') || text.startsWith('0X') ? 2 : 0;
  const n = text.length - start;
  if (n % 2 !== 0)
    reject('INVALID_HEX', `${field}: hex string has an odd number of digits (${n})`, { field, value: clip(text) });
  const out = new Uint8Array(n / 2);
  for (let i = 0; i < out.length; i++) {
    const hi = nibble(text.charCodeAt(start + 2 * i));
    const lo = nibble(text.charCodeAt(start + 2 * i + 1));
    if (hi < 0 || lo < 0) {
      reject('INVALID_HEX', `${field}: invalid hex character at position ${start + 2 * i + (hi < 0 ? 0 : 1)}`, {
        field,
        value: clip(text),
      });
    }
    out[i] = (hi << 4) | lo;
  }
  return out;
}

/** Parses `0x`-prefixed hex as JSON requires (prefix mandatory). */
export function fromHex0x(text: unknown, field = 'hex'): Uint8Array {
  if (typeof text !== 'string' || !(text.startsWith('0x') || text.startsWith('0X'))) {
    reject('INVALID_HEX', `${field}: expected a 0x-prefixed hex string`, { field, value: clip(String(text)) });
  }
  return fromHex(text, field);
}

export function clip(s: string, max = 80): string {
  return s.length > max ? s.slice(0, max) + '…' : s;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Lexical (unsigned byte-wise, shorter prefix first) comparison: <0, 0, >0. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function isZero(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
export function utf8Encode(s: string): Uint8Array {
  return encoder.encode(s);
}
/** Strict UTF-8 decoding; throws TypeError on invalid sequences (callers wrap it in a ProtocolError). */
export function utf8Decode(b: Uint8Array): string {
  return decoder.decode(b);
}
