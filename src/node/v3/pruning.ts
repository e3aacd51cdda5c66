/**
 * Pruning of the v3 data by time (docs/decisions.md §27, §46). When the v2 pruning index moves to P, the v3 data older
 * than milestone P's timestamp goes; the v3 retention (retention.ts) moves the boundary on its own, to the start of an
 * epoch, whether the v2 pruning runs or not. With S the boundary's slot (at most the slot after the latest commitment:
 * an uncommitted slot's blocks are still to be committed), every CONFIRMED or ORPHANED block of a slot before S (an
 * unconfirmed one stays; dag.ts bounds them) with its bytes, state, tip entry, slot index entry and attachment entry;
 * when it was the included block of a transaction, that transaction's record and the outputs it spent; when it was
 * the last stored attachment of a transaction never included (failed as orphaned, ledger.ts, or pending in a store
 * written before orphans failed), that record (its attachments were all orphaned, so nothing refers to it); the
 * slots' commitment roots and UTXO changes (the commitments themselves stay, docs/decisions.md §36, §39). Unspent
 * outputs and the Mana allotted to accounts are always kept.
 *
 * The blocks are found through the slot index (`v3SlotBlocks`: slot ‖ block ID, written with every attach); a store
 * of the older layout builds it once on open. A run records its boundary first (v3Meta `pruning`), then deletes in
 * bounded batches; every delete is idempotent and the index entry goes in the same batch as its block, so a run
 * interrupted between batches is finished by the next one (on the node's next start, or its next prune). Runs on one
 * store go one after the other (the v2 pruning's and the retention's), each to the highest boundary recorded.
 */
import { fromHex0x } from '../../core/bytes.ts';
import { TABLES, type NodeStore, type StoreBatch, type Table } from '../../core/store/index.ts';
import { decodeBlockV3, outputIdV3, slotFromTime, slotOfId, type ProtocolParametersV3 } from '../../core/v3/index.ts';
import { isOrphanedV3 } from './ledger.ts';
import { key } from './network.ts';
import { V3_TABLES, type PruningRecordV3, type SlotBlockKey } from './tables.ts';

/** v3Meta names: the pruning record, and the flag of a store whose slot index covers every block. */
export const V3_META_PRUNING = 'pruning';
export const V3_META_SLOT_INDEX = 'slotBlocks';

/** Slot index entries per batch (the v2 pruning's PRUNE_BATCH.blocks), on open and when pruning. */
export const V3_PRUNE_BATCH = 1024;

/** Where a v3 pruning run stands. */
export interface V3PruneProgress {
  /** The run's boundary: confirmed blocks of the slots before it go. */
  slot: number;
  blocks: number;
  transactions: number;
  outputs: number;
  /** Committed batches. */
  batches: number;
}

/** What one batch deleted: the engine's memory forgets it. */
export interface PrunedV3 {
  blocks: Uint8Array[];
  /** Transaction records (map keys). */
  transactions: string[];
  outputs: Uint8Array[];
}

export async function readPruningV3(store: NodeStore): Promise<PruningRecordV3 | undefined> {
  const text = await store.get(V3_TABLES.meta, V3_META_PRUNING);
  return text === undefined ? undefined : (JSON.parse(text) as PruningRecordV3);
}

export function writePruningV3(batch: StoreBatch, record: PruningRecordV3): void {
  batch.put(V3_TABLES.meta, V3_META_PRUNING, JSON.stringify(record));
}

/** A block's slot index entry (into the attach's batch). */
export function indexBlockSlot(batch: StoreBatch, blockId: Uint8Array, slot: number): void {
  batch.put(V3_TABLES.slotBlocks, { slot, blockId }, null);
}

/** A new store's layout has the slot index from the start. */
export function recordSlotIndexBuilt(batch: StoreBatch): void {
  batch.put(V3_TABLES.meta, V3_META_SLOT_INDEX, 'built');
}

/**
 * A store of the older layout (block states without the slot index): builds the index from the block states, in
 * bounded batches, then sets the flag; a crash before the flag starts it again (the puts are idempotent). Returns the
 * entries written (0 when the flag was there).
 */
export async function ensureSlotIndex(store: NodeStore, batchSize = V3_PRUNE_BATCH): Promise<number> {
  if ((await store.get(V3_TABLES.meta, V3_META_SLOT_INDEX)) !== undefined) return 0;
  let written = 0;
  let batch = store.batch();
  for await (const [id, r] of store.entries(V3_TABLES.blockState)) {
    indexBlockSlot(batch, id, r.slot);
    if (++written % batchSize === 0) {
      await batch.commit({ sync: false });
      batch = store.batch();
    }
  }
  recordSlotIndexBuilt(batch);
  await batch.commit({ sync: true });
  return written;
}

