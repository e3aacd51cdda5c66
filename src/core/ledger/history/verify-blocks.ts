/**
 * The milestones and blocks of the history against the store (verify.ts step 4): each stored milestone record of the
 * range has its history record and ID; each milestone whose blocks the store still holds (above its pruning index)
 * has exactly its cone as its blocks, in White-Flag order with payload types (build.ts `coneOf`, from the stored
 * metadata). Then what block pruning kept: each pruned block's milestone lists it, and each child edge names a parent
 * its pruned child has.
 */
import { equalBytes, toHex, toHex0x } from '../../bytes.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { TABLES } from '../../store/tables.ts';
import { LEDGER_META } from '../ledger-meta.ts';
import { coneOf } from './build.ts';
import { allMilestoneBlocks } from './pages.ts';
import { HISTORY_TABLES, type MilestoneBlock } from './tables.ts';

export interface Differences {
  lines: string[];
  add(line: string): void;
  finish(): void;
}

export async function verifyHistoryBlocks(
  store: NodeStore,
  range: { start: number; floor: number; ledgerIndex: number },
  d: Differences,
): Promise<{ blocks: number; pending: number }> {
  const { start, floor } = range;
  const out = { blocks: 0, pending: 0 };
  const encode = (b: MilestoneBlock[]): Uint8Array => HISTORY_TABLES.milestoneBlocks.value.encode(b);
  const pruningIndex = (await store.getMeta(LEDGER_META.pruning))?.index ?? -1;
  for await (const [index, record] of store.entries(TABLES.milestones, { gte: start })) {
    const h = await store.get(HISTORY_TABLES.milestones, index);
    if (h === undefined || !equalBytes(h.milestoneId, record.milestoneId) || h.timestamp !== record.timestamp)
      d.add(`historyMilestones: milestone ${index} is ${h ? 'different from its record' : 'missing'}`);
    if ((await store.get(HISTORY_TABLES.milestoneIds, record.milestoneId)) !== index)
      d.add(`historyMilestoneIds: ${toHex0x(record.milestoneId)} does not name milestone ${index}`);
    if (index <= pruningIndex) continue;
    const want = await coneOf(store, record.blockId, index);
    const stored = await allMilestoneBlocks(store, index);
    if (!equalBytes(encode(stored), encode(want)))
      d.add(
        `historyMilestoneBlocks: milestone ${index} lists ${stored.length} blocks, its cone in the store ` +
          `${want.length} (or their order or payloads differ)`,
      );
  }
  const blocksOf = new Map<number, Map<string, MilestoneBlock>>();
  for await (const [index, h] of store.entries(HISTORY_TABLES.milestones)) {
    if (index < floor) {
      out.pending++;
      continue;
    }
    if ((await store.get(HISTORY_TABLES.milestoneIds, h.milestoneId)) !== index)
      d.add(`historyMilestoneIds: the ID of history milestone ${index} does not name it`);
  }
  for await (const [key, blocks] of store.entries(HISTORY_TABLES.milestoneBlocks)) {
    const index = key.milestoneIndex;
    if (index < floor) {
      out.pending++;
      continue;
    }
    out.blocks += blocks.length;
    let known = blocksOf.get(index);
    if (known === undefined) {
      known = new Map();
      blocksOf.set(index, known);
      if (!(await store.has(HISTORY_TABLES.milestones, index)))
        d.add(`historyMilestoneBlocks: milestone ${index} has blocks but no record`);
    }
    for (const b of blocks) known.set(toHex(b.blockId), b);
  }
  // what block pruning kept
  for await (const [blockId, b] of store.entries(HISTORY_TABLES.blocks)) {
    if (b.milestoneIndex < floor) out.pending++;
    else if (!blocksOf.get(b.milestoneIndex)?.has(toHex(blockId)))
      d.add(`historyBlocks: pruned block ${toHex0x(blockId)} is not among the blocks of milestone ${b.milestoneIndex}`);
  }
  for await (const k of store.keys(HISTORY_TABLES.children)) {
    if (k.milestoneIndex < floor) {
      out.pending++;
      continue;
    }
    const pruned = await store.get(HISTORY_TABLES.blocks, k.childId);
    if (pruned?.milestoneIndex !== k.milestoneIndex || !pruned.parents.some((p) => equalBytes(p, k.parentId)))
      d.add(
        `historyChildren: ${toHex0x(k.childId)} is not a pruned child of ${toHex0x(k.parentId)} at ${k.milestoneIndex}`,
      );
  }
  return out;
}
