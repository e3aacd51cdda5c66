/**
 * The history's own retention: `pruneHistory(store, target)` drops everything of the milestones at or below `target`
 * (their record and ID, their blocks with the child edges naming them, their ledger updates by milestone and by
 * address). It is independent of block pruning (core pruning/): an operator may prune blocks and keep the history,
 * or bound the history and keep every block. The aggregates are the ledger's now and are never pruned.
 *
 * Crash-safe by its order of writes: one batch first moves `history.prunedTo` to the target and `history.start` above
 * it, so reads refuse the range at once (PRUNED); then one batch per part, oldest first, removes it with what hangs
 * on it (a part of a milestone's ledger updates with the address parts of that milestone it names, a part of its
 * blocks with the records and child edges block pruning kept of them). Every delete is idempotent, so
 * `resumeHistoryPruning` (on start) finishes a run.
 */
import { toHex } from '../../bytes.ts';
import type { RangeOptions } from '../../store/kv.ts';
import type { NodeStore } from '../../store/node-store.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import { storeKey, tableEntries, u32BE } from './keys.ts';
import { addressParts } from './pages.ts';
import { HISTORY_META, HISTORY_TABLES } from './tables.ts';

export interface HistoryPruneResult {
  /** Milestones, blocks and ledger updates deleted. */
  milestones: number;
  blocks: number;
  updates: number;
}

const CHUNK = 1_000;

/** Deletes the history at or below `target`; returns what was deleted. `afterBatch` runs after each commit. */
export async function pruneHistory(
  store: NodeStore,
  target: number,
  options: { chunk?: number; afterBatch?: () => Promise<void> } = {},
): Promise<HistoryPruneResult> {
  const start = await store.getMeta(HISTORY_META.start);
  const prunedTo = await store.getMeta(HISTORY_META.prunedTo);
  if (start === undefined) throw new Error('Cannot prune the history: the store has none');
  if (prunedTo === undefined || prunedTo < target) {
    await store
      .batch()
      .putMeta(HISTORY_META.prunedTo, target)
      .putMeta(HISTORY_META.start, Math.max(start, target + 1))
      .commit({ sync: true });
  }
  return deleteThrough(store, Math.max(target, prunedTo ?? 0), options);
}

/** Finishes the deletions of a run a crash or a stop interrupted (nothing to do: three one-key reads). */
export async function resumeHistoryPruning(store: NodeStore): Promise<HistoryPruneResult | undefined> {
  const prunedTo = await store.getMeta(HISTORY_META.prunedTo);
  if (prunedTo === undefined) return undefined;
  const r = await deleteThrough(store, prunedTo, {});
  return r.milestones + r.blocks + r.updates > 0 ? r : undefined;
}

async function deleteThrough(
  store: NodeStore,
  target: number,
  options: { chunk?: number; afterBatch?: () => Promise<void> },
): Promise<HistoryPruneResult> {
  const chunk = options.chunk ?? CHUNK;
  const result: HistoryPruneResult = { milestones: 0, blocks: 0, updates: 0 };
  // Keys of these tables start with the milestone index: every key below index target + 1, `limit` of them.
  const upTo = (prefix: number, limit: number): RangeOptions => ({
    gte: Uint8Array.of(prefix),
    ...(target >= 0xffffffff ? {} : { lt: storeKey(prefix, u32BE(target + 1)) }),
    limit,
  });
  /** Runs `fill` in batches until it deletes nothing more. */
  const repeat = async (fill: (batch: StoreBatch) => Promise<boolean>): Promise<void> => {
    for (;;) {
      const batch = store.batch();
      const more = await fill(batch);
      if (batch.length > 0) {
        await batch.commit({ sync: false });
        await options.afterBatch?.();
      }
      if (!more) return;
    }
  };
  // ledger updates: a part of a milestone's, with the parts of the addresses it names in that milestone
  await repeat(async (batch) => {
    const [entry] = await tableEntries(store, HISTORY_TABLES.byMilestone, upTo(HISTORY_TABLES.byMilestone.prefix, 1));
    if (entry === undefined) return false;
    const [key, updates] = entry;
    batch.del(HISTORY_TABLES.byMilestone, key);
    const addresses = new Map(updates.map((u) => [toHex(u.address), u.address]));
    for (const address of addresses.values())
      for (const [k] of await addressParts(store, address, key.milestoneIndex)) batch.del(HISTORY_TABLES.byAddress, k);
    result.updates += updates.length;
    return true;
  });
  // blocks: a part of a milestone's, with what block pruning kept of them (their record, their child edges)
  await repeat(async (batch) => {
    const range = upTo(HISTORY_TABLES.milestoneBlocks.prefix, 1);
    const [entry] = await tableEntries(store, HISTORY_TABLES.milestoneBlocks, range);
    if (entry === undefined) return false;
    const [key, blocks] = entry;
    batch.del(HISTORY_TABLES.milestoneBlocks, key);
    const pruned = await store.getMany(
      HISTORY_TABLES.blocks,
      blocks.map((b) => b.blockId),
    );
    blocks.forEach((b, i) => {
      batch.del(HISTORY_TABLES.blocks, b.blockId);
      for (const parentId of pruned[i]?.parents ?? [])
        batch.del(HISTORY_TABLES.children, { parentId, milestoneIndex: key.milestoneIndex, childId: b.blockId });
    });
    result.blocks += blocks.length;
    return true;
  });
  // milestones, with their ID
  await repeat(async (batch) => {
    const entries = await tableEntries(store, HISTORY_TABLES.milestones, upTo(HISTORY_TABLES.milestones.prefix, chunk));
    for (const [index, m] of entries) {
      batch.del(HISTORY_TABLES.milestones, index);
      batch.del(HISTORY_TABLES.milestoneIds, m.milestoneId);
    }
    result.milestones += entries.length;
    return entries.length >= chunk;
  });
  return result;
}
