/**
 * Confirming a milestone (TIP-29, docs/protocol.md §17): check the milestone against the ledger, walk its cone in
 * White-Flag order, apply the transactions, compare both Merkle roots, apply the receipt, record protocol parameter
 * changes, and put every resulting write (the TIP-26 index's and the explorer history's too: indexer/writes.ts,
 * history/writes.ts) into ONE StoreBatch. Nothing is written here: the caller commits the returned batch (atomic). A
 * milestone that fails any check (including disagreeing Merkle roots) throws a ProtocolError and yields no batch. The
 * result is computed against the ledger as read now: callers run confirmations one at a time and commit each batch
 * before computing the next.
 */
import { toHex } from '../bytes.ts';
import { reject } from '../errors.ts';
import { milestoneIdOf } from '../ids/of-model.ts';
import type { Block } from '../model/block.ts';
import { MILESTONE_OPTION_PROTOCOL_PARAMS, MILESTONE_OPTION_RECEIPT, type MilestonePayload } from '../model/payload.ts';
import type { BlockMetadata } from '../store/block-metadata.ts';
import { META } from '../store/meta.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { StoreBatch } from '../store/store-batch.ts';
import { TABLES } from '../store/tables.ts';
import { StoreBlockSource } from './block-source.ts';
import { walkCone, type ConeBlockSource } from './cone.ts';
import { LEDGER_META, type MilestoneKeyConfig, type ProtocolParametersChange } from './ledger-meta.ts';
import { LedgerState } from './ledger-state.ts';
import type { MilestoneDiff } from './milestone-diff.ts';
import { checkMerkleRoots, checkMilestoneSuccession, milestonePayloadOf } from './milestone-checks.ts';
import { applyReceipt, type ReceiptEffects } from './receipt.ts';
import { indexLedgerChanges } from './indexer/writes.ts';
import { writeMilestoneHistory } from './history/writes.ts';
import { validateTransactionSemantics } from './semantic.ts';
import { LEDGER_TABLES } from './tables.ts';
import {
  applyWhiteFlag,
  type ConeVerdict,
  type ConsumedOutput,
  type CreatedOutput,
  type SemanticValidator,
} from './white-flag.ts';

export interface ConfirmMilestoneInput {
  store: NodeStore;
  milestoneBlockId: Uint8Array;
  milestoneBlock: Block;
  /** Where cone blocks come from; default: the store (StoreBlockSource). */
  blocks?: ConeBlockSource;
  /** Milestone signature rules; default: the ones initLedger stored. */
  keys?: MilestoneKeyConfig;
  /** Semantic validation of a transaction after input resolution; default: validateTransactionSemantics. */
  validate?: SemanticValidator;
  /**
   * `false` leaves the explorer history and its aggregates out (benchmarks/explorer measures what they cost; a store
   * confirmed without them no longer matches its history). Default: written.
   */
  history?: boolean;
}

export interface MilestoneConfirmation {
  milestoneIndex: number;
  milestoneId: Uint8Array;
  milestoneTimestamp: number;
  /** One per cone block, in White-Flag order. */
  verdicts: ConeVerdict[];
  /** Outputs booked (transactions, then migrated funds). */
  created: CreatedOutput[];
  consumed: ConsumedOutput[];
  inclusionMerkleRoot: Uint8Array;
  appliedMerkleRoot: Uint8Array;
  receipt?: ReceiptEffects;
  /** Every write of this confirmation; commit it to make the milestone confirmed. */
  batch: StoreBatch;
}

const DEFAULT_METADATA: Omit<BlockMetadata, 'protocolVersion'> = { solid: true, arrivalTime: 0 };

