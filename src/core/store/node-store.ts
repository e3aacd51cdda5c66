/**
 * The typed store of the node, written once over any KeyValueStore: blocks, block metadata, children, tips,
 * transaction indexes, milestones, meta fields, and generic typed tables. Reads return `undefined` for missing
 * keys. Writes go through one StoreBatch per acknowledged operation.
 */
import { toHex0x } from '../bytes.ts';
import type { BlockMetadata } from './block-metadata.ts';
import { idPrefix } from './codec.ts';
import { StoreError } from './errors.ts';
import type { KeyValueStore, RangeOptions } from './kv.ts';
import { META, SCHEMA_VERSION, type MetaField } from './meta.ts';
import type { MilestoneRecord } from './milestone-record.ts';
import { intersectRanges, prefixRange } from './range.ts';
import { StoreBatch } from './store-batch.ts';
import { decodeTableKey, tableKey, withPrefix, type Table } from './table.ts';
import { TABLES } from './tables.ts';

/** A range over one table: bounds in the table's key type, and/or raw bytes every encoded key starts with. */
export interface TableRange<K> {
  gt?: K;
  gte?: K;
  lt?: K;
  lte?: K;
  /** Encoded-key prefix inside the table (e.g. `idPrefix(parentId)` for the children of a block). */
  prefix?: Uint8Array;
  reverse?: boolean;
  limit?: number;
}

export interface OpenOptions {
  /** When given: recorded in a new store, and required to match in an existing one. */
  networkName?: string;
}

export class NodeStore {
  readonly kv: KeyValueStore;

  /** Wraps a store without checks; prefer `NodeStore.open`. */
  constructor(kv: KeyValueStore) {
    this.kv = kv;
  }

  /**
   * Opens the node's view of a store: a new (empty) store gets the schema version (and network name);
   * an existing one must carry the same schema version (SCHEMA_MISMATCH) and network (NETWORK_MISMATCH).
   */
  static async open(kv: KeyValueStore, options: OpenOptions = {}): Promise<NodeStore> {
    const store = new NodeStore(kv);
    const schema = await store.getMeta(META.schemaVersion);
    const batch = store.batch();
    if (schema === undefined) {
      for await (const key of kv.keys({ limit: 1 })) {
        throw new StoreError(
          'SCHEMA_MISMATCH',
          `Cannot open store: it holds data (first key ${toHex0x(key)}) but no schema version`,
        );
      }
      batch.putMeta(META.schemaVersion, SCHEMA_VERSION);
    } else if (schema !== SCHEMA_VERSION) {
      throw new StoreError(
        'SCHEMA_MISMATCH',
        `Cannot open store: schema version ${schema}, this node reads version ${SCHEMA_VERSION}`,
      );
    }
    if (options.networkName !== undefined) {
      const network = await store.getMeta(META.networkName);
      if (network === undefined) batch.putMeta(META.networkName, options.networkName);
      else if (network !== options.networkName) {
        throw new StoreError(
          'NETWORK_MISMATCH',
          `Cannot open store: it belongs to network "${network}", not "${options.networkName}"`,
        );
      }
    }
    if (batch.length > 0) await batch.commit({ sync: true });
    return store;
  }

  batch(): StoreBatch {
    return new StoreBatch(this.kv);
  }

  close(): Promise<void> {
    return this.kv.close();
  }

  // ---- generic tables

  async get<K, V>(table: Table<K, V>, key: K): Promise<V | undefined> {
    const bytes = await this.kv.get(tableKey(table, key));
    return bytes === undefined ? undefined : table.value.decode(bytes, `${table.name} value`);
  }

  async getMany<K, V>(table: Table<K, V>, keys: readonly K[]): Promise<(V | undefined)[]> {
    const values = await this.kv.getMany(keys.map((k) => tableKey(table, k)));
    return values.map((b) => (b === undefined ? undefined : table.value.decode(b, `${table.name} value`)));
  }

  has<K>(table: Table<K, unknown>, key: K): Promise<boolean> {
    return this.kv.has(tableKey(table, key));
  }

  async *entries<K, V>(table: Table<K, V>, range: TableRange<K> = {}): AsyncIterableIterator<[K, V]> {
    for await (const [key, value] of this.kv.entries(this.storeRange(table, range))) {
      yield [decodeTableKey(table, key), table.value.decode(value, `${table.name} value`)];
    }
  }

