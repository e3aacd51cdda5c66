/**
 * Output ID proofs (docs/protocol.md §V7.8, REST `outputIdProof`): prove that an output with a given ID belongs to a
 * transaction, from the transaction commitment and a Merkle audit path of the output commitment.
 * Node kinds: 0 = inner node {l, r}; 1 = hash standing for a whole subtree; 2 = the proven output's leaf hash.
 */
import { blake2b256Parts } from '../../crypto/blake2b.ts';
import { equalBytes } from '../../bytes.ts';
import type { OutputIdProofV3, ProofNodeV3 } from '../model/block.ts';
import type { OutputV3 } from '../model/output.ts';
import type { TransactionV3 } from '../model/transaction.ts';
import { encodeOutputV3 } from '../codec/index.ts';
import { merkleLeafHash, merkleNodeHash, merkleRoot, merkleSplit } from './merkle.ts';
import { outputIdV3, transactionCommitmentV3 } from './transaction-id.ts';
import { idWithSlot } from './slot.ts';

function proofNode(leaves: Uint8Array[], index: number): ProofNodeV3 {
  if (leaves.length === 1) return { type: 2, hash: merkleLeafHash(leaves[0]!) };
  const k = merkleSplit(leaves.length);
  const left = leaves.slice(0, k);
  const right = leaves.slice(k);
  return index < k
    ? { type: 0, l: proofNode(left, index), r: { type: 1, hash: merkleRoot(right) } }
    : { type: 0, l: { type: 1, hash: merkleRoot(left) }, r: proofNode(right, index - k) };
}

/** The proof for output `index` of `tx`. */
export function outputIdProofV3(tx: TransactionV3, index: number): OutputIdProofV3 {
  if (!Number.isInteger(index) || index < 0 || index >= tx.outputs.length) {
    throw new RangeError(`output index ${index} is outside 0..${tx.outputs.length - 1}`);
  }
  const leaves = tx.outputs.map((o) => encodeOutputV3(o));
  return {
    slot: tx.creationSlot,
    outputIndex: index,
    transactionCommitment: transactionCommitmentV3(tx),
    outputCommitmentProof: proofNode(leaves, index),
  };
}

/** The Merkle root a proof tree stands for (the output commitment). */
export function proofRootV3(node: ProofNodeV3): Uint8Array {
  return node.type === 0 ? merkleNodeHash(proofRootV3(node.l), proofRootV3(node.r)) : node.hash;
}

function valueHash(node: ProofNodeV3): Uint8Array | undefined {
  if (node.type === 2) return node.hash;
  if (node.type === 1) return undefined;
  return valueHash(node.l) ?? valueHash(node.r);
}

/** The output ID a proof proves (transaction ID from the proof's commitment and root, plus the index). */
export function outputIdFromProofV3(proof: OutputIdProofV3): Uint8Array {
  const txId = idWithSlot(
    blake2b256Parts(proof.transactionCommitment, proofRootV3(proof.outputCommitmentProof)),
    proof.slot,
  );
  return outputIdV3(txId, proof.outputIndex);
}

/** True when `proof` proves that `output` has ID `outputId`. */
export function verifyOutputIdProofV3(proof: OutputIdProofV3, outputId: Uint8Array, output: OutputV3): boolean {
  const value = valueHash(proof.outputCommitmentProof);
  if (!value || !equalBytes(value, merkleLeafHash(encodeOutputV3(output)))) return false;
  return equalBytes(outputIdFromProofV3(proof), outputId);
}
