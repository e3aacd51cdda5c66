/**
 * The Merkle tree of TIP-45 / iota.go merklehasher (transaction and output commitments, output ID proofs) is the same
 * tree as Stardust's TIP-4 hash (leaf = H(0x00 ‖ leaf), node = H(0x01 ‖ left ‖ right), split at the largest power
 * of two below n, empty = H("")): one implementation serves both.
 */
export { merkleLeafHash, merkleNodeHash, merkleRoot, merkleSplit } from '../../ids/merkle.ts';
