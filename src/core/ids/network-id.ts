/**
 * Network ID (docs/protocol.md §12.8, docs/decisions.md §18): the first 8 bytes of BLAKE2b-256 of the UTF-8 network
 * name alone, read as a little-endian u64 (`shimmer` -> 14364762045254553490). No protocol version string is hashed
 * (TIP-25's text is wrong).
 */
import { blake2b256 } from '../crypto/blake2b.ts';
import { utf8Encode } from '../bytes.ts';

export function networkIdFromName(name: string): bigint {
  const h = blake2b256(utf8Encode(name));
  return new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
}
