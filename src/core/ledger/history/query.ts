/**
 * The reads of the explorer routes over the history tables (tables.ts), in inx-chronicle 1.0's orders and cursors
 * (the ledger updates and blocks, kept in parts, in pages.ts):
 *   - milestones: by index, within a range of timestamps (found by binary search: timestamps strictly increase);
 *   - children of a block: the most recently referenced first, by page number;
 *   - the richest addresses and the token distribution, from the aggregates.
 * A page takes `pageSize + 1` items at most: the extra one is the next page's first item, and its cursor. A read of
 * what the history no longer keeps (retention, prune.ts) or never had throws HistoryMissing: PRUNED or NOT_FOUND,
 * with a message that says which milestones are kept.
 */
import { compareBytes, toHex, toHex0x } from '../../bytes.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixUpperBound } from '../../store/range.ts';
import type { RangeOptions } from '../../store/kv.ts';
import { storeKey, tableEntries, u32BE } from './keys.ts';
import { TABLES } from '../../store/tables.ts';
import type { ChildrenQuery, MilestonesQuery } from './params.ts';
import { AGGREGATE_TABLES, HISTORY_META, HISTORY_TABLES, type HistoryMilestone } from './tables.ts';

/** A read outside the history kept: NOT_FOUND (unknown, not confirmed yet) or PRUNED (no longer kept). */
export class HistoryMissing extends Error {
  constructor(
    readonly reason: 'NOT_FOUND' | 'PRUNED',
    message: string,
  ) {
    super(message);
    this.name = 'HistoryMissing';
  }
}

/** What the history holds: milestones `start`..`ledgerIndex` whole; nothing at or below `prunedTo`. */
export interface HistoryRange {
  start: number;
  ledgerIndex: number;
  prunedTo?: number;
}

/** The range of the history, or undefined without a ledger or before the history is built. */
export async function historyRange(store: NodeStore): Promise<HistoryRange | undefined> {
  const [ledgerIndex, start, prunedTo] = [
    await store.getMeta(META.ledgerIndex),
    await store.getMeta(HISTORY_META.start),
    await store.getMeta(HISTORY_META.prunedTo),
  ];
  if (ledgerIndex === undefined || start === undefined) return undefined;
  return prunedTo === undefined ? { start, ledgerIndex } : { start, ledgerIndex, prunedTo };
}

export const kept = (r: HistoryRange): string =>
  `this node keeps the history of milestones ${r.start} to ${r.ledgerIndex}`;

/** A milestone's history is whole: else PRUNED (below the start) or NOT_FOUND (not confirmed yet). */
export function requireKeptMilestone(r: HistoryRange, index: number): void {
  if (index < r.start) throw new HistoryMissing('PRUNED', `milestone ${index} is not in the history: ${kept(r)}`);
  if (index > r.ledgerIndex)
    throw new HistoryMissing('NOT_FOUND', `milestone ${index} is not confirmed yet: ${kept(r)}`);
}

export interface Page<T> {
  items: T[];
  /** The next page's cursor, when there is one. */
  cursor?: string;
}

/** From `lo` to every key starting with `hiPrefix` (raw store keys, both inclusive), in `sort` order. */
export function between(lo: Uint8Array, hiPrefix: Uint8Array, newest: boolean, limit: number): RangeOptions {
  const lt = prefixUpperBound(hiPrefix);
  return { gte: lo, ...(lt ? { lt } : {}), reverse: newest, limit };
}

/** The index of a milestone of the history by its ID; NOT_FOUND when the history does not hold it. */
export async function historyMilestoneIndex(store: NodeStore, r: HistoryRange, milestoneId: Uint8Array) {
  const index = await store.get(HISTORY_TABLES.milestoneIds, milestoneId);
  if (index === undefined || index < r.start)
    throw new HistoryMissing('NOT_FOUND', `milestone ${toHex0x(milestoneId)} is unknown or not kept: ${kept(r)}`);
  return index;
}

async function milestoneAt(store: NodeStore, index: number): Promise<HistoryMilestone> {
  const m = await store.get(HISTORY_TABLES.milestones, index);
  if (m === undefined) throw new Error(`the history has no record of milestone ${index} (inside its range)`);
  return m;
}

/** The first index in [lo, hi] whose timestamp passes `ok` (monotone: false then true), or hi + 1. */
async function search(store: NodeStore, lo: number, hi: number, ok: (t: number) => boolean): Promise<number> {
  let [a, b] = [lo, hi + 1];
  while (a < b) {
    const mid = a + Math.floor((b - a) / 2);
    if (ok((await milestoneAt(store, mid)).timestamp)) b = mid;
    else a = mid + 1;
  }
  return a;
}

