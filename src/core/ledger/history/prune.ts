/**
 * The history's own retention: `pruneHistory(store, target)` drops everything of the milestones at or below `target`
 * (their record and ID, their blocks with the child edges naming them, their ledger updates by milestone and by
 * address). It is independent of block pruning (core pruning/): an operator may prune blocks and keep the history,
 * or bound the history and keep every block. The aggregates are the ledger's now and are never pruned.
 *
 * Crash-safe by its order of writes: one batch first moves `history.prunedTo` to the target and `history.start` above
 * it, so reads refuse the range at once (PRUNED); then range deletes in bounded batches, each of which removes an
 * entry together with its mirror (a ledger update by milestone with the one by address, a block with its child edges
 * and its place in its milestone). Every delete is idempotent, so `resumeHistoryPruning` (on start) finishes a run.
 */
import type { RangeOptions } from '../../store/kv.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { storeKey, tableEntries, u32BE } from './keys.ts';
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
  // Keys of these tables start with the milestone index: every key below index target + 1.
  const upTo = (prefix: number): RangeOptions => ({
    gte: Uint8Array.of(prefix),
    ...(target >= 0xffffffff ? {} : { lt: storeKey(prefix, u32BE(target + 1)) }),
    limit: chunk,
  });
  const commit = async (fill: (batch: ReturnType<NodeStore['batch']>) => Promise<number>): Promise<boolean> => {
    const batch = store.batch();
    const n = await fill(batch);
    if (batch.length > 0) {
      await batch.commit({ sync: false });
      await options.afterBatch?.();
    }
    return n >= chunk;
  };
  // ledger updates, with their mirror by address
  while (
    await commit(async (batch) => {
      let n = 0;
      const range = upTo(HISTORY_TABLES.byMilestone.prefix);
      for (const [k, address] of await tableEntries(store, HISTORY_TABLES.byMilestone, range)) {
        batch.del(HISTORY_TABLES.byMilestone, k);
        batch.del(HISTORY_TABLES.byAddress, { address, ...k });
        n++;
      }
      result.updates += n;
      return n;
    })
  );
  // blocks, with their record and the child edges their parents have to them
  while (
    await commit(async (batch) => {
      const entries: [{ milestoneIndex: number; whiteFlagIndex: number }, Uint8Array][] = [];
      const range = upTo(HISTORY_TABLES.milestoneBlocks.prefix);
      for (const [k, e] of await tableEntries(store, HISTORY_TABLES.milestoneBlocks, range))
        entries.push([k, e.blockId]);
      const records = await store.getMany(
        HISTORY_TABLES.blocks,
        entries.map(([, id]) => id),
      );
      entries.forEach(([k, blockId], i) => {
        batch.del(HISTORY_TABLES.milestoneBlocks, k);
        batch.del(HISTORY_TABLES.blocks, blockId);
        for (const parentId of records[i]?.parents ?? [])
          batch.del(HISTORY_TABLES.children, { parentId, milestoneIndex: k.milestoneIndex, childId: blockId });
      });
      result.blocks += entries.length;
      return entries.length;
    })
  );
  // milestones, with their ID
  while (
    await commit(async (batch) => {
      let n = 0;
      const range = upTo(HISTORY_TABLES.milestones.prefix);
      for (const [index, m] of await tableEntries(store, HISTORY_TABLES.milestones, range)) {
        batch.del(HISTORY_TABLES.milestones, index);
        batch.del(HISTORY_TABLES.milestoneIds, m.milestoneId);
        n++;
      }
      result.milestones += n;
      return n;
    })
  );
  return result;
}
