/** What every adapter of the storage port shares: `put` and `del` are one-op batches, checked the same way. */
import type { BatchOp, Entry, KeyValueStore, RangeOptions, WriteOptions } from './kv.ts';
import { checkKey, checkValue } from './range.ts';

/** An adapter implements the reads, `write` and `close`; single-key writes go through `write` (atomic, durable). */
export abstract class KeyValueStoreAdapter implements KeyValueStore {
  abstract get(key: Uint8Array): Promise<Uint8Array | undefined>;
  abstract getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  abstract has(key: Uint8Array): Promise<boolean>;
  abstract write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void>;
  abstract entries(range?: RangeOptions): AsyncIterableIterator<Entry>;
  abstract keys(range?: RangeOptions): AsyncIterableIterator<Uint8Array>;
  abstract close(): Promise<void>;

  async put(key: Uint8Array, value: Uint8Array, options?: WriteOptions): Promise<void> {
    checkKey(key);
    checkValue(value);
    return this.write([{ type: 'put', key, value }], options);
  }

  async del(key: Uint8Array, options?: WriteOptions): Promise<void> {
    checkKey(key);
    return this.write([{ type: 'del', key }], options);
  }
}
