/**
 * Milestone ID (docs/protocol.md §12.7): BLAKE2b-256 of the milestone essence, i.e. the payload bytes from `Index`
 * through the options (no payload type, no signatures). The milestone signatures sign these 32 bytes.
 */
import { blake2b256 } from '../crypto/blake2b.ts';

export function milestoneIdFromEssence(milestoneEssenceBytes: Uint8Array): Uint8Array {
  return blake2b256(milestoneEssenceBytes);
}
