/**
 * The milestones and blocks of the history against the store (verify.ts step 4): each stored milestone record of the
 * range has its history record and ID; each stored block a milestone of the range referenced has its history record
 * (milestone, white-flag index, payload type, parents), its place in its milestone and a child edge from each parent.
 * Then the history's own consistency, for what block pruning removed from the store too: every place in a milestone
 * names a block record of that place, every block record has that place and its parents' edges, every edge names a
 * block record of its milestone with that parent.
 */
import { equalBytes, toHex0x } from '../../bytes.ts';
import { decodeBlock } from '../../codec/block.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { TABLES } from '../../store/tables.ts';
import { HISTORY_TABLES, type HistoryBlock } from './tables.ts';

export interface Differences {
  lines: string[];
  add(line: string): void;
  finish(): void;
}

const CHUNK = 1_000;

export async function verifyHistoryBlocks(
  store: NodeStore,
  range: { start: number; floor: number; ledgerIndex: number },
  d: Differences,
): Promise<{ blocks: number; pending: number }> {
  const { start, floor, ledgerIndex } = range;
  const out = { blocks: 0, pending: 0 };
  const encode = (b: HistoryBlock): Uint8Array => HISTORY_TABLES.blocks.value.encode(b);
  // milestones
  for await (const [index, record] of store.entries(TABLES.milestones, { gte: start })) {
    const h = await store.get(HISTORY_TABLES.milestones, index);
    if (h === undefined || !equalBytes(h.milestoneId, record.milestoneId) || h.timestamp !== record.timestamp)
      d.add(`historyMilestones: milestone ${index} is ${h ? 'different from its record' : 'missing'}`);
    if ((await store.get(HISTORY_TABLES.milestoneIds, record.milestoneId)) !== index)
      d.add(`historyMilestoneIds: ${toHex0x(record.milestoneId)} does not name milestone ${index}`);
  }
  for await (const [index, h] of store.entries(HISTORY_TABLES.milestones)) {
    if (index < floor) out.pending++;
    else if ((await store.get(HISTORY_TABLES.milestoneIds, h.milestoneId)) !== index)
      d.add(`historyMilestoneIds: the ID of history milestone ${index} does not name it`);
  }
  // stored referenced blocks -> their history
  let chunk: [Uint8Array, HistoryBlock][] = [];
  const check = async (): Promise<void> => {
    const raws = await store.getMany(
      TABLES.blocks,
      chunk.map(([id]) => id),
    );
    const stored = await store.getMany(
      HISTORY_TABLES.blocks,
      chunk.map(([id]) => id),
    );
    for (let i = 0; i < chunk.length; i++) {
      const [blockId, partial] = chunk[i]!;
      const raw = raws[i];
      if (raw === undefined) continue;
      const block = decodeBlock(raw);
      const want: HistoryBlock = { ...partial, payloadType: block.payload?.type, parents: block.parents };
      const s = stored[i];
      if (s === undefined) d.add(`historyBlocks: referenced block ${toHex0x(blockId)} is missing`);
      else if (!equalBytes(encode(s), encode(want)))
        d.add(`historyBlocks: block ${toHex0x(blockId)} differs from its metadata and bytes`);
    }
    chunk = [];
  };
  for await (const [blockId, md] of store.entries(TABLES.blockMetadata)) {
    const r = md.referenced;
    if (r === undefined || blockId.length !== 32 || r.milestoneIndex < start || r.milestoneIndex > ledgerIndex)
      continue;
    chunk.push([
      blockId,
      { milestoneIndex: r.milestoneIndex, whiteFlagIndex: r.whiteFlagIndex, payloadType: 0, parents: [] },
    ]);
    if (chunk.length >= CHUNK) await check();
  }
  if (chunk.length > 0) await check();
  // the history's own consistency
  for await (const [blockId, b] of store.entries(HISTORY_TABLES.blocks)) {
    if (b.milestoneIndex < floor) {
      out.pending++;
      continue;
    }
    out.blocks++;
    const place = await store.get(HISTORY_TABLES.milestoneBlocks, b);
    if (place === undefined || !equalBytes(place.blockId, blockId) || place.payloadType !== b.payloadType)
      d.add(`historyMilestoneBlocks: block ${toHex0x(blockId)} is not at ${b.milestoneIndex}/${b.whiteFlagIndex}`);
    for (const parentId of b.parents)
      if (!(await store.has(HISTORY_TABLES.children, { parentId, milestoneIndex: b.milestoneIndex, childId: blockId })))
        d.add(`historyChildren: block ${toHex0x(blockId)} is not a child of its parent ${toHex0x(parentId)}`);
  }
  for await (const [k, e] of store.entries(HISTORY_TABLES.milestoneBlocks)) {
    if (k.milestoneIndex < floor) continue;
    const b = await store.get(HISTORY_TABLES.blocks, e.blockId);
    if (b === undefined || b.milestoneIndex !== k.milestoneIndex || b.whiteFlagIndex !== k.whiteFlagIndex)
      d.add(`historyMilestoneBlocks: ${k.milestoneIndex}/${k.whiteFlagIndex} names ${toHex0x(e.blockId)} wrongly`);
  }
  for await (const k of store.keys(HISTORY_TABLES.children)) {
    if (k.milestoneIndex < floor) {
      out.pending++;
      continue;
    }
    const b = await store.get(HISTORY_TABLES.blocks, k.childId);
    if (b === undefined || b.milestoneIndex !== k.milestoneIndex || !b.parents.some((p) => equalBytes(p, k.parentId)))
      d.add(`historyChildren: ${toHex0x(k.childId)} is not a child of ${toHex0x(k.parentId)} at ${k.milestoneIndex}`);
  }
  return out;
}
