/**
 * Trits (balanced ternary digits -1, 0, +1) and their display form, trytes (TIP-5, docs/protocol.md §13.2):
 * three trits little-endian per tryte, value -13..13, alphabet `9ABCDEFGHIJKLMNOPQRSTUVWXYZ`.
 */
const ALPHABET = '9ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Trits to trytes; the trit count must be a multiple of 3. */
export function tritsToTrytes(trits: ArrayLike<number>): string {
  if (trits.length % 3 !== 0)
    throw new RangeError(`Cannot convert trits: length ${trits.length} is not a multiple of 3`);
  let out = '';
  for (let i = 0; i < trits.length; i += 3) {
    const v = trits[i]! + 3 * trits[i + 1]! + 9 * trits[i + 2]!;
    out += ALPHABET[v < 0 ? v + 27 : v];
  }
  return out;
}

/** Trytes to trits (3 per tryte). */
export function trytesToTrits(trytes: string): Int8Array {
  const out = new Int8Array(trytes.length * 3);
  for (let i = 0; i < trytes.length; i++) {
    const idx = ALPHABET.indexOf(trytes[i]!);
    if (idx < 0) throw new RangeError(`Cannot convert trytes: invalid character "${trytes[i]}" at index ${i}`);
    let v = idx > 13 ? idx - 27 : idx;
    for (let k = 0; k < 3; k++) {
      let t = ((v % 3) + 3) % 3;
      if (t === 2) t = -1;
      out[3 * i + k] = t;
      v = (v - t) / 3;
    }
  }
  return out;
}
