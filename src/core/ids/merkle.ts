/**
 * Merkle tree hash of TIP-4 (docs/protocol.md §17.3), used for the milestone inclusion and applied Merkle roots:
 *   MTH([])  = BLAKE2b-256("")
 *   MTH([d]) = BLAKE2b-256(0x00 ‖ d)                       (leaf)
 *   MTH(D)   = BLAKE2b-256(0x01 ‖ MTH(D[0..k)) ‖ MTH(D[k..n)))  with k the largest power of two < n  (node)
 */
import { blake2b256, blake2b256Parts } from '../crypto/blake2b.ts';

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);

export function merkleLeafHash(data: Uint8Array): Uint8Array {
  return blake2b256Parts(LEAF_PREFIX, data);
}

export function merkleNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return blake2b256Parts(NODE_PREFIX, left, right);
}

/** Largest power of two strictly less than n (n >= 2): where the tree splits its leaves. */
export function merkleSplit(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtree(items: readonly Uint8Array[], from: number, to: number): Uint8Array {
  const n = to - from;
  if (n === 1) return merkleLeafHash(items[from]!);
  const k = merkleSplit(n);
  return merkleNodeHash(subtree(items, from, from + k), subtree(items, from + k, to));
}

/** The Merkle root over `ids` in the given order (the caller supplies White-Flag order). */
export function merkleRoot(ids: readonly Uint8Array[]): Uint8Array {
  if (ids.length === 0) return blake2b256(new Uint8Array(0));
  return subtree(ids, 0, ids.length);
}
