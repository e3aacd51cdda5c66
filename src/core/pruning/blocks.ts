/**
 * The blocks pruning deletes, and how one is deleted. A milestone's cone is walked from its parents through the blocks
 * referenced at or below its index, in post-order (a block after its parents, as White-Flag orders a cone): deleting
 * in that order keeps every block not yet deleted reachable from the milestone's parents through blocks not yet
 * deleted (the block a walk came from is emitted after it), so a walk after a crash finds everything that is left.
 * Blocks no milestone referenced are found through the `unreferencedBlocks` table (the confirmed index each was
 * stored at), as Hornet does.
 */
import { toHex } from '../bytes.ts';
import { decodeBlock } from '../codec/block.ts';
import { transactionIdOf } from '../ids/of-model.ts';
import { PAYLOAD_TRANSACTION } from '../model/payload.ts';
import type { BlockMetadata } from '../store/block-metadata.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { StoreBatch } from '../store/store-batch.ts';
import { TABLES, type UnreferencedKey } from '../store/tables.ts';

/** What deleting a block needs to know: its parents (children edges), its transaction (the transaction indexes). */
export interface PrunedBlock {
  blockId: Uint8Array;
  parents: readonly Uint8Array[];
  transactionId?: Uint8Array;
  /** The ledger applied its transaction: the included-block entry goes with it. */
  included: boolean;
  /** The milestone that referenced it; undefined for a block no milestone referenced. */
  referencedAt?: number;
}

export function prunedBlockOf(blockId: Uint8Array, bytes: Uint8Array, md: BlockMetadata | undefined): PrunedBlock {
  const block = decodeBlock(bytes);
  const out: PrunedBlock = {
    blockId,
    parents: block.parents,
    included: md?.referenced?.ledgerInclusionState === 'included',
  };
  if (block.payload?.type === PAYLOAD_TRANSACTION) out.transactionId = transactionIdOf(block.payload);
  if (md?.referenced) out.referencedAt = md.referenced.milestoneIndex;
  return out;
}

/** Deletes a block and every entry that names it: bytes, metadata, tip, its children edges, its transaction indexes. */
export function deleteBlock(batch: StoreBatch, b: PrunedBlock): void {
  batch.del(TABLES.blocks, b.blockId);
  batch.del(TABLES.blockMetadata, b.blockId);
  batch.del(TABLES.tips, b.blockId);
  for (const p of b.parents) batch.del(TABLES.children, [p, b.blockId] as const);
  if (b.transactionId === undefined) return;
  batch.del(TABLES.transactionBlocks, [b.transactionId, b.blockId] as const);
  if (b.included) batch.del(TABLES.includedBlock, b.transactionId);
}

/**
 * The stored blocks referenced at or below `index` that the cone of milestone `index` reaches, in post-order. Empty
 * when the milestone's record or block is gone (its cone was pruned before). `exact`: only the blocks milestone
 * `index` itself referenced (its cone on a store that holds older milestones too).
 */
export async function milestoneConeToPrune(store: NodeStore, index: number, exact = false): Promise<PrunedBlock[]> {
  const record = await store.milestone(index);
  const bytes = record && (await store.getBlock(record.blockId));
  if (!bytes) return [];
  const roots = decodeBlock(bytes).parents;
  // The cone, level by level with one multi-get per level (reads dominate; one read per block would be slow).
  const found = new Map<string, PrunedBlock>();
  const seen = new Set<string>();
  let frontier = roots.slice();
  while (frontier.length > 0) {
    const ids = frontier.filter((id) => {
      const key = toHex(id);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const metas = await store.getMany(TABLES.blockMetadata, ids);
    const inCone: { id: Uint8Array; md: BlockMetadata }[] = [];
    ids.forEach((id, i) => {
      const md = metas[i];
      const r = md?.referenced;
      if (md && r && r.milestoneIndex <= index && (!exact || r.milestoneIndex === index)) inCone.push({ id, md });
    });
    const raws = await store.getMany(
      TABLES.blocks,
      inCone.map((c) => c.id),
    );
    frontier = [];
    inCone.forEach(({ id, md }, i) => {
      const raw = raws[i];
      if (!raw) return;
      const b = prunedBlockOf(id, raw, md);
      found.set(toHex(id), b);
      frontier.push(...b.parents);
    });
  }
  // Post-order from the milestone's parents, in memory.
  const out: PrunedBlock[] = [];
  const emitted = new Set<string>();
  const stack: { block: PrunedBlock; next: number }[] = [];
  const enter = (id: Uint8Array): void => {
    const key = toHex(id);
    const b = found.get(key);
    if (!b || emitted.has(key)) return;
    emitted.add(key);
    stack.push({ block: b, next: 0 });
  };
  for (const parent of roots) {
    enter(parent);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.block.parents.length) enter(top.block.parents[top.next++]!);
      else out.push(stack.pop()!.block);
    }
  }
  return out;
}

/** Up to `limit` entries of blocks stored while the confirmed index was at or below `index`, oldest first. */
export async function unreferencedEntries(store: NodeStore, index: number, limit: number): Promise<UnreferencedKey[]> {
  const out: UnreferencedKey[] = [];
  for await (const key of store.keys(TABLES.unreferencedBlocks, {
    lt: { index: index + 1, blockId: new Uint8Array(0) },
    limit,
  }))
    out.push(key);
  return out;
}

/**
 * Into `batch`: the entries go, and with them the blocks no milestone referenced (a referenced one goes with its
 * milestone's cone, which must reach it first). Returns the blocks deleted.
 */
export async function pruneUnreferenced(
  store: NodeStore,
  batch: StoreBatch,
  entries: readonly UnreferencedKey[],
): Promise<PrunedBlock[]> {
  const metas = await store.getMany(
    TABLES.blockMetadata,
    entries.map((e) => e.blockId),
  );
  const deleted: PrunedBlock[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    batch.del(TABLES.unreferencedBlocks, e);
    const md = metas[i];
    if (!md || md.referenced) continue;
    const bytes = await store.getBlock(e.blockId);
    if (!bytes) continue;
    const b = prunedBlockOf(e.blockId, bytes, md);
    deleteBlock(batch, b);
    deleted.push(b);
  }
  return deleted;
}
