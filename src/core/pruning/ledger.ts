/**
 * What pruning a milestone deletes from the ledger (Hornet `PruneMilestoneIndexWithoutLocking`): the outputs it
 * consumed with their spent records (an output goes once its spending milestone is pruned; unspent outputs and the
 * TIP-26 index, which holds unspent outputs only, are never touched), the treasury output it spent, its diff, its
 * milestone record and ID index entry. Receipts stay (GET /receipts lists them all; a snapshot carries them).
 */
import { LEDGER_META, type PruningState } from '../ledger/ledger-meta.ts';
import { LedgerState } from '../ledger/ledger-state.ts';
import { LEDGER_TABLES } from '../ledger/tables.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { StoreBatch } from '../store/store-batch.ts';
import { TABLES } from '../store/tables.ts';

export interface MilestoneLedgerPrune {
  index: number;
  /** Outputs the milestone consumed (each with its spent record). */
  consumed: Uint8Array[];
  /** The treasury output the milestone spent (a receipt), by the ID of the milestone that created it. */
  spentTreasury?: Uint8Array;
  /** The milestone's ID, when its record is still stored. */
  milestoneId?: Uint8Array;
}

export async function milestoneLedgerToPrune(store: NodeStore, index: number): Promise<MilestoneLedgerPrune> {
  const diff = await new LedgerState(store).milestoneDiff(index);
  const record = await store.milestone(index);
  const out: MilestoneLedgerPrune = { index, consumed: diff?.consumed ?? [] };
  if (diff?.treasury) out.spentTreasury = diff.treasury.spent.milestoneId;
  if (record) out.milestoneId = record.milestoneId;
  return out;
}

export function deleteSpentOutputs(batch: StoreBatch, outputIds: readonly Uint8Array[]): void {
  for (const id of outputIds) {
    batch.del(LEDGER_TABLES.outputs, id);
    batch.del(LEDGER_TABLES.spent, id);
  }
}

/** The last write of a milestone: its diff, treasury, record and ID index go, and the pruning state moves on to it. */
export function finishMilestone(batch: StoreBatch, plan: MilestoneLedgerPrune, state: PruningState): void {
  batch.del(LEDGER_TABLES.milestoneDiffs, plan.index);
  if (plan.spentTreasury) batch.del(LEDGER_TABLES.treasury, plan.spentTreasury);
  batch.del(TABLES.milestones, plan.index);
  if (plan.milestoneId) batch.del(TABLES.milestoneIndexById, plan.milestoneId);
  batch.putMeta(LEDGER_META.pruning, { ...state, done: plan.index });
}
