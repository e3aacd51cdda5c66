/**
 * b1t6 (TIP-5, docs/protocol.md §13.2): every byte, read as a signed 8-bit integer, becomes 6 balanced trits,
 * least significant trit first; the groups follow the byte order.
 */

/** The 6 trits of one byte (0..255, read as signed), written into `out` at `offset`. */
export function byteToTrits(byte: number, out: Int8Array, offset: number): void {
  let v = byte >= 128 ? byte - 256 : byte;
  for (let k = 0; k < 6; k++) {
    let t = ((v % 3) + 3) % 3;
    if (t === 2) t = -1;
    out[offset + k] = t;
    v = (v - t) / 3;
  }
}

/** b1t6 of `bytes` into `out` starting at `offset` (6 trits per byte). */
export function b1t6EncodeInto(bytes: Uint8Array, out: Int8Array, offset: number): void {
  for (let i = 0; i < bytes.length; i++) byteToTrits(bytes[i]!, out, offset + 6 * i);
}

/** b1t6 of `bytes` (6 trits per byte). */
export function b1t6Encode(bytes: Uint8Array): Int8Array {
  const out = new Int8Array(bytes.length * 6);
  b1t6EncodeInto(bytes, out, 0);
  return out;
}