export interface MilestoneItem {
  index: number;
  milestoneId: Uint8Array;
}

/** A page of the milestones kept, between the timestamps (inclusive) when given. */
export async function milestonesPage(
  store: NodeStore,
  r: HistoryRange,
  q: MilestonesQuery,
): Promise<Page<MilestoneItem>> {
  if (q.cursor !== undefined && q.cursor < r.start)
    throw new HistoryMissing('PRUNED', `milestone ${q.cursor} (the cursor) is not in the history: ${kept(r)}`);
  let [lo, hi] = [r.start, r.ledgerIndex];
  if (q.startTimestamp !== undefined) lo = await search(store, lo, hi, (t) => t >= q.startTimestamp!);
  if (q.endTimestamp !== undefined) hi = (await search(store, lo, hi, (t) => t > q.endTimestamp!)) - 1;
  const newest = q.sort === 'newest';
  if (q.cursor !== undefined) {
    if (newest) hi = Math.min(hi, q.cursor);
    else lo = Math.max(lo, q.cursor);
  }
  if (lo > hi) return { items: [] };
  const P = HISTORY_TABLES.milestones.prefix;
  const range = between(storeKey(P, u32BE(lo)), storeKey(P, u32BE(hi)), newest, q.pageSize + 1);
  const entries = await tableEntries(store, HISTORY_TABLES.milestones, range);
  const items = entries.slice(0, q.pageSize).map(([index, m]) => ({ index, milestoneId: m.milestoneId }));
  const next = entries[q.pageSize]?.[0];
  return next === undefined ? { items } : { items, cursor: `${next}.${q.pageSize}` };
}

/**
 * The children of a block the history holds, the most recently referenced first (then by block ID, descending), page
 * `page` of `pageSize`: the referenced children the store's `children` table holds, and those block pruning deleted
 * (historyChildren). A block is in the history when its milestone (its metadata's, or historyBlocks' once pruned) is.
 */
export async function blockChildren(
  store: NodeStore,
  r: HistoryRange,
  blockId: Uint8Array,
  q: ChildrenQuery,
): Promise<Uint8Array[]> {
  const m =
    (await store.getBlockMetadata(blockId))?.referenced?.milestoneIndex ??
    (await store.get(HISTORY_TABLES.blocks, blockId))?.milestoneIndex;
  if (m === undefined || m < r.start || m > r.ledgerIndex)
    throw new HistoryMissing(
      'NOT_FOUND',
      `block ${toHex0x(blockId)} is not in the history: unknown, not referenced by a milestone yet, or referenced ` +
        `outside the history kept (${kept(r)})`,
    );
  const inRange = (i: number | undefined): i is number => i !== undefined && i >= r.start && i <= r.ledgerIndex;
  const found = new Map<string, { milestoneIndex: number; childId: Uint8Array }>();
  const stored = await store.children(blockId);
  const metadata = await store.getMany(TABLES.blockMetadata, stored);
  stored.forEach((childId, i) => {
    const at = metadata[i]?.referenced?.milestoneIndex;
    if (inRange(at)) found.set(toHex(childId), { milestoneIndex: at, childId });
  });
  for await (const k of store.keys(HISTORY_TABLES.children, { prefix: blockId }))
    if (inRange(k.milestoneIndex)) found.set(toHex(k.childId), k);
  const all = [...found.values()].sort(
    (a, b) => b.milestoneIndex - a.milestoneIndex || compareBytes(b.childId, a.childId),
  );
  const skip = q.page * q.pageSize;
  return all.slice(skip, skip + q.pageSize).map((c) => c.childId);
}

/** The `top` addresses with the highest balances (ties: the higher serialized address first). */
export async function richestAddresses(
  store: NodeStore,
  top: number,
): Promise<{ address: Uint8Array; amount: bigint }[]> {
  const out: { address: Uint8Array; amount: bigint }[] = [];
  for await (const k of store.keys(AGGREGATE_TABLES.richest, { reverse: true, limit: top })) out.push(k);
  return out;
}

/** The distribution buckets holding addresses, by magnitude. */
export async function tokenDistribution(
  store: NodeStore,
): Promise<{ magnitude: number; addresses: bigint; total: bigint }[]> {
  const out: { magnitude: number; addresses: bigint; total: bigint }[] = [];
  for await (const [magnitude, b] of store.entries(AGGREGATE_TABLES.distribution)) out.push({ magnitude, ...b });
  return out;
}
