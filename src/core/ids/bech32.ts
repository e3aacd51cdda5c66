/**
 * Bech32 (BIP-173, checksum constant 1 — NOT bech32m) over byte strings, by `@scure/base` (audited, runtime-neutral,
 * from the family of the @noble/* packages the core already uses).
 * Decoding is strict: at most 90 characters, printable US-ASCII only, no mixed case, a non-empty HRP, a valid
 * checksum, only charset characters in the data part, and a zero-padded 5-to-8-bit conversion. Every rejection is a
 * ProtocolError INVALID_BECH32; the library's reason is put into this module's stable wording (REASONS).
 */
import { bech32 } from '@scure/base';
import { reject } from '../errors.ts';
import { clip } from '../bytes.ts';

const MAX_LENGTH = 90;

export interface Bech32Decoded {
  hrp: string;
  data: Uint8Array;
}

/** @scure/base's messages (as of 2.4.0) and the reason this module reports; anything else passes through. */
const REASONS: readonly (readonly [RegExp, string])[] = [
  [/^Unknown letter "(.*)"/s, 'invalid data character "$1"'],
  [/checksum/i, 'invalid checksum'],
  [/padding/i, 'invalid padding in the data part'],
  [/mixed-case/i, 'mixed case'],
  [/separator/i, 'missing separator "1" or empty human-readable part'],
  [/^invalid data length/i, 'data part shorter than the 6-character checksum'],
  [/^invalid string length (\d+)/i, 'length $1 is outside 8..90'],
  [/printable ASCII|^Invalid prefix \(/, 'character outside printable US-ASCII'],
  [/^Invalid prefix length/, 'empty human-readable part'],
  [/^Length (\d+) exceeds limit/, 'result would have $1 characters (max 90)'],
];

function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  for (const [pattern, reason] of REASONS) {
    const m = pattern.exec(message);
    if (m) return m[0].replace(pattern, reason);
  }
  return message;
}

/** Encodes `data` bytes under `hrp` (which must be lowercase: the library would lowercase it silently). */
export function bech32Encode(hrp: string, data: Uint8Array): string {
  if (hrp !== hrp.toLowerCase())
    reject('INVALID_BECH32', `Cannot use bech32: human-readable part "${hrp}" must be lowercase`, { value: hrp });
  const words = bech32.toWords(data);
  try {
    return bech32.encode(hrp, words, MAX_LENGTH);
  } catch (err) {
    return reject('INVALID_BECH32', `Cannot use bech32: ${reasonOf(err)}`, { value: hrp });
  }
}

/** Decodes a bech32 string into its (lowercase) HRP and data bytes. */
export function bech32Decode(text: string): Bech32Decoded {
  if (typeof text !== 'string') reject('INVALID_BECH32', `Cannot decode bech32: expected a string, got ${typeof text}`);
  try {
    const { prefix, bytes } = bech32.decodeToBytes(text, MAX_LENGTH);
    return { hrp: prefix, data: bytes };
  } catch (err) {
    // Clipped: the text may be anything a client sent, of any length (an error travels in a gRPC trailer).
    const shown = clip(text, 100);
    return reject('INVALID_BECH32', `Cannot decode bech32: ${clip(reasonOf(err), 200)} in "${shown}"`, {
      value: shown,
    });
  }
}
