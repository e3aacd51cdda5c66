/** Network ID (docs/protocol.md §V7.9): first 8 bytes of BLAKE2b-256(UTF-8 network name), little-endian u64. */
import { blake2b256 } from '../../crypto/blake2b.ts';

const cache = new Map<string, bigint>();

export function networkIdFromName(networkName: string): bigint {
  let id = cache.get(networkName);
  if (id === undefined) {
    const h = blake2b256(new TextEncoder().encode(networkName));
    id = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0, true);
    cache.set(networkName, id);
  }
  return id;
}
