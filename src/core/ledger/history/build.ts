/**
 * Building the history and its aggregates, once, for a store whose ledger has none yet (written before the history
 * existed) or one of another layout (HISTORY_META.version). The node runs it on open, before it confirms anything
 * (node/genesis/open-network.ts), from what the store holds:
 *   - the milestones from the first one kept (the pruning index + 1, else the ledger's first) to the ledger index;
 *   - their blocks, from the stored block metadata (milestone, white-flag index) and the blocks (parents, payload);
 *   - their ledger updates, from the milestone diffs and the output and spent records; an output booked by a
 *     milestone without a diff (the genesis or snapshot, a pruned milestone) gets its "booked" update at its booking
 *     milestone when the store still holds it (unspent, or spent by a milestone with a diff);
 *   - the aggregates, from the unspent outputs.
 * The version is written last, after every entry: a build cut short by a crash leaves no version and starts over
 * (clearing what it wrote) on the next open.
 */
import { toHex0x } from '../../bytes.ts';
import { decodeBlock } from '../../codec/block.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixRange } from '../../store/range.ts';
import { TABLES } from '../../store/tables.ts';
import { LEDGER_META } from '../ledger-meta.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { applyBalanceDeltas, BalanceDeltas } from './balances.ts';
import { AGGREGATE_TABLES, HISTORY_META, HISTORY_TABLES, HISTORY_VERSION } from './tables.ts';
import { putBookedUpdate, putHistoryBlock, putHistoryMilestone, putSpentUpdate } from './writes.ts';

export interface HistoryBuild {
  /** Whether the history was (re)built now. */
  built: boolean;
  milestones: number;
  blocks: number;
  /** Ledger updates written. */
  updates: number;
  /** Unspent outputs in the aggregates. */
  outputs: number;
}

const CHUNK = 2_000;
const NONE: HistoryBuild = { built: false, milestones: 0, blocks: 0, updates: 0, outputs: 0 };

/** Builds the history when the store holds a ledger without a complete history of this version. */
export async function ensureHistory(store: NodeStore, progress?: (text: string) => void): Promise<HistoryBuild> {
  if ((await store.getMeta(META.ledgerIndex)) === undefined) return NONE;
  if ((await store.getMeta(HISTORY_META.version)) === HISTORY_VERSION) return NONE;
  return rebuildHistory(store, progress);
}

/** Deletes every key of the history and aggregate tables (and the history's meta fields). */
export async function clearHistory(store: NodeStore, chunk = CHUNK): Promise<void> {
  await store
    .batch()
    .del(TABLES.meta, HISTORY_META.version.name)
    .del(TABLES.meta, HISTORY_META.start.name)
    .del(TABLES.meta, HISTORY_META.prunedTo.name)
    .commit({ sync: true });
  for (const table of [...Object.values(HISTORY_TABLES), ...Object.values(AGGREGATE_TABLES)]) {
    let keys: Uint8Array[] = [];
    const flush = async (): Promise<void> => {
      await store.kv.write(
        keys.map((key) => ({ type: 'del' as const, key })),
        { sync: false },
      );
      keys = [];
    };
    for await (const key of store.kv.keys(prefixRange(Uint8Array.of(table.prefix)))) {
      keys.push(key);
      if (keys.length >= chunk) await flush();
    }
    if (keys.length > 0) await flush();
  }
}