export async function confirmMilestone(input: ConfirmMilestoneInput): Promise<MilestoneConfirmation> {
  const { store, milestoneBlockId, milestoneBlock } = input;
  const ledger = new LedgerState(store);
  const ms = milestonePayloadOf(milestoneBlock);
  const milestoneId = milestoneIdOf(ms);

  const ledgerIndex = await ledger.ledgerIndex();
  if (ledgerIndex === undefined)
    reject('MISSING_FIELD', `Cannot confirm milestone ${ms.index}: the ledger is not initialised`, {
      field: 'ledgerIndex',
    });
  const previous = await store.milestone(ledgerIndex);
  if (previous === undefined)
    reject(
      'MISSING_FIELD',
      `Cannot confirm milestone ${ms.index}: milestone ${ledgerIndex} of the ledger is not stored`,
      { field: 'milestones', value: String(ledgerIndex) },
    );
  const keys = input.keys ?? (await ledger.milestoneKeys());
  if (keys === undefined)
    reject('MISSING_FIELD', `Cannot confirm milestone ${ms.index}: no milestone key configuration`, {
      field: 'milestoneKeys',
    });
  checkMilestoneSuccession(milestoneBlock, ms, milestoneId, { index: ledgerIndex, ...previous }, keys);

  const protocol = await ledger.protocolParameters(ms.index);
  if (protocol === undefined)
    reject('MISSING_FIELD', `Cannot confirm milestone ${ms.index}: the ledger has no protocol parameters`, {
      field: 'protocolParameters',
    });
  const blocks = input.blocks ?? (await StoreBlockSource.open(store));
  const cone = await walkCone(ms.parents, blocks, ms.index);
  const wf = await applyWhiteFlag(cone, ledger, {
    milestoneIndex: ms.index,
    milestoneTimestamp: ms.timestamp,
    protocol,
    validate: input.validate ?? validateTransactionSemantics,
  });
  checkMerkleRoots(ms, wf.inclusionMerkleRoot, wf.appliedMerkleRoot);

  let receipt: ReceiptEffects | undefined;
  const receiptOption = ms.options.find((o) => o.type === MILESTONE_OPTION_RECEIPT);
  if (receiptOption !== undefined) {
    receipt = applyReceipt(
      receiptOption,
      { index: ms.index, timestamp: ms.timestamp, milestoneId },
      await ledger.treasury(),
    );
  }

  const batch = store.batch();
  await writeBlockMetadata(store, batch, wf.verdicts, ms.index);
  await writeMilestoneBlockMetadata(store, batch, milestoneBlockId, milestoneBlock, ms.index);
  for (const v of wf.verdicts)
    if (v.ledgerInclusionState === 'included' && v.transactionId !== undefined)
      batch.setIncludedBlock(v.transactionId, v.blockId);
  const created = receipt === undefined ? wf.created : [...wf.created, ...receipt.outputs];
  writeOutputs(batch, created, wf.consumed);
  if (input.history !== false) {
    const at = { index: ms.index, milestoneId, timestamp: ms.timestamp };
    await writeMilestoneHistory(store, batch, { ...at, cone, created, consumed: wf.consumed });
  }
  const diff: MilestoneDiff = { created: created.map((o) => o.outputId), consumed: wf.consumed.map((o) => o.outputId) };
  if (receipt !== undefined && receiptOption !== undefined) {
    diff.treasury = receipt.treasury;
    batch.put(LEDGER_TABLES.treasury, receipt.treasury.spent.milestoneId, {
      amount: receipt.treasury.spent.amount,
      spent: true,
    });
    batch.put(LEDGER_TABLES.treasury, receipt.treasury.created.milestoneId, {
      amount: receipt.treasury.created.amount,
      spent: false,
    });
    batch.put(
      LEDGER_TABLES.receipts,
      { migratedAt: receiptOption.migratedAt, milestoneIndex: ms.index },
      receiptOption,
    );
  }
  batch.put(LEDGER_TABLES.milestoneDiffs, ms.index, diff);
  const changes = protocolChanges(ms, await ledger.protocolParametersChanges());
  if (changes !== undefined) batch.putMeta(LEDGER_META.protocolParametersChanges, changes);
  batch.putMilestone(ms.index, { milestoneId, blockId: milestoneBlockId, timestamp: ms.timestamp });
  batch.putMeta(META.ledgerIndex, ms.index);
  batch.putMeta(META.confirmedMilestoneIndex, ms.index);
  const latest = await store.getMeta(META.latestMilestoneIndex);
  if (latest === undefined || latest < ms.index) batch.putMeta(META.latestMilestoneIndex, ms.index);

  const result: MilestoneConfirmation = {
    milestoneIndex: ms.index,
    milestoneId,
    milestoneTimestamp: ms.timestamp,
    verdicts: wf.verdicts,
    created,
    consumed: wf.consumed,
    inclusionMerkleRoot: wf.inclusionMerkleRoot,
    appliedMerkleRoot: wf.appliedMerkleRoot,
    batch,
  };
  if (receipt !== undefined) result.receipt = receipt;
  return result;
}