/** Up to `limit` slot index entries of the slots before `slot`, after `after` (the last entry of the batch before). */
export async function slotEntriesBefore(
  store: NodeStore,
  slot: number,
  after: SlotBlockKey | undefined,
  limit: number,
): Promise<SlotBlockKey[]> {
  const out: SlotBlockKey[] = [];
  const range = { lt: { slot, blockId: new Uint8Array(0) }, limit, ...(after ? { gt: after } : {}) };
  for await (const k of store.keys(V3_TABLES.slotBlocks, range)) out.push(k);
  return out;
}

/**
 * Into `batch`: the confirmed and orphaned blocks among `entries` and what goes with them (see the file comment);
 * the others are left as they are. Reads the store only, so a batch whose commit fails changes nothing.
 */
export async function pruneSlotEntries(
  store: NodeStore,
  batch: StoreBatch,
  entries: readonly SlotBlockKey[],
  params: ProtocolParametersV3,
): Promise<PrunedV3> {
  const out: PrunedV3 = { blocks: [], transactions: [], outputs: [] };
  /** Never-included transactions (pending, or failed as orphaned) -> their attachments this batch deletes. */
  const detached = new Map<string, Set<string>>();
  const states = await store.getMany(
    V3_TABLES.blockState,
    entries.map((e) => e.blockId),
  );
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const state = states[i];
    if (state !== undefined && !state.confirmed && state.orphaned !== true) continue;
    const id = e.blockId;
    batch.del(V3_TABLES.slotBlocks, e);
    if (state === undefined) continue; // an entry whose block is gone (not written so by the node): the entry goes
    if (state.transactionId !== undefined) {
      const txId = fromHex0x(state.transactionId);
      batch.del(TABLES.transactionBlocks, [txId, id] as const);
      const tx = await store.get(V3_TABLES.transactions, txId);
      if (tx?.includedBlockId === key(id)) {
        batch.del(V3_TABLES.transactions, txId);
        out.transactions.push(state.transactionId);
        for (const o of await spentBy(store, id, state.transactionId, params)) {
          batch.del(V3_TABLES.outputs, o);
          out.outputs.push(o);
        }
      } else if (tx !== undefined && (tx.state === 'pending' || isOrphanedV3(tx))) {
        const gone = detached.get(state.transactionId) ?? new Set<string>();
        detached.set(state.transactionId, gone.add(key(id)));
      }
    }
    batch.del(TABLES.blocks, id);
    batch.del(V3_TABLES.blockState, id);
    batch.del(V3_TABLES.tips, id);
    out.blocks.push(id);
  }
  for (const [txKey, gone] of detached) {
    const txId = fromHex0x(txKey);
    if (!(await store.transactionBlocks(txId)).every((b) => gone.has(key(b)))) continue;
    batch.del(V3_TABLES.transactions, txId);
    out.transactions.push(txKey);
  }
  return out;
}

/** What a pruning run needs of the engine. */
export interface V3PruneHost {
  store: NodeStore;
  params: ProtocolParametersV3;
  /** Runs `fn` alone in the engine's change queue. */
  inQueue<T>(fn: () => Promise<T>): Promise<T>;
  /** Commits the committable slots (in the queue). */
  commitSlots(): Promise<void>;
  latestCommittedSlot(): number;
  record(): PruningRecordV3 | undefined;
  setRecord(r: PruningRecordV3): void;
  /** The engine's memory forgets what a batch deleted. */
  forget(gone: PrunedV3): void;
}

/** The record of a prune to the timestamp (Unix seconds) of milestone `milestoneIndex`: its slot. */
function byMilestoneV3(
  target: { milestoneIndex: number; timestamp: number },
  params: ProtocolParametersV3,
): PruningRecordV3 {
  return {
    slot: slotFromTime(BigInt(target.timestamp) * 1_000_000_000n, params),
    milestoneIndex: target.milestoneIndex,
  };
}

/** The runs under way per store (the v2 pruning's and the retention's go one after the other). */
const runs = new WeakMap<NodeStore, Promise<unknown>>();

/**
 * A pruning run to `target` (a record, or a milestone: the slot of its timestamp; a run to a higher slot recorded
 * before, and interrupted, is finished instead), after the runs on the same store under way. The boundary is recorded
 * first; then bounded batches, each alone in the change queue (no attach or read sees half a batch), `afterBatch`
 * after each (throwing there ends the run; the next one finishes it); then the roots and the UTXO changes.
 */
