/**
 * The history writes of one ledger change, added to the caller's StoreBatch so they commit with the ledger
 * (confirm.ts for a milestone, genesis.ts and the snapshot import for the outputs a ledger starts from):
 *   - the milestone (index -> ID, timestamp; ID -> index);
 *   - its blocks in White-Flag order, each with its milestone, white-flag index, payload type and parents, and a child
 *     edge from every parent (the children of a block are the referenced blocks naming it as a parent);
 *   - a ledger update per output booked (`spent` false, at the booking milestone) and per output spent (`spent` true,
 *     at the spending milestone), under the owning address (owner.ts), by address and by milestone, as inx-chronicle's
 *     `stardust_ledger_updates`; an output booked and spent by one milestone has both;
 *   - the aggregates (balances.ts).
 */
import type { ConeBlock } from '../cone.ts';
import type { CommonOutput } from '../../model/output.ts';
import type { NodeStore } from '../../store/node-store.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import type { ConeVerdict } from '../white-flag.ts';
import { applyBalanceDeltas, BalanceDeltas } from './balances.ts';
import { ownerOf } from './owner.ts';
import { HISTORY_TABLES, type HistoryBlock } from './tables.ts';

/** An output with its booking: what a "booked" ledger update and the aggregates need. */
export interface BookedOutput {
  outputId: Uint8Array;
  milestoneIndexBooked: number;
  milestoneTimestampBooked: number;
  output: CommonOutput;
}

/** A spent output: its booking and the milestone that spent it. */
export interface SpentOutput {
  outputId: Uint8Array;
  output: CommonOutput;
  spent: { milestoneIndexSpent: number; milestoneTimestampSpent: number };
}

export interface MilestoneHistory {
  index: number;
  milestoneId: Uint8Array;
  timestamp: number;
  /** The cone in White-Flag order, and the verdict of each block (same order). */
  cone: readonly ConeBlock[];
  verdicts: readonly ConeVerdict[];
  created: readonly BookedOutput[];
  consumed: readonly SpentOutput[];
}

export function putHistoryMilestone(
  batch: StoreBatch,
  index: number,
  milestoneId: Uint8Array,
  timestamp: number,
): void {
  batch.put(HISTORY_TABLES.milestones, index, { milestoneId, timestamp });
  batch.put(HISTORY_TABLES.milestoneIds, milestoneId, index);
}

/** A referenced block's entries: its record, its place in its milestone, a child edge from each parent. */
export function putHistoryBlock(batch: StoreBatch, blockId: Uint8Array, b: HistoryBlock): void {
  batch.put(HISTORY_TABLES.blocks, blockId, b);
  batch.put(
    HISTORY_TABLES.milestoneBlocks,
    { milestoneIndex: b.milestoneIndex, whiteFlagIndex: b.whiteFlagIndex },
    { blockId, payloadType: b.payloadType },
  );
  for (const parentId of b.parents)
    batch.put(HISTORY_TABLES.children, { parentId, milestoneIndex: b.milestoneIndex, childId: blockId }, null);
}

/** The ledger update of an output booked at its booking milestone. */
export function putBookedUpdate(batch: StoreBatch, o: BookedOutput): void {
  putUpdate(batch, ownerOf(o.output), o.milestoneIndexBooked, o.outputId, false, o.milestoneTimestampBooked);
}

/** The ledger update of an output spent, under the address that owned it at that moment. */
export function putSpentUpdate(batch: StoreBatch, o: SpentOutput): void {
  const { milestoneIndexSpent: index, milestoneTimestampSpent: at } = o.spent;
  putUpdate(batch, ownerOf(o.output, at), index, o.outputId, true, at);
}

function putUpdate(
  batch: StoreBatch,
  address: Uint8Array,
  milestoneIndex: number,
  outputId: Uint8Array,
  spent: boolean,
  timestamp: number,
): void {
  batch.put(HISTORY_TABLES.byAddress, { address, milestoneIndex, outputId, spent }, timestamp);
  batch.put(HISTORY_TABLES.byMilestone, { milestoneIndex, outputId, spent }, address);
}

/** Every history write of a confirmed milestone, and its aggregate writes (which read the records it changes). */
export async function writeMilestoneHistory(store: NodeStore, batch: StoreBatch, m: MilestoneHistory): Promise<void> {
  putHistoryMilestone(batch, m.index, m.milestoneId, m.timestamp);
  m.cone.forEach(({ blockId, block }, i) => {
    putHistoryBlock(batch, blockId, {
      milestoneIndex: m.index,
      whiteFlagIndex: m.verdicts[i]?.whiteFlagIndex ?? i,
      payloadType: block.payload?.type,
      parents: block.parents,
    });
  });
  const deltas = new BalanceDeltas();
  for (const o of m.created) {
    putBookedUpdate(batch, o);
    deltas.add(o.output, 1);
  }
  for (const o of m.consumed) {
    putSpentUpdate(batch, o);
    deltas.add(o.output, -1);
  }
  await applyBalanceDeltas(store, batch, deltas);
}

/**
 * The history of outputs a ledger starts with (a genesis, a snapshot's chunk): their "booked" updates and their
 * aggregates. Chunks must be committed one after the other: each reads the records the one before wrote.
 */
export async function putUnspentHistory(
  store: NodeStore,
  batch: StoreBatch,
  outputs: readonly BookedOutput[],
): Promise<void> {
  const deltas = new BalanceDeltas();
  for (const o of outputs) {
    putBookedUpdate(batch, o);
    deltas.add(o.output, 1);
  }
  await applyBalanceDeltas(store, batch, deltas);
}