async function writeBlockMetadata(
  store: NodeStore,
  batch: StoreBatch,
  verdicts: readonly ConeVerdict[],
  milestoneIndex: number,
): Promise<void> {
  // One snapshot read for the whole cone.
  const existing = await store.getMany(
    TABLES.blockMetadata,
    verdicts.map((v) => v.blockId),
  );
  verdicts.forEach((v, i) => {
    const base: BlockMetadata = existing[i] ?? { protocolVersion: 2, ...DEFAULT_METADATA };
    batch.putBlockMetadata(v.blockId, {
      ...base,
      solid: true, // a confirmed cone is solid by definition
      referenced: {
        milestoneIndex,
        whiteFlagIndex: v.whiteFlagIndex,
        ledgerInclusionState: v.ledgerInclusionState,
        conflictReason: v.conflictReason,
      },
    });
  });
}

async function writeMilestoneBlockMetadata(
  store: NodeStore,
  batch: StoreBatch,
  blockId: Uint8Array,
  block: Block,
  index: number,
): Promise<void> {
  const base = (await store.getBlockMetadata(blockId)) ?? {
    protocolVersion: block.protocolVersion === 3 ? 3 : 2,
    ...DEFAULT_METADATA,
  };
  batch.putBlockMetadata(blockId, { ...base, milestoneIndex: index });
}

function writeOutputs(batch: StoreBatch, created: readonly CreatedOutput[], consumed: readonly ConsumedOutput[]): void {
  const spentNow = new Set(consumed.map((o) => toHex(o.outputId)));
  for (const { outputId, ...record } of created) {
    batch.put(LEDGER_TABLES.outputs, outputId, record);
    if (!spentNow.has(toHex(outputId))) batch.put(LEDGER_TABLES.unspent, outputId, null);
  }
  for (const o of consumed) {
    batch.put(LEDGER_TABLES.spent, o.outputId, o.spent);
    batch.del(LEDGER_TABLES.unspent, o.outputId);
  }
  indexLedgerChanges(batch, created, consumed);
}

/**
 * The announced changes after this milestone, or undefined when it announces none (a later one replaces a same-target
 * one).
 */
function protocolChanges(
  ms: MilestonePayload,
  current: ProtocolParametersChange[],
): ProtocolParametersChange[] | undefined {
  const announced = ms.options.filter((o) => o.type === MILESTONE_OPTION_PROTOCOL_PARAMS);
  if (announced.length === 0) return undefined;
  let next = current;
  for (const o of announced) {
    next = next.filter((c) => c.targetMilestoneIndex !== o.targetMilestoneIndex);
    next.push({
      targetMilestoneIndex: o.targetMilestoneIndex,
      protocolVersion: o.protocolVersion,
      params: o.params,
      announcedAt: ms.index,
    });
  }
  return next.sort((a, b) => a.targetMilestoneIndex - b.targetMilestoneIndex);
}
