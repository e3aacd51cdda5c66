/**
 * The Merkle tree of TIP-45 / iota.go merklehasher: leaf = H(0x00 ‖ leaf), node = H(0x01 ‖ left ‖ right), split at
 * the largest power of two strictly below n. Empty tree = H(empty).
 */
import { blake2b256, blake2b256Parts } from '../../crypto/blake2b.ts';

const LEAF = new Uint8Array([0]);
const NODE = new Uint8Array([1]);

export function merkleLeafHash(leaf: Uint8Array): Uint8Array {
  return blake2b256Parts(LEAF, leaf);
}

export function merkleNodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return blake2b256Parts(NODE, left, right);
}

/** Largest power of two strictly less than n (n ≥ 2). */
export function merkleSplit(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return blake2b256(new Uint8Array(0));
  if (leaves.length === 1) return merkleLeafHash(leaves[0]!);
  const k = merkleSplit(leaves.length);
  return merkleNodeHash(merkleRoot(leaves.slice(0, k)), merkleRoot(leaves.slice(k)));
}
