/**
 * One pruning run to a pruning index T (docs/decisions.md §27), crash-safe by its order of writes:
 *
 *   1. the cones of the milestones above the last pruning index up to T are walked and the solid entry points of T
 *      computed (seps.ts);
 *   2. ONE batch records them with the new pruning state {index: T, done: last} (and drops the old entry points from
 *      the tips table): from here on the node treats them as its entry points;
 *   3. each milestone m from the oldest on, in bounded batches: the blocks stored at or below m that no milestone
 *      referenced, the blocks of m's cone (post-order, blocks.ts; the explorer history keeps their milestone and child
 *      edges while it covers m), the outputs m consumed; the last batch of m deletes its diff and record and sets
 *      `done = m`.
 *
 * Every delete is idempotent and every walk finds what is left, so a run interrupted anywhere is finished by
 * `resumePruning` (the node calls it on start) without recomputing the entry points. A run moves the index by at most
 * MAX_MILESTONES_PER_RUN milestones or MAX_BLOCKS_PER_RUN blocks (the cones it holds in memory stay bounded);
 * `pruneTo` runs as many as it takes.
 */
import { compareBytes, toHex } from '../bytes.ts';
import { reject } from '../errors.ts';
import { HISTORY_META } from '../ledger/history/tables.ts';
import { keepPrunedBlock } from '../ledger/history/writes.ts';
import { LEDGER_META, type PruningState } from '../ledger/ledger-meta.ts';
import { META } from '../store/meta.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { StoreBatch } from '../store/store-batch.ts';
import { TABLES } from '../store/tables.ts';
import {
  deleteBlock,
  milestoneConeToPrune,
  pruneUnreferenced,
  unreferencedEntries,
  type PrunedBlock,
} from './blocks.ts';
import { deleteSpentOutputs, finishMilestone, milestoneLedgerToPrune } from './ledger.ts';
import { solidEntryPointsOf } from './seps.ts';

/** Blocks deleted per batch, outputs deleted per batch. */
export const PRUNE_BATCH = Object.freeze({ blocks: 1024, outputs: 2048 });
/** A run holds the cones it deletes in memory: it ends after this many milestones or blocks. */
export const MAX_MILESTONES_PER_RUN = 100;
export const MAX_BLOCKS_PER_RUN = 20_000;
/** Entry point candidates checked per step. */
const SEP_STEP = 512;

export interface PruneProgress {
  /** The milestone being pruned, and the run's target. */
  milestone: number;
  target: number;
  blocks: number;
  outputs: number;
  batches: number;
}

/**
 * How a run works: in bounded steps (a cone walk, a chunk of entry point checks, a batch of deletes), each of which the
 * node runs in its attach queue, so no attach or confirmation interleaves with a step and the node's writes go on
 * between steps (a backlog of pruning then takes about half of the queue's time).
 */
export interface PruneRunner {
  /** Runs one step with the tangle and the ledger still (a step that writes builds and commits its batch). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Right after the entry points changed (still inside `exclusive`): the node reloads them. */
  entryPointsChanged?(): Promise<void>;
  /** After every committed batch; throwing ends the run there (a stop, or a test's simulated crash). */
  afterBatch?(progress: Readonly<PruneProgress>): void | Promise<void>;
  /** Blocks deleted that no milestone referenced (caches of unreferenced blocks forget them). */
  forget?(blockIds: Uint8Array[]): void;
}

/** The lowest milestone the store holds a record of (the ledger's first: genesis or snapshot), undefined without. */
export async function firstMilestoneIndex(store: NodeStore): Promise<number | undefined> {
  for await (const index of store.keys(TABLES.milestones, { limit: 1 })) return index;
  return undefined;
}

/** The pruning index of the store (undefined: never pruned). */
export async function pruningIndexOf(store: NodeStore): Promise<number | undefined> {
  return (await store.getMeta(LEDGER_META.pruning))?.index;
}

/** Finishes a run a crash or a stop interrupted; false when there was none. */
export async function resumePruning(store: NodeStore, runner: PruneRunner): Promise<boolean> {
  const state = await store.getMeta(LEDGER_META.pruning);
  if (!state || state.done >= state.index) return false;
  const progress: PruneProgress = { milestone: state.done + 1, target: state.index, blocks: 0, outputs: 0, batches: 0 };
  for (let m = state.done + 1; m <= state.index; m++)
    await pruneMilestone(store, runner, m, undefined, state, progress);
  return true;
}

/** Prunes everything referenced at or below `target` (target <= ledger index); returns the pruning index reached. */
export async function pruneTo(store: NodeStore, target: number, runner: PruneRunner): Promise<number> {
  await resumePruning(store, runner);
  for (;;) {
    const state = await store.getMeta(LEDGER_META.pruning);
    const floor = state?.index ?? (await firstMilestoneIndex(store));
    if (floor === undefined || floor >= target) return floor ?? target;
    const cones = new Map<number, PrunedBlock[]>();
    let end = floor;
    let blocks = 0;
    while (end < target && end - floor < MAX_MILESTONES_PER_RUN && blocks < MAX_BLOCKS_PER_RUN) {
      // Nothing of the run is deleted yet: each cone is what its own milestone referenced.
      const m = ++end;
      const cone = await runner.exclusive(() => milestoneConeToPrune(store, m, true));
      cones.set(end, cone);
      blocks += cone.length;
    }
    await pruneRun(store, end, floor + 1, cones, runner);
  }
}

