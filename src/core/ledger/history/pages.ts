/**
 * The pages of the explorer routes over what the history keeps in parts (tables.ts), in inx-chronicle 1.0's orders:
 *   - ledger updates by address: (milestone index, output ID, spent) ascending (`oldest`) or descending (`newest`);
 *   - ledger updates by milestone: (output ID, spent) ascending;
 *   - blocks of a milestone: by white-flag index.
 * A page starts at the part holding its first item (a reverse seek of one key) and reads parts in order until it has
 * `pageSize + 1` items: the extra one is the next page's first item, and its cursor (an inclusive position, so pages
 * neither overlap nor skip). A read of what the history no longer keeps or never had throws HistoryMissing.
 */
import { concatBytes, toHex0x } from '../../bytes.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixRange } from '../../store/range.ts';
import { storeKey, tableEntries, tableRange, u32BE } from './keys.ts';
import type { AddressUpdatesQuery, MilestoneBlocksQuery, MilestoneUpdatesQuery } from './params.ts';
import { between, HistoryMissing, kept, requireKeptMilestone, type HistoryRange, type Page } from './query.ts';
import {
  HISTORY_TABLES,
  type AddressGroup,
  type AddressPartKey,
  type MilestoneBlock,
  type MilestoneUpdate,
  type UpdateEntry,
} from './tables.ts';
import { compareEntries } from './writes.ts';

/** A position as key bytes: output ID ‖ spent. */
const position = (e: UpdateEntry): Uint8Array => concatBytes(e.outputId, Uint8Array.of(e.spent ? 1 : 0));

/**
 * The key of the part holding `at` among the parts under `prefix`: the last part key at or before `prefix ‖ at` that
 * still has `prefix` (parts do not overlap, so it is the one holding it); undefined when there is none.
 */
export async function partAt(store: NodeStore, prefix: Uint8Array, at: Uint8Array): Promise<Uint8Array | undefined> {
  for await (const key of store.kv.keys({ gte: prefix, lte: concatBytes(prefix, at), reverse: true, limit: 1 }))
    return key;
  return undefined;
}

export interface AddressUpdate {
  milestoneIndex: number;
  milestoneTimestamp: number;
  outputId: Uint8Array;
  spent: boolean;
}

/** A page of an address's ledger updates. */
export async function addressUpdates(
  store: NodeStore,
  r: HistoryRange,
  address: Uint8Array,
  q: AddressUpdatesQuery,
): Promise<Page<AddressUpdate>> {
  const P = HISTORY_TABLES.byAddress.prefix;
  const floor = r.prunedTo === undefined ? 0 : r.prunedTo + 1;
  const newest = q.sort === 'newest';
  const c = q.cursor;
  const from = c?.milestoneIndex ?? q.start;
  const gone = `ledger updates at or below milestone ${r.prunedTo} are no longer kept (${kept(r)})`;
  if (from !== undefined && from < floor) throw new HistoryMissing('PRUNED', gone);
  if (!newest && q.end !== undefined && q.end < floor) throw new HistoryMissing('PRUNED', gone);
  const low = Math.max(floor, newest ? (q.end ?? 0) : (from ?? 0));
  const high = newest ? from : q.end;
  const limit = q.pageSize + 2; // parts hold one update at least
  let range = between(
    storeKey(P, address, u32BE(low)),
    storeKey(P, address, ...(high === undefined ? [] : [u32BE(high)])),
    newest,
    limit,
  );
  if (c !== undefined) {
    const milestone = storeKey(P, address, u32BE(c.milestoneIndex));
    if (newest) range = { gte: range.gte!, lte: concatBytes(milestone, position(c)), reverse: true, limit };
    else range = { ...range, gte: (await partAt(store, milestone, position(c))) ?? milestone };
  }
  const items: AddressUpdate[] = [];
  for await (const [{ milestoneIndex }, group] of tableRange(store, HISTORY_TABLES.byAddress, range)) {
    const entries = newest ? group.entries.reverse() : group.entries;
    for (const e of entries) {
      // inside the cursor's milestone, from the cursor's position on
      if (c !== undefined && milestoneIndex === c.milestoneIndex && compareEntries(e, c) * (newest ? -1 : 1) < 0)
        continue;
      items.push({ milestoneIndex, milestoneTimestamp: group.timestamp, outputId: e.outputId, spent: e.spent });
    }
    if (items.length > q.pageSize) break;
  }
  const next = items[q.pageSize];
  const page = items.slice(0, q.pageSize);
  if (next === undefined) return { items: page };
  return { items: page, cursor: `${next.milestoneIndex}.${toHex0x(next.outputId)}.${next.spent}.${q.pageSize}` };
}

export interface MilestoneUpdateItem {
  address: Uint8Array;
  outputId: Uint8Array;
  spent: boolean;
}

