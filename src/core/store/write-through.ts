/**
 * A write-through cache in front of a key-value store, for the tables whose recent writes are read again at once:
 * block bytes and block metadata (a new block's parents, the cone a milestone confirms). Every value written to a
 * cached table is kept once the write has succeeded, up to `maxBytes` (the least recently written go first); reads
 * of those keys are answered from memory, all other reads pass through. A read never fills the cache, so a read that
 * overlaps a write can never leave an old value behind; writes to one key are applied in the order they were issued.
 * Values are copied in and out, so nothing aliases the caller's arrays.
 */
import { toHex } from '../bytes.ts';
import type { BatchOp, Entry, KeyValueStore, RangeOptions, WriteOptions } from './kv.ts';

export interface WriteThroughOptions {
  /** Key prefixes (first key byte) of the cached tables. */
  prefixes: readonly number[];
  /** Bytes of values (and keys) kept at most. */
  maxBytes: number;
}

interface Cached {
  /** `null`: known to be absent (deleted). */
  value: Uint8Array | null;
  /** The issue order of the write that set it. */
  seq: number;
  size: number;
}

export class WriteThroughCache implements KeyValueStore {
  private readonly cache = new Map<string, Cached>();
  private readonly prefixes: ReadonlySet<number>;
  private bytes = 0;
  private seq = 0;

  constructor(
    private readonly inner: KeyValueStore,
    private readonly options: WriteThroughOptions,
  ) {
    this.prefixes = new Set(options.prefixes);
  }

  /** Entries and bytes held (metrics, tests). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.bytes };
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    const hit = this.lookup(key);
    if (hit !== undefined) return hit.value?.slice();
    return this.inner.get(key);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = new Array(keys.length);
    const missing: number[] = [];
    keys.forEach((k, i) => {
      const hit = this.lookup(k);
      if (hit === undefined) missing.push(i);
      else out[i] = hit.value?.slice();
    });
    if (missing.length > 0) {
      const values = await this.inner.getMany(missing.map((i) => keys[i]!));
      missing.forEach((i, j) => {
        out[i] = values[j];
      });
    }
    return out;
  }

  async has(key: Uint8Array): Promise<boolean> {
    const hit = this.lookup(key);
    if (hit !== undefined) return hit.value !== null;
    return this.inner.has(key);
  }

  put(key: Uint8Array, value: Uint8Array, options?: WriteOptions): Promise<void> {
    return this.write([{ type: 'put', key, value }], options);
  }

  del(key: Uint8Array, options?: WriteOptions): Promise<void> {
    return this.write([{ type: 'del', key }], options);
  }

  async write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void> {
    const seq = ++this.seq;
    await this.inner.write(ops, options);
    for (const op of ops)
      if (this.prefixes.has(op.key[0]!)) this.remember(op.key, op.type === 'put' ? op.value.slice() : null, seq);
  }

  entries(range?: RangeOptions): AsyncIterableIterator<Entry> {
    return this.inner.entries(range);
  }

  keys(range?: RangeOptions): AsyncIterableIterator<Uint8Array> {
    return this.inner.keys(range);
  }

  async close(): Promise<void> {
    this.cache.clear();
    this.bytes = 0;
    await this.inner.close();
  }

  private lookup(key: Uint8Array): Cached | undefined {
    return key.length > 0 && this.prefixes.has(key[0]!) ? this.cache.get(toHex(key)) : undefined;
  }

  private remember(key: Uint8Array, value: Uint8Array | null, seq: number): void {
    const k = toHex(key);
    const old = this.cache.get(k);
    if (old) {
      if (old.seq > seq) return; // a later-issued write already set it
      this.cache.delete(k);
      this.bytes -= old.size;
    }
    const size = k.length + (value?.length ?? 0) + 64;
    this.cache.set(k, { value, seq, size });
    this.bytes += size;
    for (const [oldest, c] of this.cache) {
      if (this.bytes <= this.options.maxBytes) break;
      this.cache.delete(oldest);
      this.bytes -= c.size;
    }
  }
}
