/**
 * The state a ledger starts from (a snapshot, parsed elsewhere into this structure) and `initLedger`, which writes it
 * into an empty ledger in one batch, with the TIP-26 index of its unspent outputs (indexer/) and the start of the
 * explorer history (history/: the milestone, the outputs' ledger updates, the aggregates).
 */
import { toHex0x } from '../bytes.ts';
import { reject } from '../errors.ts';
import { outputId as makeOutputId, parseOutputId } from '../ids/output-id.ts';
import type { MilestoneKeyRange } from '../ids/milestone-signatures.ts';
import { ID_LENGTH } from '../model/limits.ts';
import type { CommonOutput } from '../model/output.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import { META } from '../store/meta.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { StoreBatch } from '../store/store-batch.ts';
import { INDEX_VERSION, INDEXER_META } from './indexer/tables.ts';
import { indexLedgerChanges } from './indexer/writes.ts';
import { HISTORY_META, HISTORY_VERSION } from './history/tables.ts';
import { putHistoryMilestone, putUnspentHistory } from './history/writes.ts';
import type { ReceiptMilestoneOption } from '../model/payload.ts';
import { LEDGER_META, type ProtocolParametersChange } from './ledger-meta.ts';
import { LEDGER_TABLES } from './tables.ts';
import type { TreasuryState } from './treasury-record.ts';

export interface GenesisOutput {
  outputId: Uint8Array;
  /** Block whose transaction created the output (zeros when the snapshot does not know it). */
  blockId: Uint8Array;
  milestoneIndexBooked: number;
  milestoneTimestampBooked: number;
  output: CommonOutput;
}

export interface LedgerGenesis {
  protocolParameters: ProtocolParameters;
  /** The last confirmed milestone of the snapshot: the next milestone must have index + 1 and point to this ID. */
  milestone: { index: number; timestamp: number; milestoneId: Uint8Array; blockId?: Uint8Array };
  milestoneKeyRanges: MilestoneKeyRange[];
  /** Signatures a milestone needs (`milestonePublicKeyCount`). */
  milestonePublicKeyCount: number;
  /** Blocks treated as known and already referenced: cones never enter them. */
  solidEntryPoints: Uint8Array[];
  unspentOutputs: GenesisOutput[];
  treasury?: TreasuryState;
  /** Announced protocol parameter changes not in force at the milestone yet (a snapshot's pending ones). */
  protocolParametersChanges?: ProtocolParametersChange[];
  /** Receipts of earlier milestones (a snapshot keeps them: GET /receipts). */
  receipts?: { milestoneIndex: number; receipt: ReceiptMilestoneOption }[];
}

const ZERO_ID = new Uint8Array(ID_LENGTH);

/**
 * Writes `outputs` into `batch` as unspent: their output records, the unspent set and their TIP-26 index entries
 * (the genesis ledger here; the outputs of a snapshot, written chunk by chunk, in node/snapshots/).
 */
export function putUnspentOutputs(batch: StoreBatch, outputs: readonly GenesisOutput[]): void {
  for (const o of outputs) {
    batch.put(LEDGER_TABLES.outputs, o.outputId, {
      blockId: o.blockId,
      milestoneIndexBooked: o.milestoneIndexBooked,
      milestoneTimestampBooked: o.milestoneTimestampBooked,
      output: o.output,
    });
    batch.put(LEDGER_TABLES.unspent, o.outputId, null);
  }
  indexLedgerChanges(batch, outputs, []);
}

/**
 * Writes `genesis` into a store that holds no ledger yet (DUPLICATE otherwise); commits one batch. Outputs a snapshot
 * import wrote before (putUnspentOutputs and putUnspentHistory per chunk) stay: their history is complete then.
 */
export async function initLedger(store: NodeStore, genesis: LedgerGenesis): Promise<void> {
  const existing = await store.getMeta(META.ledgerIndex);
  if (existing !== undefined)
    reject('DUPLICATE', `Cannot initialise the ledger: the store already holds a ledger at milestone ${existing}`, {
      field: 'ledgerIndex',
      value: String(existing),
    });
  const { milestone } = genesis;
  if (!Number.isInteger(milestone.index) || milestone.index < 0 || milestone.index > 0xffffffff)
    throw new RangeError(`genesis milestone index must be a u32, got ${milestone.index}`);
  if (!Number.isInteger(genesis.milestonePublicKeyCount) || genesis.milestonePublicKeyCount < 1) {
    throw new RangeError(`genesis milestonePublicKeyCount must be >= 1, got ${genesis.milestonePublicKeyCount}`);
  }
  const batch = store.batch();
  const seen = new Set<string>();
  genesis.unspentOutputs.forEach((o, i) => {
    const { transactionId, index } = parseOutputId(o.outputId, `unspentOutputs[${i}].outputId`);
    const key = toHex0x(makeOutputId(transactionId, index));
    if (seen.has(key))
      reject('DUPLICATE', `Cannot initialise the ledger: output ${key} is listed twice`, {
        field: `unspentOutputs[${i}].outputId`,
        value: key,
      });
    seen.add(key);
  });
  putUnspentOutputs(batch, genesis.unspentOutputs);
  batch.putMeta(INDEXER_META.version, INDEX_VERSION);
  await putUnspentHistory(store, batch, genesis.unspentOutputs, 'whole');
  putHistoryMilestone(batch, milestone.index, milestone.milestoneId, milestone.timestamp);
  batch.putMeta(HISTORY_META.start, milestone.index).putMeta(HISTORY_META.version, HISTORY_VERSION);
  if (genesis.treasury !== undefined)
    batch.put(LEDGER_TABLES.treasury, genesis.treasury.milestoneId, { amount: genesis.treasury.amount, spent: false });
  batch.putMilestone(milestone.index, {
    milestoneId: milestone.milestoneId,
    blockId: milestone.blockId ?? ZERO_ID,
    timestamp: milestone.timestamp,
  });
  batch.putMeta(LEDGER_META.protocolParameters, genesis.protocolParameters);
  batch.putMeta(
    LEDGER_META.protocolParametersChanges,
    [...(genesis.protocolParametersChanges ?? [])].sort((a, b) => a.targetMilestoneIndex - b.targetMilestoneIndex),
  );
  for (const r of genesis.receipts ?? [])
    batch.put(
      LEDGER_TABLES.receipts,
      { migratedAt: r.receipt.migratedAt, milestoneIndex: r.milestoneIndex },
      r.receipt,
    );
  batch.putMeta(LEDGER_META.solidEntryPoints, genesis.solidEntryPoints);
  batch.putMeta(LEDGER_META.milestoneKeys, {
    keyRanges: genesis.milestoneKeyRanges,
    threshold: genesis.milestonePublicKeyCount,
  });
  batch.putMeta(META.ledgerIndex, milestone.index);
  batch.putMeta(META.confirmedMilestoneIndex, milestone.index);
  const latest = await store.getMeta(META.latestMilestoneIndex);
  if (latest === undefined || latest < milestone.index) batch.putMeta(META.latestMilestoneIndex, milestone.index);
  await batch.commit();
}
