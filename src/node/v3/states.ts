/**
 * Block and transaction states as iota-core serves them (iota.go `api/core.go`, docs/protocol.md §V7.12), mapped
 * from what this node knows (docs/decisions.md §36):
 *
 *  block        pending    neither accepted nor orphaned (or orphaned, while its slot is not committed yet)
 *               accepted   accepted by the committee, not confirmed
 *               confirmed  confirmed by the committee
 *               finalized  accepted or confirmed, and its slot is at or below the latest finalized slot
 *               orphaned   not accepted when its slot (or a parent's) was committed; its slot is committed
 *  transaction  pending    no attachment confirmed yet (this node settles conflicts at confirmation)
 *               accepted   applied to the ledger: an attachment is confirmed (its included block)
 *               committed  a slot commitment covers it (its state mutation root names it)
 *               finalized  that commitment's slot is at or below the latest finalized slot
 *               failed     with iota.go's failure reason number and the node's message
 *
 * `earliestAttachmentSlot`: the slot of the included block once there is one (the earliest confirmed attachment,
 * what the included-block route answers), before that the lowest slot among the stored attachments.
 */
import { fromHex0x, toHex0x } from '../../core/bytes.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { slotOfId } from '../../core/v3/index.ts';
import type { BlockStateV3 } from './dag.ts';
import type { TransactionRecord } from './tables.ts';

export type BlockStateNameV3 = 'pending' | 'accepted' | 'confirmed' | 'finalized' | 'orphaned';
export type TransactionStateNameV3 = 'pending' | 'accepted' | 'committed' | 'finalized' | 'failed';

/** The slots the states depend on. */
export interface CommitmentViewV3 {
  latestCommittedSlot: number;
  latestFinalizedSlot: number;
}

export interface TransactionMetadataV3 {
  transactionId: Uint8Array;
  state: TransactionStateNameV3;
  earliestAttachmentSlot: number;
  /** iota.go `TransactionFailureReason` (failed only). */
  failureReason?: number;
  /** What failed, in the node's words (failed only). */
  failureDetails?: string;
}

export interface BlockMetadataV3 {
  blockId: Uint8Array;
  blockState: BlockStateNameV3;
  transaction?: TransactionMetadataV3;
}

export function blockStateNameV3(b: BlockStateV3, view: CommitmentViewV3): BlockStateNameV3 {
  if (b.orphaned) return b.slot <= view.latestCommittedSlot ? 'orphaned' : 'pending';
  if (!b.accepted) return 'pending';
  if (b.slot <= view.latestFinalizedSlot) return 'finalized';
  return b.confirmed ? 'confirmed' : 'accepted';
}

/**
 * The state of a transaction record. `undefined`: the record went with the included block when pruning, which only
 * prunes committed slots, so the transaction was applied and its slot committed.
 */
export function transactionStateNameV3(
  r: TransactionRecord | undefined,
  view: CommitmentViewV3,
): TransactionStateNameV3 {
  if (r === undefined) return 'committed';
  if (r.state === 'pending' || r.state === 'failed') return r.state;
  if (r.committedSlot === undefined) return 'accepted';
  return r.committedSlot <= view.latestFinalizedSlot ? 'finalized' : 'committed';
}

/** The transaction metadata of a transaction (map key `txKey`) with record `r` (see the file comment). */
export async function transactionMetadataV3(
  txKey: string,
  r: TransactionRecord | undefined,
  store: NodeStore,
  view: CommitmentViewV3,
): Promise<TransactionMetadataV3> {
  const transactionId = fromHex0x(txKey);
  let earliestAttachmentSlot: number;
  if (r?.includedBlockId !== undefined) {
    earliestAttachmentSlot = slotOfId(fromHex0x(r.includedBlockId));
  } else {
    const slots = (await store.transactionBlocks(transactionId)).map(slotOfId);
    earliestAttachmentSlot = slots.length > 0 ? Math.min(...slots) : slotOfId(transactionId);
  }
  const md: TransactionMetadataV3 = {
    transactionId,
    state: transactionStateNameV3(r, view),
    earliestAttachmentSlot,
  };
  if (r?.state === 'failed') {
    md.failureReason = r.failureCode ?? 255;
    if (r.failureReason !== undefined) md.failureDetails = r.failureReason;
  }
  return md;
}

/** The JSON of a transaction's metadata (`/api/core/v3/transactions/{id}/metadata`, and in a block's metadata). */
export function transactionMetadataJsonV3(t: TransactionMetadataV3): Record<string, unknown> {
  const tx: Record<string, unknown> = {
    transactionId: toHex0x(t.transactionId),
    transactionState: t.state,
    earliestAttachmentSlot: t.earliestAttachmentSlot,
  };
  if (t.failureReason !== undefined) tx['transactionFailureReason'] = t.failureReason;
  if (t.failureDetails !== undefined) tx['transactionFailureDetails'] = t.failureDetails;
  return tx;
}

/** The JSON of a block's metadata (`/api/core/v3/blocks/{id}/metadata`). */
export function blockMetadataJsonV3(md: BlockMetadataV3): Record<string, unknown> {
  const json: Record<string, unknown> = { blockId: toHex0x(md.blockId), blockState: md.blockState };
  if (md.transaction !== undefined) json['transactionMetadata'] = transactionMetadataJsonV3(md.transaction);
  return json;
}
