/**
 * Building the history and its aggregates, once, for a store whose ledger has none yet (written before the history
 * existed) or one of another layout (HISTORY_META.version). The node runs it on open, before it confirms anything
 * (node/genesis/open-network.ts), from what the store holds:
 *   - the milestones from the first one kept (the pruning index + 1, else the ledger's first) to the ledger index;
 *   - their blocks, each milestone's cone walked over the stored block metadata (milestone, white-flag index) and
 *     blocks (payload types); what block pruning deleted before the history existed is not known;
 *   - their ledger updates, from the milestone diffs and the output and spent records; an output booked by a
 *     milestone without a diff (the genesis or snapshot, a pruned milestone) gets its "booked" update at its booking
 *     milestone when the store still holds it (unspent, or spent by a milestone with a diff);
 *   - the aggregates, from the unspent outputs.
 * The version is written last, after every entry: a build cut short by a crash leaves no version and starts over
 * (clearing what it wrote) on the next open.
 */
import { toHex, toHex0x } from '../../bytes.ts';
import { decodeBlock } from '../../codec/block.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { TABLES } from '../../store/tables.ts';
import { LEDGER_META } from '../ledger-meta.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { applyBalanceDeltas, BalanceDeltas } from './balances.ts';
import { AGGREGATE_TABLES, HISTORY_META, HISTORY_TABLES, HISTORY_VERSION, type MilestoneBlock } from './tables.ts';
import {
  bookedUpdate,
  putHistoryMilestone,
  putLedgerUpdates,
  putMilestoneBlocks,
  spentUpdate,
  type LedgerUpdate,
} from './writes.ts';

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
  await store.clearTables([...Object.values(HISTORY_TABLES), ...Object.values(AGGREGATE_TABLES)], chunk);
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

  // the milestones, and the blocks each referenced (its cone: the stored blocks whose metadata names it)
  for await (const [index, record] of store.entries(TABLES.milestones, { gte: start })) {
    const batch = store.batch();
    putHistoryMilestone(batch, index, record.milestoneId, record.timestamp);
    result.milestones++;
    const blocks = await coneOf(store, record.blockId, index);
    putMilestoneBlocks(batch, index, blocks);
    result.blocks += blocks.length;
    await batch.commit({ sync: false });
    if (index % 1000 === 0) progress(`history: milestones and their blocks up to ${index} of ${ledgerIndex}`);
  }
  progress(`history: ${result.milestones} milestones from ${start} to ${ledgerIndex}, ${result.blocks} blocks`);

  // the ledger updates of the milestones with a diff (an output booked before them: its booked update too)
  for await (const [index, diff] of store.entries(LEDGER_TABLES.milestoneDiffs, { gte: start })) {
    const updates: LedgerUpdate[] = [];
    for (let i = 0; i < diff.created.length; i += chunk) {
      const ids = diff.created.slice(i, i + chunk);
      const records = await store.getMany(LEDGER_TABLES.outputs, ids);
      ids.forEach((outputId, j) => {
        const r = records[j];
        if (r === undefined)
          throw new Error(`history build: output ${toHex0x(outputId)} of milestone ${index} is gone`);
        updates.push(bookedUpdate({ outputId, ...r }));
      });
    }
    for (let i = 0; i < diff.consumed.length; i += chunk) {
      const ids = diff.consumed.slice(i, i + chunk);
      const [records, spent] = [
        await store.getMany(LEDGER_TABLES.outputs, ids),
        await store.getMany(LEDGER_TABLES.spent, ids),
      ];
      ids.forEach((outputId, j) => {
        const [r, s] = [records[j], spent[j]];
        if (r === undefined || s === undefined)
          throw new Error(`history build: spent output ${toHex0x(outputId)} of milestone ${index} is gone`);
        updates.push(spentUpdate({ outputId, output: r.output, spent: s }));
        if (!bookedByDiff(r.milestoneIndexBooked)) updates.push(bookedUpdate({ outputId, ...r }));
      });
    }
    // the milestone's own updates are all known now; those of outputs booked before the diffs may come again later
    const batch = store.batch();
    const own = updates.filter((u) => u.milestoneIndex === index);
    putLedgerUpdates(batch, own, 'whole');
    putLedgerUpdates(
      batch,
      updates.filter((u) => u.milestoneIndex !== index),
      'one each',
    );
    await batch.commit({ sync: false });
    result.updates += updates.length;
    if (index % 1000 === 0) progress(`history: ledger updates up to milestone ${index} of ${ledgerIndex}`);
  }

  // the aggregates (and the "booked" updates of unspent outputs no diff names)
  let ids: Uint8Array[] = [];
  const aggregate = async (): Promise<void> => {
    const records = await store.getMany(LEDGER_TABLES.outputs, ids);
    const deltas = new BalanceDeltas();
    const updates: LedgerUpdate[] = [];
    ids.forEach((outputId, j) => {
      const r = records[j];
      if (r === undefined) throw new Error(`history build: unspent output ${toHex0x(outputId)} has no record`);
      deltas.add(r.output, 1);
      if (!bookedByDiff(r.milestoneIndexBooked)) updates.push(bookedUpdate({ outputId, ...r }));
    });
    const batch = store.batch();
    putLedgerUpdates(batch, updates, 'one each');
    await applyBalanceDeltas(store, batch, deltas);
    await batch.commit({ sync: false });
    result.updates += updates.length;
    result.outputs += ids.length;
    ids = [];
    if (result.outputs % (chunk * 50) === 0) progress(`history: ${result.outputs} unspent outputs in the aggregates`);
  };
  for await (const outputId of store.keys(LEDGER_TABLES.unspent)) {
    ids.push(outputId);
    if (ids.length >= chunk) await aggregate();
  }
  if (ids.length > 0) await aggregate();
  progress(`history: ${result.updates} ledger updates, ${result.outputs} unspent outputs`);

  await store.batch().putMeta(HISTORY_META.start, start).putMeta(HISTORY_META.version, HISTORY_VERSION).commit();
  return result;
}

/**
 * The blocks milestone `index` referenced, in White-Flag order: from its block's parents, the stored blocks whose
 * metadata names the milestone (a block named by another milestone, or not stored, ends the walk). None when the
 * milestone's block is not stored (the genesis or snapshot milestone).
 */
export async function coneOf(store: NodeStore, milestoneBlockId: Uint8Array, index: number): Promise<MilestoneBlock[]> {
  const raw = await store.getBlock(milestoneBlockId);
  if (raw === undefined) return [];
  const found: [number, MilestoneBlock][] = [];
  const seen = new Set<string>();
  let frontier = decodeBlock(raw).parents;
  while (frontier.length > 0) {
    const ids = frontier.filter((id) => !seen.has(toHex(id)) && seen.add(toHex(id)));
    const metadata = await store.getMany(TABLES.blockMetadata, ids);
    const inCone = ids.filter((_, i) => metadata[i]?.referenced?.milestoneIndex === index);
    const raws = await store.getMany(TABLES.blocks, inCone);
    frontier = [];
    inCone.forEach((blockId, i) => {
      const bytes = raws[i];
      if (bytes === undefined) return;
      const block = decodeBlock(bytes);
      const whiteFlagIndex = metadata[ids.indexOf(blockId)]!.referenced!.whiteFlagIndex;
      found.push([whiteFlagIndex, { blockId, payloadType: block.payload?.type }]);
      frontier.push(...block.parents);
    });
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, b]) => b);
}
