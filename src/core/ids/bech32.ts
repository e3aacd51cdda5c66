/**
 * Bech32 (BIP-173, checksum constant 1 — NOT bech32m) over byte strings.
 * Decoding is strict: at most 90 characters, printable US-ASCII only, no mixed case, a non-empty HRP, a valid
 * checksum, only charset characters in the data part, and a zero-padded 5-to-8-bit conversion. Every rejection is a
 * ProtocolError INVALID_BECH32.
 */
import { reject } from '../errors.ts';

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const CHECKSUM_LENGTH = 6;
const MAX_LENGTH = 90;

const CHARSET_REVERSE: Record<string, number> = {};
for (let i = 0; i < CHARSET.length; i++) CHARSET_REVERSE[CHARSET[i]!] = i;

export interface Bech32Decoded {
  hrp: string;
  data: Uint8Array;
}

function polymod(values: number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}

function hrpExpand(hrp: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
  out.push(0);
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
  return out;
}

function checksum(hrp: string, words: number[]): number[] {
  const mod = polymod([...hrpExpand(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const out: number[] = [];
  for (let i = 0; i < CHECKSUM_LENGTH; i++) out.push((mod >>> (5 * (5 - i))) & 31);
  return out;
}

/** Regroups bits; `pad` for 8->5 (encoding), strict zero-padding check for 5->8 (decoding). */
function convertBits(data: ArrayLike<number>, from: number, to: number, pad: boolean, text: string): number[] {
  let acc = 0;
  let bits = 0;
  const out: number[] = [];
  const maxv = (1 << to) - 1;
  for (let i = 0; i < data.length; i++) {
    acc = (acc << from) | data[i]!;
    bits += from;
    while (bits >= to) {
      bits -= to;
      out.push((acc >>> bits) & maxv);
    }
    acc &= (1 << bits) - 1;
  }
  if (pad) {
    if (bits > 0) out.push((acc << (to - bits)) & maxv);
  } else if (bits >= from || acc !== 0) {
    reject('INVALID_BECH32', `Cannot decode bech32: invalid padding in the data part of "${text}"`, { value: text });
  }
  return out;
}

function checkHrp(hrp: string, text: string): void {
  if (hrp.length < 1 || hrp.length > MAX_LENGTH - 1 - CHECKSUM_LENGTH) {
    reject('INVALID_BECH32', `Cannot use bech32: human-readable part length ${hrp.length} is outside 1..83`, { value: text });
  }
  for (let i = 0; i < hrp.length; i++) {
    const c = hrp.charCodeAt(i);
    if (c < 33 || c > 126) reject('INVALID_BECH32', `Cannot use bech32: invalid character code ${c} in human-readable part at position ${i}`, { value: text });
  }
}

/** Encodes `data` bytes under `hrp` (emitted lowercase). */
export function bech32Encode(hrp: string, data: Uint8Array): string {
  checkHrp(hrp, hrp);
  if (hrp !== hrp.toLowerCase()) reject('INVALID_BECH32', `Cannot use bech32: human-readable part "${hrp}" must be lowercase`, { value: hrp });
  const words = convertBits(data, 8, 5, true, hrp);
  const text = hrp + '1' + [...words, ...checksum(hrp, words)].map((w) => CHARSET[w]).join('');
  if (text.length > MAX_LENGTH) reject('INVALID_BECH32', `Cannot use bech32: result would have ${text.length} characters (max ${MAX_LENGTH})`, { value: hrp });
  return text;
}

/** Decodes a bech32 string into its (lowercase) HRP and data bytes. */
export function bech32Decode(text: string): Bech32Decoded {
  if (typeof text !== 'string') reject('INVALID_BECH32', `Cannot decode bech32: expected a string, got ${typeof text}`);
  const bad = (why: string): never => reject('INVALID_BECH32', `Cannot decode bech32: ${why} in "${text}"`, { value: text });
  if (text.length > MAX_LENGTH) bad(`length ${text.length} exceeds ${MAX_LENGTH}`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 33 || c > 126) bad(`invalid character code ${c} at position ${i}`);
  }
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) bad('mixed case');
  const sep = lower.lastIndexOf('1');
  if (sep < 1) bad('missing separator "1" or empty human-readable part');
  if (lower.length - sep - 1 < CHECKSUM_LENGTH) bad('data part shorter than the 6-character checksum');
  const hrp = lower.slice(0, sep);
  const words: number[] = [];
  for (let i = sep + 1; i < lower.length; i++) {
    const v = CHARSET_REVERSE[lower[i]!];
    if (v === undefined) bad(`invalid data character "${lower[i]}" at position ${i}`);
    words.push(v!);
  }
  if (polymod([...hrpExpand(hrp), ...words]) !== 1) bad('invalid checksum');
  const data = convertBits(words.slice(0, words.length - CHECKSUM_LENGTH), 5, 8, false, text);
  return { hrp, data: Uint8Array.from(data) };
}
