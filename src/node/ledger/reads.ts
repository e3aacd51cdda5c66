/**
 * Reads of the ledger the node answers with (TIP-25's outputs, milestones, receipts and treasury routes): outputs
 * with their booking and spent records, confirmed milestones (the record of the store and the payload inside the
 * milestone's block), the UTXO changes of a milestone, receipts and the current treasury output. Missing data is a
 * NOT_FOUND NodeError naming what was asked for; a milestone at or below the pruning index is PRUNED
 * (pruning/answers.ts).
 */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import {
  LedgerState,
  type LedgerOutput,
  type MilestoneDiff,
  type StoredReceipt,
  type TreasuryState,
} from '../../core/ledger/index.ts';
import { PAYLOAD_MILESTONE, type MilestonePayload } from '../../core/model/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';
import { notFound, prunedMilestone } from '../pruning/answers.ts';

/** A milestone asked for by its index or by its ID. */
export type MilestoneKey = { index: number } | { milestoneId: Uint8Array };

/** An output and the ledger index its spent state belongs to. */
export interface OutputView {
  output: LedgerOutput;
  ledgerIndex: number;
}

/** A confirmed milestone: its record and the payload its block carries. */
export interface MilestoneView {
  index: number;
  milestoneId: Uint8Array;
  blockId: Uint8Array;
  payload: MilestonePayload;
  /** The serialized payload exactly as inside the stored block. */
  payloadBytes: Uint8Array;
}

export class LedgerReader {
  private readonly ledger: LedgerState;

  constructor(private readonly store: NodeStore) {
    this.ledger = new LedgerState(store);
  }

  /** An output the ledger booked, spent or unspent, with the ledger index of the same snapshot. */
  async output(outputId: Uint8Array): Promise<OutputView> {
    const { ledgerIndex, output } = await this.ledger.outputAtLedgerIndex(outputId);
    if (output === undefined) throw await notFound(this.store, `output not found: ${toHex0x(outputId)}`);
    if (ledgerIndex === undefined)
      throw new NodeError('INTERNAL', `output ${toHex0x(outputId)} is stored without a ledger index`);
    return { output, ledgerIndex };
  }

  /** The index of a confirmed milestone (NOT_FOUND for an ID or index the node has not confirmed). */
  async milestoneIndex(key: MilestoneKey): Promise<number> {
    if ('index' in key) return key.index;
    const index = await this.store.milestoneIndexById(key.milestoneId);
    if (index === undefined) throw await notFound(this.store, `milestone not found: ${toHex0x(key.milestoneId)}`);
    return index;
  }

  /** A confirmed milestone with its payload (NOT_FOUND when unknown or when its block is not held). */
  async milestone(key: MilestoneKey): Promise<MilestoneView> {
    const index = await this.milestoneIndex(key);
    const record = await this.store.milestone(index);
    if (record === undefined)
      throw (
        (await prunedMilestone(this.store, index, `milestone ${index}`)) ??
        new NodeError('NOT_FOUND', `milestone index not found: ${index}`)
      );
    const bytes = await this.store.getBlock(record.blockId);
    if (bytes === undefined) {
      throw new NodeError(
        'NOT_FOUND',
        `milestone ${index} (${toHex0x(record.milestoneId)}) has no stored block: ` +
          `the ledger starts from it (genesis or snapshot), its payload is not held`,
      );
    }
    const block = decodeBlock(bytes);
    const payload = block.payload;
    if (payload?.type !== PAYLOAD_MILESTONE || payload.index !== index) {
      throw new NodeError(
        'INTERNAL',
        `the block ${toHex0x(record.blockId)} of milestone ${index} does not carry that milestone`,
      );
    }
    return {
      index,
      milestoneId: record.milestoneId,
      blockId: record.blockId,
      payload,
      payloadBytes: payloadBytesOf(bytes, block.parents.length),
    };
  }

  /**
   * The outputs a confirmed milestone created and consumed (NOT_FOUND for the genesis milestone too: it has no diff).
   */
  async utxoChanges(key: MilestoneKey): Promise<{ index: number; diff: MilestoneDiff }> {
    const index = await this.milestoneIndex(key);
    const diff = await this.ledger.milestoneDiff(index);
    if (diff === undefined)
      throw (
        (await prunedMilestone(this.store, index, `the UTXO changes of milestone ${index}`)) ??
        new NodeError('NOT_FOUND', `no UTXO changes stored for milestone index ${index}`)
      );
    return { index, diff };
  }

  /** Every receipt, or those of one legacy `migratedAt` index, in key order. */
  receipts(migratedAt?: number): Promise<StoredReceipt[]> {
    return this.ledger.receipts(migratedAt);
  }

  /** The current (unspent) treasury output (NOT_FOUND on a ledger without one). */
  async treasury(): Promise<TreasuryState> {
    const treasury = await this.ledger.treasury();
    if (treasury === undefined) throw new NodeError('NOT_FOUND', 'no treasury output: this ledger has none');
    return treasury;
  }
}

/**
 * The payload's bytes inside a block's bytes: version (1) ‖ parent count (1) ‖ parents (32 each) ‖ payload length
 * (u32 LE) ‖ payload ‖ nonce (8). The block decoded, so the layout holds.
 */
function payloadBytesOf(block: Uint8Array, parentCount: number): Uint8Array {
  const at = 2 + 32 * parentCount;
  const length = new DataView(block.buffer, block.byteOffset + at, 4).getUint32(0, true);
  return block.slice(at + 4, at + 4 + length);
}
