/**
 * One atomic write of the node: fill it, then `commit()`. Values are encoded when added, so a bad value throws
 * at the call that adds it and the batch is never written; `commit()` applies every op or none.
 */
import type { BlockMetadata } from './block-metadata.ts';
import { StoreError } from './errors.ts';
import type { BatchOp, KeyValueStore, WriteOptions } from './kv.ts';
import type { MetaField } from './meta.ts';
import type { MilestoneRecord } from './milestone-record.ts';
import { tableKey, type Table } from './table.ts';
import { TABLES } from './tables.ts';

/** A block as the node stores it on arrival. */
export interface StoredBlock {
  blockId: Uint8Array;
  /** The bytes exactly as received. */
  bytes: Uint8Array;
  /** The block's parents; each gets a children edge to this block. */
  parents: readonly Uint8Array[];
  metadata: BlockMetadata;
  /** When the block carries a transaction: indexed for re-attachment lookups. */
  transactionId?: Uint8Array;
}

export class StoreBatch {
  private readonly kv: KeyValueStore;
  private readonly ops: BatchOp[] = [];
  private committed = false;

  constructor(kv: KeyValueStore) {
    this.kv = kv;
  }

  /** Number of ops so far. */
  get length(): number {
    return this.ops.length;
  }

  put<K, V>(table: Table<K, V>, key: K, value: V): this {
    this.usable();
    this.ops.push({ type: 'put', key: tableKey(table, key), value: table.value.encode(value) });
    return this;
  }

  del<K>(table: Table<K, unknown>, key: K): this {
    this.usable();
    this.ops.push({ type: 'del', key: tableKey(table, key) });
    return this;
  }

  putMeta<T>(field: MetaField<T>, value: T): this {
    return this.put(TABLES.meta, field.name, field.codec.encode(value));
  }

  /** Block bytes, its metadata, a children edge from every parent and, for a transaction, the re-attachment index. */
  addBlock(block: StoredBlock): this {
    this.put(TABLES.blocks, block.blockId, block.bytes);
    this.putBlockMetadata(block.blockId, block.metadata);
    for (const parent of block.parents) this.addChild(parent, block.blockId);
    if (block.transactionId !== undefined) this.addTransactionBlock(block.transactionId, block.blockId);
    return this;
  }

  putBlockMetadata(blockId: Uint8Array, metadata: BlockMetadata): this {
    return this.put(TABLES.blockMetadata, blockId, metadata);
  }

  addChild(parentId: Uint8Array, childId: Uint8Array): this {
    return this.put(TABLES.children, [parentId, childId] as const, null);
  }

  addTip(blockId: Uint8Array): this {
    return this.put(TABLES.tips, blockId, null);
  }

  removeTip(blockId: Uint8Array): this {
    return this.del(TABLES.tips, blockId);
  }

  addTransactionBlock(transactionId: Uint8Array, blockId: Uint8Array): this {
    return this.put(TABLES.transactionBlocks, [transactionId, blockId] as const, null);
  }

  setIncludedBlock(transactionId: Uint8Array, blockId: Uint8Array): this {
    return this.put(TABLES.includedBlock, transactionId, blockId);
  }

  /** The milestone under its index, and its index under its milestone ID. */
  putMilestone(index: number, record: MilestoneRecord): this {
    this.put(TABLES.milestones, index, record);
    return this.put(TABLES.milestoneIndexById, record.milestoneId, index);
  }

  /** Writes every op atomically; `sync` defaults to true (acknowledged write). A batch commits once. */
  async commit(options: WriteOptions = { sync: true }): Promise<void> {
    this.usable();
    this.committed = true;
    await this.kv.write(this.ops, { sync: options.sync ?? true });
  }

  private usable(): void {
    if (this.committed) throw new StoreError('BATCH_COMMITTED', 'Cannot use the store batch: it was already committed');
  }
}
