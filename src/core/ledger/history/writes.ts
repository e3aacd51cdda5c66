/**
 * The history writes of one ledger change, added to the caller's StoreBatch so they commit with the ledger
 * (confirm.ts for a milestone, genesis.ts and the snapshot import for the outputs a ledger starts with):
 *   - the milestone (index -> ID, timestamp; ID -> index);
 *   - its blocks in White-Flag order, each with its payload type and parents, as one entry;
 *   - a ledger update per output booked (`spent` false, at the booking milestone) and per output spent (`spent` true,
 *     at the spending milestone), under the owning address (owner.ts), as inx-chronicle's `stardust_ledger_updates`
 *     (an output booked and spent by one milestone has both): one entry for the milestone, one per address;
 *   - the aggregates (balances.ts).
 * Block pruning adds what the store's tables no longer say of a referenced block it deletes (`keepPrunedBlock`).
 */
import { compareBytes } from '../../bytes.ts';
import type { CommonOutput } from '../../model/output.ts';
import type { NodeStore } from '../../store/node-store.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import type { ConeBlock } from '../cone.ts';
import { applyBalanceDeltas, BalanceDeltas } from './balances.ts';
import { byteKey } from './keys.ts';
import { holdingOf, type Holding } from './owner.ts';
import { HISTORY_TABLES, type AddressGroup, type MilestoneUpdate, type UpdateEntry } from './tables.ts';

/** An output with its booking: what a "booked" ledger update and the aggregates need. */
export interface BookedOutput {
  outputId: Uint8Array;
  milestoneIndexBooked: number;
  milestoneTimestampBooked: number;
  output: CommonOutput;
}

/** A spent output and the milestone that spent it. */
export interface SpentOutput {
  outputId: Uint8Array;
  output: CommonOutput;
  spent: { milestoneIndexSpent: number; milestoneTimestampSpent: number };
}

/** One ledger update: an output booked or spent at a milestone, under an address. */
export interface LedgerUpdate extends MilestoneUpdate {
  milestoneIndex: number;
  timestamp: number;
}