  async *keys<K>(table: Table<K, unknown>, range: TableRange<K> = {}): AsyncIterableIterator<K> {
    for await (const key of this.kv.keys(this.storeRange(table, range))) yield decodeTableKey(table, key);
  }

  /**
   * Deletes every key of `tables`, `chunk` keys a batch, unsynced (a rebuilt index: the caller marks it done with a
   * synced write afterwards, so a crash between leaves it to be cleared and built again).
   */
  async clearTables(tables: readonly Table<unknown, unknown>[], chunk: number): Promise<void> {
    for (const table of tables) {
      let keys: Uint8Array[] = [];
      const flush = async (): Promise<void> => {
        await this.kv.write(
          keys.map((key) => ({ type: 'del' as const, key })),
          { sync: false },
        );
        keys = [];
      };
      for await (const key of this.kv.keys(prefixRange(Uint8Array.of(table.prefix)))) {
        keys.push(key);
        if (keys.length >= chunk) await flush();
      }
      if (keys.length > 0) await flush();
    }
  }

  async getMeta<T>(field: MetaField<T>): Promise<T | undefined> {
    const bytes = await this.get(TABLES.meta, field.name);
    return bytes === undefined ? undefined : field.codec.decode(bytes, `meta ${field.name}`);
  }

  // ---- blocks and the DAG

  /** The raw bytes exactly as received. */
  getBlock(blockId: Uint8Array): Promise<Uint8Array | undefined> {
    return this.get(TABLES.blocks, blockId);
  }

  hasBlock(blockId: Uint8Array): Promise<boolean> {
    return this.has(TABLES.blocks, blockId);
  }

  getBlockMetadata(blockId: Uint8Array): Promise<BlockMetadata | undefined> {
    return this.get(TABLES.blockMetadata, blockId);
  }

  /** Child block IDs in key order (a prefix scan). */
  children(parentId: Uint8Array): Promise<Uint8Array[]> {
    return this.seconds(TABLES.children, parentId);
  }

  /** Every tip in key order. */
  async tips(): Promise<Uint8Array[]> {
    return collect(this.keys(TABLES.tips));
  }

  isTip(blockId: Uint8Array): Promise<boolean> {
    return this.has(TABLES.tips, blockId);
  }

  // ---- transactions and milestones

  /** Every stored block carrying the transaction (re-attachments), in key order. */
  transactionBlocks(transactionId: Uint8Array): Promise<Uint8Array[]> {
    return this.seconds(TABLES.transactionBlocks, transactionId);
  }

  includedBlock(transactionId: Uint8Array): Promise<Uint8Array | undefined> {
    return this.get(TABLES.includedBlock, transactionId);
  }

  milestone(index: number): Promise<MilestoneRecord | undefined> {
    return this.get(TABLES.milestones, index);
  }

  milestoneIndexById(milestoneId: Uint8Array): Promise<number | undefined> {
    return this.get(TABLES.milestoneIndexById, milestoneId);
  }

  /** The highest stored milestone index, or undefined without milestones. */
  async lastMilestoneIndex(): Promise<number | undefined> {
    for await (const index of this.keys(TABLES.milestones, { reverse: true, limit: 1 })) return index;
    return undefined;
  }

  // ---- internals

  private async seconds(
    table: Table<readonly [Uint8Array, Uint8Array], null>,
    first: Uint8Array,
  ): Promise<Uint8Array[]> {
    const out: Uint8Array[] = [];
    for await (const [, second] of this.keys(table, { prefix: idPrefix(first) })) out.push(second);
    return out;
  }

  private storeRange<K>(table: Table<K, unknown>, range: TableRange<K>): RangeOptions {
    const base = prefixRange(
      range.prefix === undefined ? Uint8Array.of(table.prefix) : withPrefix(table.prefix, range.prefix),
    );
    const bound = (k: K): Uint8Array => tableKey(table, k);
    return intersectRanges(base, {
      ...(range.gt !== undefined ? { gt: bound(range.gt) } : {}),
      ...(range.gte !== undefined ? { gte: bound(range.gte) } : {}),
      ...(range.lt !== undefined ? { lt: bound(range.lt) } : {}),
      ...(range.lte !== undefined ? { lte: bound(range.lte) } : {}),
      ...(range.reverse !== undefined ? { reverse: range.reverse } : {}),
      ...(range.limit !== undefined ? { limit: range.limit } : {}),
    });
  }
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
