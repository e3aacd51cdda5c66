/**
 * Identifiers of model objects: serialize with the codec, then apply the byte-level definitions of this folder.
 * (The byte-level files never import the codec, so the codec may use them without an import cycle; the codec must
 * import those files directly, never this one or `index.ts`.)
 */
import {
  encodeBlock,
  encodeMilestoneEssence,
  encodeOutput,
  encodePayload,
  encodeTransactionEssence,
} from '../codec/index.ts';
import type { Block } from '../model/block.ts';
import type { Output } from '../model/output.ts';
import type { MilestonePayload, TransactionPayload } from '../model/payload.ts';
import type { TransactionEssence } from '../model/transaction.ts';
import { blockId } from './block-id.ts';
import { inputsCommitment } from './inputs-commitment.ts';
import { milestoneIdFromEssence } from './milestone-id.ts';
import { verifyMilestoneSignaturesOverId, type MilestoneKeyRange } from './milestone-signatures.ts';
import { essenceHashFromBytes, transactionId } from './transaction-id.ts';

/** Block ID of a block model (its canonical serialization, nonce included). */
export function blockIdOf(block: Block): Uint8Array {
  return blockId(encodeBlock(block));
}

/** Transaction ID of a transaction payload model. */
export function transactionIdOf(tx: TransactionPayload): Uint8Array {
  return transactionId(encodePayload(tx));
}

/** The signing message of a transaction: BLAKE2b-256 of the serialized essence. */
export function essenceHash(essence: TransactionEssence): Uint8Array {
  return essenceHashFromBytes(encodeTransactionEssence(essence));
}

/** Milestone ID of a milestone payload model (signatures are not part of it). */
export function milestoneIdOf(ms: MilestonePayload): Uint8Array {
  return milestoneIdFromEssence(encodeMilestoneEssence(ms));
}

/** Inputs commitment over consumed output models, in input order. */
export function inputsCommitmentOf(consumedOutputs: Output[]): Uint8Array {
  return inputsCommitment(consumedOutputs.map(encodeOutput));
}

/**
 * Throws ProtocolError INVALID_SIGNATURE unless the milestone's signatures meet `threshold`, use sorted unique keys
 * applicable to `ms.index` under `keyRanges`, and each verifies over the milestone ID (docs/protocol.md §17.4).
 */
export function verifyMilestoneSignatures(
  ms: MilestonePayload,
  keyRanges: readonly MilestoneKeyRange[],
  threshold: number,
): void {
  verifyMilestoneSignaturesOverId(milestoneIdOf(ms), ms.index, ms.signatures, keyRanges, threshold);
}