export interface MilestoneHistory {
  index: number;
  milestoneId: Uint8Array;
  timestamp: number;
  /** The cone in White-Flag order. */
  cone: readonly ConeBlock[];
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

export function bookedUpdate(o: BookedOutput, h: Holding = holdingOf(o.output)): LedgerUpdate {
  const { outputId, milestoneIndexBooked: milestoneIndex, milestoneTimestampBooked: timestamp } = o;
  return { address: h.owner, milestoneIndex, timestamp, outputId, spent: false };
}

/** The update of an output spent, under the address that owned it at that moment (owner.ts `ownerOf`). */
export function spentUpdate(o: SpentOutput, h: Holding = holdingOf(o.output)): LedgerUpdate {
  const { milestoneIndexSpent: milestoneIndex, milestoneTimestampSpent: timestamp } = o.spent;
  const expired = h.expiration !== undefined && timestamp >= h.expiration.unixTime;
  const address = expired ? h.expiration!.returnAddress : h.owner;
  return { address, milestoneIndex, timestamp, outputId: o.outputId, spent: true };
}

/** (output ID, spent) order, an update booked before its spend. */
export function compareEntries(a: UpdateEntry, b: UpdateEntry): number {
  return compareBytes(a.outputId, b.outputId) || Number(a.spent) - Number(b.spent);
}

const entryKey = (e: UpdateEntry): string => `${byteKey(e.outputId)}${e.spent ? 1 : 0}`;

/** `stored` and `added`, sorted, an entry given again counted once (nothing stored: `added` sorted in place). */
function merged<T extends UpdateEntry>(stored: readonly T[], added: T[]): T[] {
  if (stored.length === 0) return added.sort(compareEntries);
  const all = new Map<string, T>();
  for (const e of [...stored, ...added]) all.set(entryKey(e), e);
  return [...all.values()].sort(compareEntries);
}

/**
 * Adds `updates` to the milestones' and addresses' entries. `fresh`: every update is of a milestone no entry exists
 * for yet (a confirmation), so nothing is read; otherwise the stored entries are read and merged (a genesis, a
 * snapshot's chunks, a build), and an update given again replaces its copy.
 */
export async function putLedgerUpdates(
  store: NodeStore,
  batch: StoreBatch,
  updates: readonly LedgerUpdate[],
  fresh: boolean,
): Promise<void> {
  const byMilestone = new Map<number, MilestoneUpdate[]>();
  const byAddress = new Map<string, { address: Uint8Array; milestoneIndex: number; group: AddressGroup }>();
  for (const u of updates) {
    const list = byMilestone.get(u.milestoneIndex) ?? [];
    if (list.length === 0) byMilestone.set(u.milestoneIndex, list);
    list.push({ outputId: u.outputId, spent: u.spent, address: u.address });
    const key = `${byteKey(u.address)}.${u.milestoneIndex}`;
    let g = byAddress.get(key);
    if (g === undefined) {
      g = { address: u.address, milestoneIndex: u.milestoneIndex, group: { timestamp: u.timestamp, entries: [] } };
      byAddress.set(key, g);
    }
    g.group.entries.push({ outputId: u.outputId, spent: u.spent });
  }
  const milestones = [...byMilestone.keys()];
  const groups = [...byAddress.values()];
  const storedUpdates = fresh ? [] : await store.getMany(HISTORY_TABLES.byMilestone, milestones);
  const storedGroups = fresh ? [] : await store.getMany(HISTORY_TABLES.byAddress, groups);
  milestones.forEach((m, i) => {
    batch.put(HISTORY_TABLES.byMilestone, m, merged(storedUpdates[i] ?? [], byMilestone.get(m)!));
  });
  groups.forEach(({ address, milestoneIndex, group }, i) => {
    const entries = merged(storedGroups[i]?.entries ?? [], group.entries);
    batch.put(HISTORY_TABLES.byAddress, { address, milestoneIndex }, { timestamp: group.timestamp, entries });
  });
}

/** Every history write of a confirmed milestone, and its aggregate writes (which read the records they change). */
export async function writeMilestoneHistory(store: NodeStore, batch: StoreBatch, m: MilestoneHistory): Promise<void> {
  putHistoryMilestone(batch, m.index, m.milestoneId, m.timestamp);
  if (m.cone.length > 0)
    batch.put(
      HISTORY_TABLES.milestoneBlocks,
      m.index,
      m.cone.map(({ blockId, block }) => ({ blockId, payloadType: block.payload?.type, parents: block.parents })),
    );
  const deltas = new BalanceDeltas();
  const updates: LedgerUpdate[] = [];
  for (const o of m.created) {
    const h = holdingOf(o.output);
    updates.push(bookedUpdate(o, h));
    deltas.addHolding(h, 1);
  }
  for (const o of m.consumed) {
    const h = holdingOf(o.output);
    updates.push(spentUpdate(o, h));
    deltas.addHolding(h, -1);
  }
  await putLedgerUpdates(store, batch, updates, true);
  await applyBalanceDeltas(store, batch, deltas);
}

/**
 * The history of outputs a ledger starts with (a genesis, a snapshot's chunk): their "booked" updates and their
 * aggregates. Chunks must be committed one after the other: each reads the entries the one before wrote.
 */
export async function putUnspentHistory(
  store: NodeStore,
  batch: StoreBatch,
  outputs: readonly BookedOutput[],
): Promise<void> {
  const deltas = new BalanceDeltas();
  for (const o of outputs) deltas.add(o.output, 1);
  await putLedgerUpdates(
    store,
    batch,
    outputs.map((o) => bookedUpdate(o)),
    false,
  );
  await applyBalanceDeltas(store, batch, deltas);
}

/**
 * What the history keeps of a referenced block that block pruning deletes, when its milestone is in the history
 * (at or above `start`): its milestone, and its edge from each parent (the store's `children` table loses them).
 */
export function keepPrunedBlock(
  batch: StoreBatch,
  b: { blockId: Uint8Array; parents: readonly Uint8Array[]; referencedAt?: number },
  start: number | undefined,
): void {
  const m = b.referencedAt;
  if (m === undefined || start === undefined || m < start || b.blockId.length !== 32) return;
  batch.put(HISTORY_TABLES.blocks, b.blockId, m);
  for (const parentId of b.parents)
    batch.put(HISTORY_TABLES.children, { parentId, milestoneIndex: m, childId: b.blockId }, null);
}