async function pruneRun(
  store: NodeStore,
  target: number,
  first: number,
  cones: ReadonlyMap<number, PrunedBlock[]>,
  runner: PruneRunner,
): Promise<void> {
  const ledgerIndex = await store.getMeta(META.ledgerIndex);
  if (ledgerIndex === undefined || target > ledgerIndex)
    reject('VALUE_OUT_OF_RANGE', `Cannot prune to milestone ${target}: the ledger is at ${ledgerIndex ?? 'none'}`, {
      field: 'index',
      value: String(target),
    });
  const record = await store.milestone(target);
  if (!record)
    return reject('MISSING_FIELD', `Cannot prune to milestone ${target}: its record is not stored`, {
      field: 'milestones',
      value: String(target),
    });
  const below = new Set<string>();
  for (const cone of cones.values()) for (const b of cone) below.add(toHex(b.blockId));
  const current = (await store.getMeta(LEDGER_META.solidEntryPoints)) ?? [];
  const candidates = [...current, ...[...cones.values()].flatMap((c) => c.map((b) => b.blockId))];
  let seps: Uint8Array[] = [];
  for (let i = 0; i < candidates.length; i += SEP_STEP) {
    const chunk = candidates.slice(i, i + SEP_STEP);
    seps.push(...(await runner.exclusive(() => solidEntryPointsOf(store, target, chunk, below))));
  }
  seps = [...new Map(seps.map((id) => [toHex(id), id])).values()].sort(compareBytes);
  // only when T's milestone block is gone too; the old ones still bound the walks
  if (seps.length === 0) seps = current;
  const state: PruningState = {
    index: target,
    done: first - 1,
    milestone: { milestoneId: record.milestoneId, timestamp: record.timestamp, blockId: record.blockId },
  };
  await runner.exclusive(async () => {
    const batch = store.batch();
    const keep = new Set(seps.map(toHex));
    for (const old of current) if (!keep.has(toHex(old))) batch.del(TABLES.tips, old);
    batch.putMeta(LEDGER_META.solidEntryPoints, seps).putMeta(LEDGER_META.pruning, state);
    // The first run also drops the record of the milestone the ledger started from (it has no cone and no diff).
    const start = await store.milestone(first - 1);
    if (start) batch.del(TABLES.milestones, first - 1).del(TABLES.milestoneIndexById, start.milestoneId);
    await batch.commit({ sync: true });
    await runner.entryPointsChanged?.();
  });
  const progress: PruneProgress = { milestone: first, target, blocks: 0, outputs: 0, batches: 1 };
  await runner.afterBatch?.(progress);
  for (let m = first; m <= target; m++) await pruneMilestone(store, runner, m, cones.get(m), state, progress);
}

/** Step 3 for one milestone (the cone is walked again when not given: a resumed run). */
async function pruneMilestone(
  store: NodeStore,
  runner: PruneRunner,
  m: number,
  given: PrunedBlock[] | undefined,
  state: PruningState,
  progress: PruneProgress,
): Promise<void> {
  progress.milestone = m;
  const commit = async (fill: (batch: StoreBatch) => Promise<number>, sync = false): Promise<number> => {
    const n = await runner.exclusive(async () => {
      const batch = store.batch();
      const count = await fill(batch);
      if (batch.length > 0) await batch.commit({ sync });
      return count;
    });
    progress.batches++;
    await runner.afterBatch?.(progress);
    return n;
  };
  for (;;) {
    const deleted = await commit(async (batch) => {
      const entries = await unreferencedEntries(store, m, PRUNE_BATCH.blocks);
      const gone = await pruneUnreferenced(store, batch, entries);
      if (gone.length > 0) runner.forget?.(gone.map((b) => b.blockId));
      progress.blocks += gone.length;
      return entries.length;
    });
    if (deleted < PRUNE_BATCH.blocks) break;
  }
  const cone = given ?? (await runner.exclusive(() => milestoneConeToPrune(store, m)));
  for (let i = 0; i < cone.length; i += PRUNE_BATCH.blocks) {
    const chunk = cone.slice(i, i + PRUNE_BATCH.blocks);
    await commit(async (batch) => {
      // The explorer history keeps what it needs of a referenced block it still covers (docs/explorer.md).
      const historyStart = await store.getMeta(HISTORY_META.start);
      for (const b of chunk) {
        keepPrunedBlock(batch, b, historyStart);
        deleteBlock(batch, b);
      }
      progress.blocks += chunk.length;
      return chunk.length;
    });
  }
  const plan = await runner.exclusive(() => milestoneLedgerToPrune(store, m));
  for (let i = 0; i < plan.consumed.length; i += PRUNE_BATCH.outputs) {
    const chunk = plan.consumed.slice(i, i + PRUNE_BATCH.outputs);
    await commit(async (batch) => {
      deleteSpentOutputs(batch, chunk);
      progress.outputs += chunk.length;
      return chunk.length;
    });
  }
  await commit(async (batch) => {
    finishMilestone(batch, plan, state);
    return 0;
  }, true);
}