export function pruneByTimeV3(
  host: V3PruneHost,
  target: PruningRecordV3 | { milestoneIndex: number; timestamp: number },
  options: { batch?: number; afterBatch?: (p: Readonly<V3PruneProgress>) => void | Promise<void> } = {},
): Promise<V3PruneProgress> {
  const record = 'timestamp' in target ? byMilestoneV3(target, host.params) : target;
  const run = (runs.get(host.store) ?? Promise.resolve()).then(() => pruneRun(host, record, options));
  runs.set(
    host.store,
    run.catch(() => undefined),
  );
  return run;
}

async function pruneRun(
  host: V3PruneHost,
  target: PruningRecordV3,
  options: { batch?: number; afterBatch?: (p: Readonly<V3PruneProgress>) => void | Promise<void> },
): Promise<V3PruneProgress> {
  const { store, params } = host;
  const size = options.batch ?? V3_PRUNE_BATCH;
  const record = await host.inQueue(async () => {
    await host.commitSlots();
    const known = host.record();
    if (known !== undefined && known.slot >= target.slot) return known;
    const batch = store.batch();
    writePruningV3(batch, target);
    await batch.commit({ sync: true });
    host.setRecord(target);
    return target;
  });
  const progress: V3PruneProgress = { slot: record.slot, blocks: 0, transactions: 0, outputs: 0, batches: 0 };
  let after: SlotBlockKey | undefined;
  // only committed slots: an uncommitted slot's accepted blocks are still to be committed (commitments.ts)
  const bound = (): number => Math.min(record.slot, host.latestCommittedSlot() + 1);
  for (;;) {
    const scanned = await host.inQueue(async () => {
      const entries = await slotEntriesBefore(store, bound(), after, size);
      if (entries.length === 0) return 0;
      const batch = store.batch();
      const gone = await pruneSlotEntries(store, batch, entries, params);
      if (batch.length > 0) await batch.commit({ sync: false });
      host.forget(gone);
      after = entries[entries.length - 1];
      progress.blocks += gone.blocks.length;
      progress.transactions += gone.transactions.length;
      progress.outputs += gone.outputs.length;
      return entries.length;
    });
    if (scanned === 0) break;
    progress.batches++;
    await options.afterBatch?.(progress);
    if (scanned < size) break;
  }
  for (const table of [V3_TABLES.roots, V3_TABLES.utxoChanges])
    while ((await host.inQueue(() => pruneSlotRecordsBefore(store, table, bound(), size))) === size);
  return progress;
}

/**
 * Deletes up to `limit` records of `table` (the commitment roots, the UTXO changes) of the slots before `slot` (one
 * batch); returns how many.
 */
export async function pruneSlotRecordsBefore(
  store: NodeStore,
  table: Table<number, unknown>,
  slot: number,
  limit: number,
): Promise<number> {
  const batch = store.batch();
  for await (const s of store.keys(table, { lt: slot, limit })) batch.del(table, s);
  const n = batch.length;
  if (n > 0) await batch.commit({ sync: false });
  return n;
}

/** The outputs the transaction in block `blockId` consumed whose records name it as their spender. */
async function spentBy(
  store: NodeStore,
  blockId: Uint8Array,
  txKey: string,
  params: ProtocolParametersV3,
): Promise<Uint8Array[]> {
  const raw = await store.getBlock(blockId);
  if (raw === undefined) return [];
  const body = decodeBlockV3(raw, params).body;
  if (body.type !== 0 || body.payload?.type !== 1) return [];
  const ids = body.payload.transaction.inputs.map((input) =>
    outputIdV3(input.transactionId, input.transactionOutputIndex),
  );
  const records = await store.getMany(V3_TABLES.outputs, ids);
  return ids.filter((_, i) => records[i]?.spentBy === txKey);
}

/**
 * The note of a miss that may be pruned (the shape of §27's v2 answers): an ID whose slot (its last 4 bytes) lies
 * before the pruning boundary; undefined when it cannot have been pruned.
 */
export function prunedNoteV3(
  record: PruningRecordV3 | undefined,
  id: Uint8Array,
  what = 'unknown',
): string | undefined {
  if (record === undefined || slotOfId(id) >= record.slot) return undefined;
  const start = record.milestoneIndex !== undefined ? 'the slot of' : 'the start of';
  return (
    `${what}, or pruned: this node keeps no confirmed v3 block of a slot before ` +
    `${record.slot}, ${start} ${whyPrunedV3(record)}`
  );
}

/** What set the pruning boundary: the v2 pruning index's milestone, or the v3 retention (`--prune-v3-epochs`). */
export function whyPrunedV3(record: PruningRecordV3): string {
  return record.milestoneIndex !== undefined
    ? `milestone ${record.milestoneIndex}, its pruning index`
    : `its v3 retention: the ${record.keptEpochs} epochs before the latest commitment's, --prune-v3-epochs`;
}