/** Drops the history and builds it again from the store (see the file comment). */
export async function rebuildHistory(
  store: NodeStore,
  progress: (text: string) => void = () => undefined,
  chunk = CHUNK,
): Promise<HistoryBuild> {
  await clearHistory(store, chunk);
  const result: HistoryBuild = { ...NONE, built: true };
  const ledgerIndex = await store.getMeta(META.ledgerIndex);
  if (ledgerIndex === undefined) return { ...result, built: false };
  const pruning = await store.getMeta(LEDGER_META.pruning);
  let first: number | undefined;
  for await (const index of store.keys(TABLES.milestones, { limit: 1 })) first = index;
  const start = pruning !== undefined ? pruning.index + 1 : (first ?? ledgerIndex);
  let firstDiff = ledgerIndex + 1;
  for await (const index of store.keys(LEDGER_TABLES.milestoneDiffs, { gte: start, limit: 1 })) firstDiff = index;
  const bookedByDiff = (index: number): boolean => index >= firstDiff;

  // the milestones
  let batch = store.batch();
  const flush = async (force = false): Promise<void> => {
    if (batch.length === 0 || (!force && batch.length < chunk * 4)) return;
    await batch.commit({ sync: false });
    batch = store.batch();
  };
  for await (const [index, record] of store.entries(TABLES.milestones, { gte: start })) {
    putHistoryMilestone(batch, index, record.milestoneId, record.timestamp);
    result.milestones++;
    await flush();
  }
  await flush(true);
  progress(`history: ${result.milestones} milestones from ${start} to ${ledgerIndex}`);

  // the ledger updates of the milestones with a diff
  for await (const [index, diff] of store.entries(LEDGER_TABLES.milestoneDiffs, { gte: start })) {
    for (let i = 0; i < diff.created.length; i += chunk) {
      const ids = diff.created.slice(i, i + chunk);
      const records = await store.getMany(LEDGER_TABLES.outputs, ids);
      ids.forEach((outputId, j) => {
        const r = records[j];
        if (r === undefined)
          throw new Error(`history build: output ${toHex0x(outputId)} of milestone ${index} is gone`);
        putBookedUpdate(batch, { outputId, ...r });
        result.updates++;
      });
      await flush();
    }
    for (let i = 0; i < diff.consumed.length; i += chunk) {
      const ids = diff.consumed.slice(i, i + chunk);
      const [records, spent] = [
        await store.getMany(LEDGER_TABLES.outputs, ids),
        await store.getMany(LEDGER_TABLES.spent, ids),
      ];
      ids.forEach((outputId, j) => {
        const r = records[j];
        const s = spent[j];
        if (r === undefined || s === undefined)
          throw new Error(`history build: spent output ${toHex0x(outputId)} of milestone ${index} is gone`);
        putSpentUpdate(batch, { outputId, output: r.output, spent: s });
        result.updates++;
        if (!bookedByDiff(r.milestoneIndexBooked)) {
          putBookedUpdate(batch, { outputId, ...r });
          result.updates++;
        }
      });
      await flush();
    }
    if (index % 1000 === 0) progress(`history: ledger updates up to milestone ${index} of ${ledgerIndex}`);
  }
  await flush(true);

  // the aggregates (and the "booked" updates of unspent outputs no diff names)
  let ids: Uint8Array[] = [];
  const aggregate = async (): Promise<void> => {
    const records = await store.getMany(LEDGER_TABLES.outputs, ids);
    const deltas = new BalanceDeltas();
    const b = store.batch();
    ids.forEach((outputId, j) => {
      const r = records[j];
      if (r === undefined) throw new Error(`history build: unspent output ${toHex0x(outputId)} has no record`);
      deltas.add(r.output, 1);
      if (!bookedByDiff(r.milestoneIndexBooked)) {
        putBookedUpdate(b, { outputId, ...r });
        result.updates++;
      }
    });
    await applyBalanceDeltas(store, b, deltas);
    await b.commit({ sync: false });
    result.outputs += ids.length;
    ids = [];
    if (result.outputs % (chunk * 50) === 0) progress(`history: ${result.outputs} unspent outputs in the aggregates`);
  };
  for await (const outputId of store.keys(LEDGER_TABLES.unspent)) {
    ids.push(outputId);
    if (ids.length >= chunk) await aggregate();
  }
  if (ids.length > 0) await aggregate();

  // the referenced blocks
  let referenced: [Uint8Array, number, number][] = [];
  const blocks = async (): Promise<void> => {
    const raws = await store.getMany(
      TABLES.blocks,
      referenced.map(([id]) => id),
    );
    referenced.forEach(([blockId, milestoneIndex, whiteFlagIndex], j) => {
      const raw = raws[j];
      if (raw === undefined) return;
      const block = decodeBlock(raw);
      putHistoryBlock(batch, blockId, {
        milestoneIndex,
        whiteFlagIndex,
        payloadType: block.payload?.type,
        parents: block.parents,
      });
      result.blocks++;
    });
    referenced = [];
    await flush();
  };
  for await (const [blockId, md] of store.entries(TABLES.blockMetadata)) {
    const r = md.referenced;
    if (r === undefined || r.milestoneIndex < start || r.milestoneIndex > ledgerIndex || blockId.length !== 32)
      continue;
    referenced.push([blockId, r.milestoneIndex, r.whiteFlagIndex]);
    if (referenced.length >= chunk) await blocks();
  }
  if (referenced.length > 0) await blocks();
  await flush(true);
  progress(`history: ${result.blocks} referenced blocks, ${result.updates} ledger updates`);

  await store.batch().putMeta(HISTORY_META.start, start).putMeta(HISTORY_META.version, HISTORY_VERSION).commit();
  return result;
}