/** A page of a milestone's ledger updates, by output ID (a booked update before the spent one of the same output). */
export async function milestoneUpdates(
  store: NodeStore,
  r: HistoryRange,
  index: number,
  q: MilestoneUpdatesQuery,
): Promise<Page<MilestoneUpdateItem>> {
  requireKeptMilestone(r, index);
  const all = storeKey(HISTORY_TABLES.byMilestone.prefix, u32BE(index));
  const c = q.cursor;
  const start = (c !== undefined ? await partAt(store, all, position(c)) : undefined) ?? all;
  const items: MilestoneUpdateItem[] = [];
  for await (const [, part] of tableRange(
    store,
    HISTORY_TABLES.byMilestone,
    between(start, all, false, q.pageSize + 2),
  )) {
    for (const u of part) if (c === undefined || compareEntries(u, c) >= 0) items.push(u);
    if (items.length > q.pageSize) break;
  }
  const next = items[q.pageSize];
  const page = items.slice(0, q.pageSize);
  if (next === undefined) return { items: page };
  return { items: page, cursor: `${toHex0x(next.outputId)}.${next.spent}.${q.pageSize}` };
}

export interface BlockItem {
  blockId: Uint8Array;
  payloadType: number | undefined;
}

/** A page of the blocks a milestone referenced, by white-flag index (the cursor is one). */
export async function milestoneBlocks(
  store: NodeStore,
  r: HistoryRange,
  index: number,
  q: MilestoneBlocksQuery,
): Promise<Page<BlockItem>> {
  requireKeptMilestone(r, index);
  const all = storeKey(HISTORY_TABLES.milestoneBlocks.prefix, u32BE(index));
  const newest = q.sort === 'newest';
  const c = q.cursor;
  const limit = q.pageSize + 2;
  let range = between(all, all, newest, limit);
  if (c !== undefined) {
    if (newest) range = { gte: all, lte: concatBytes(all, u32BE(c)), reverse: true, limit };
    else range = { ...range, gte: (await partAt(store, all, u32BE(c))) ?? all };
  }
  const items: (BlockItem & { whiteFlagIndex: number })[] = [];
  for await (const [key, part] of tableRange(store, HISTORY_TABLES.milestoneBlocks, range)) {
    const blocks = part.map((b, i) => ({
      blockId: b.blockId,
      payloadType: b.payloadType,
      whiteFlagIndex: key.firstWhiteFlagIndex + i,
    }));
    for (const b of newest ? blocks.reverse() : blocks)
      if (c === undefined || (newest ? b.whiteFlagIndex <= c : b.whiteFlagIndex >= c)) items.push(b);
    if (items.length > q.pageSize) break;
  }
  const next = items[q.pageSize];
  const page = items.slice(0, q.pageSize).map(({ blockId, payloadType }) => ({ blockId, payloadType }));
  return next === undefined ? { items: page } : { items: page, cursor: `${next.whiteFlagIndex}.${q.pageSize}` };
}

/** Every ledger update of a milestone, in order (all its parts). */
export async function allMilestoneUpdates(store: NodeStore, index: number): Promise<MilestoneUpdate[]> {
  const range = prefixRange(storeKey(HISTORY_TABLES.byMilestone.prefix, u32BE(index)));
  return (await tableEntries(store, HISTORY_TABLES.byMilestone, range)).flatMap(([, part]) => part);
}

/** Every block of a milestone, in White-Flag order (all its parts). */
export async function allMilestoneBlocks(store: NodeStore, index: number): Promise<MilestoneBlock[]> {
  const range = prefixRange(storeKey(HISTORY_TABLES.milestoneBlocks.prefix, u32BE(index)));
  return (await tableEntries(store, HISTORY_TABLES.milestoneBlocks, range)).flatMap(([, part]) => part);
}

/** The parts of an address's updates in one milestone (keys and groups), in order. */
export function addressParts(
  store: NodeStore,
  address: Uint8Array,
  index: number,
): Promise<[AddressPartKey, AddressGroup][]> {
  const range = prefixRange(storeKey(HISTORY_TABLES.byAddress.prefix, address, u32BE(index)));
  return tableEntries(store, HISTORY_TABLES.byAddress, range);
}

/** The part of an address's updates in a milestone that would hold `entry`, when it does. */
export async function addressPartHolding(
  store: NodeStore,
  address: Uint8Array,
  index: number,
  entry: UpdateEntry,
): Promise<AddressGroup | undefined> {
  const key = await partAt(store, storeKey(HISTORY_TABLES.byAddress.prefix, address, u32BE(index)), position(entry));
  const group = key && (await store.kv.get(key));
  if (group === undefined) return undefined;
  const g = HISTORY_TABLES.byAddress.value.decode(group, 'historyByAddress value');
  return g.entries.some((e) => compareEntries(e, entry) === 0) ? g : undefined;
}
