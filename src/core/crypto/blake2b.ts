/** BLAKE2b-256 (RFC 7693: 32-byte digest, no key, no personalisation), the one hash of the Stardust protocol. */
import { blake2b } from '@noble/hashes/blake2.js';

export const BLAKE2B_256_LENGTH = 32;

/** BLAKE2b-256 of `data`. */
export function blake2b256(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: BLAKE2B_256_LENGTH });
}

/** BLAKE2b-256 of the concatenation of `parts`, fed incrementally (no intermediate copy). */
export function blake2b256Parts(...parts: Uint8Array[]): Uint8Array {
  const h = blake2b.create({ dkLen: BLAKE2B_256_LENGTH });
  for (const p of parts) h.update(p);
  return h.digest();
}
