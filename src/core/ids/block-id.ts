/** Block ID (docs/protocol.md §12.1): BLAKE2b-256 of the entire serialized block, nonce included. */
import { blake2b256 } from '../crypto/blake2b.ts';

export function blockId(blockBytes: Uint8Array): Uint8Array {
  return blake2b256(blockBytes);
}
