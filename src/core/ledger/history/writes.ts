/**
 * The history writes of one ledger change, added to the caller's StoreBatch so they commit with the ledger
 * (confirm.ts for a milestone, genesis.ts and the snapshot import for the outputs a ledger starts with):
 *   - the milestone (index -> ID, timestamp; ID -> index);
 *   - its blocks in White-Flag order, each with its payload type, in parts (tables.ts);
 *   - a ledger update per output booked (`spent` false, at the booking milestone) and per output spent (`spent` true,
 *     at the spending milestone), under the owning address (owner.ts), as inx-chronicle's `stardust_ledger_updates`
 *     (an output booked and spent by one milestone has both): in parts for the milestone and for each address;
 *   - the aggregates (balances.ts).
 * Block pruning adds what the store's tables no longer say of a referenced block it deletes (`keepPrunedBlock`).
 */
import { compareBytes } from '../../bytes.ts';
import type { CommonOutput } from '../../model/output.ts';
import type { NodeStore } from '../../store/node-store.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import type { ConeBlock } from '../cone.ts';
import { applyBalanceDeltas, BalanceDeltas } from './balances.ts';
import { BytesMap } from './keys.ts';
import { AddressArrays, holdingOf, type Holding } from './owner.ts';
import {
  HISTORY_TABLES,
  PART_SIZE,
  type AddressGroup,
  type MilestoneBlock,
  type MilestoneUpdate,
  type UpdateEntry,
} from './tables.ts';

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

/** `items` (sorted) in parts of at most PART_SIZE, each with the index of its first item. */
function parts<T>(items: readonly T[]): [first: number, part: T[]][] {
  const out: [number, T[]][] = [];
  for (let i = 0; i < items.length; i += PART_SIZE) out.push([i, items.slice(i, i + PART_SIZE)]);
  return out;
}

/**
 * How updates are written. `whole`: they are every update of their milestones (a confirmation, a genesis, a build's
 * milestone with a diff): sorted and cut into parts of PART_SIZE. `one each`: more may come later for the same
 * milestones (a snapshot's chunks, a build's outputs booked before its diffs): each update is a part of its own, so
 * parts never overlap whatever order the chunks come in. A milestone gets its updates one way only.
 */
export type UpdatesWrite = 'whole' | 'one each';

/**
 * Adds `updates` to the milestones' and addresses' parts (nothing is read). `whole`: sorted once, so the lists grouped
 * from them are sorted too; the updates themselves are the items of the parts (their codecs read only their fields).
 */
export function putLedgerUpdates(batch: StoreBatch, updates: readonly LedgerUpdate[], write: UpdatesWrite): void {
  const byMilestone = new Map<number, MilestoneUpdate[]>();
  const byAddress = new Map<number, BytesMap<{ address: Uint8Array; group: AddressGroup }>>();
  for (const u of write === 'whole' ? [...updates].sort(compareEntries) : updates) {
    let list = byMilestone.get(u.milestoneIndex);
    let groups = byAddress.get(u.milestoneIndex);
    if (list === undefined || groups === undefined) {
      list = [];
      groups = new BytesMap();
      byMilestone.set(u.milestoneIndex, list);
      byAddress.set(u.milestoneIndex, groups);
    }
    list.push(u);
    const { address, timestamp } = u;
    groups.getOrAdd(address, () => ({ address, group: { timestamp, entries: [] } })).group.entries.push(u);
  }
  const cut = <T>(items: T[]): T[][] => (write === 'whole' ? parts(items).map(([, p]) => p) : items.map((i) => [i]));
  for (const [milestoneIndex, list] of byMilestone)
    for (const part of cut(list)) batch.put(HISTORY_TABLES.byMilestone, { milestoneIndex, first: part[0]! }, part);
  for (const [milestoneIndex, groups] of byAddress)
    for (const { address, group } of groups.values())
      for (const entries of cut(group.entries))
        batch.put(
          HISTORY_TABLES.byAddress,
          { address, milestoneIndex, first: entries[0]! },
          { timestamp: group.timestamp, entries },
        );
}

/** A milestone's blocks in White-Flag order, in parts. */
export function putMilestoneBlocks(batch: StoreBatch, milestoneIndex: number, blocks: readonly MilestoneBlock[]): void {
  for (const [firstWhiteFlagIndex, part] of parts(blocks))
    batch.put(HISTORY_TABLES.milestoneBlocks, { milestoneIndex, firstWhiteFlagIndex }, part);
}

/** Every history write of a confirmed milestone, and its aggregate writes (which read the records they change). */
export async function writeMilestoneHistory(store: NodeStore, batch: StoreBatch, m: MilestoneHistory): Promise<void> {
  putHistoryMilestone(batch, m.index, m.milestoneId, m.timestamp);
  putMilestoneBlocks(
    batch,
    m.index,
    m.cone.map(({ blockId, block }) => ({ blockId, payloadType: block.payload?.type })),
  );
  const deltas = new BalanceDeltas();
  const updates: LedgerUpdate[] = [];
  // one array per address: the maps of the updates, the aggregates and the parts' codec then key each address once
  const addresses = new AddressArrays();
  const holding = (output: CommonOutput): Holding => holdingOf(output, (a) => addresses.of(a));
  for (const o of m.created) {
    const h = holding(o.output);
    updates.push(bookedUpdate(o, h));
    deltas.addHolding(h, 1);
  }
  for (const o of m.consumed) {
    const h = holding(o.output);
    updates.push(spentUpdate(o, h));
    deltas.addHolding(h, -1);
  }
  putLedgerUpdates(batch, updates, 'whole');
  await applyBalanceDeltas(store, batch, deltas);
}

/**
 * The history of outputs a ledger starts with: their "booked" updates and their aggregates; `whole` when they are all
 * of it (a genesis), `one each` for a snapshot's chunks. Chunks must be committed one after the other: each reads the
 * aggregate records the one before wrote.
 */
export async function putUnspentHistory(
  store: NodeStore,
  batch: StoreBatch,
  outputs: readonly BookedOutput[],
  write: UpdatesWrite,
): Promise<void> {
  const deltas = new BalanceDeltas();
  for (const o of outputs) deltas.add(o.output, 1);
  putLedgerUpdates(
    batch,
    outputs.map((o) => bookedUpdate(o)),
    write,
  );
  await applyBalanceDeltas(store, batch, deltas);
}

/**
 * What the history keeps of a referenced block that block pruning deletes, when its milestone is in the history
 * (at or above `start`): its milestone and parents, and its edge from each parent (the store's `children` table loses
 * them).
 */
export function keepPrunedBlock(
  batch: StoreBatch,
  b: { blockId: Uint8Array; parents: readonly Uint8Array[]; referencedAt?: number },
  start: number | undefined,
): void {
  const m = b.referencedAt;
  if (m === undefined || start === undefined || m < start || b.blockId.length !== 32) return;
  batch.put(HISTORY_TABLES.blocks, b.blockId, { milestoneIndex: m, parents: [...b.parents] });
  for (const parentId of b.parents)
    batch.put(HISTORY_TABLES.children, { parentId, milestoneIndex: m, childId: b.blockId }, null);
}
