/**
 * What the on-disk engines (LevelDB in level.ts, RocksDB in rocksdb.ts) share above their bindings: argument checks,
 * the closed state (STORE_CLOSED), acknowledged (`sync`) writes by default, at most one lower and one upper range
 * bound, values handed out as plain Uint8Array over the engine's memory (never the engine's Buffer), paged
 * iterators over the snapshot taken when they are opened, and the errors of a failed open. An engine adapter
 * supplies only the calls into its binding.
 */
import { StoreError } from '../core/store/errors.ts';
import { KeyValueStoreAdapter } from '../core/store/adapter.ts';
import type { BatchOp, Entry, RangeOptions, WriteOptions } from '../core/store/kv.ts';
import { checkKey, checkOps, checkRange, intersectRanges } from '../core/store/range.ts';

/** The storage engines a node can run on; a data folder keeps the one it was created with (open.ts). */
export const DB_ENGINES = ['leveldb', 'rocksdb'] as const;
export type DbEngine = (typeof DB_ENGINES)[number];

export function isDbEngine(x: unknown): x is DbEngine {
  return DB_ENGINES.includes(x as DbEngine);
}

/** A range as the engines take it: one bound per side at most, and `limit` -1 when unlimited. */
export interface EngineRange {
  gt?: Uint8Array;
  gte?: Uint8Array;
  lt?: Uint8Array;
  lte?: Uint8Array;
  reverse?: boolean;
  limit: number;
}

/**
 * An open engine iterator (its snapshot already taken): up to `n` more results at a time (none at the end), and a
 * close.
 */
export interface EnginePages<R> {
  nextv(n: number): Promise<R[]>;
  close(): Promise<void>;
}

export interface EngineOpenOptions {
  /** Create the folder when missing (default true); false fails with STORE_OPEN_FAILED instead. */
  createIfMissing?: boolean;
}

/** A plain Uint8Array over the bytes of a Buffer (no copy; never a Buffer). */
export function plain(b: Uint8Array): Uint8Array {
  return b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** The StoreError of a failed open: STORE_LOCKED when another process or open store holds the folder. */
export function openError(location: string, e: unknown, locked: boolean, reason: string): StoreError {
  return locked
    ? new StoreError(
        'STORE_LOCKED',
        `Cannot open store at ${location}: the folder is locked by ` +
          `another process or open store (is another node running on it?)`,
        { cause: e },
      )
    : new StoreError('STORE_OPEN_FAILED', `Cannot open store at ${location}: ${reason}`, { cause: e });
}

export abstract class EngineKeyValueStore extends KeyValueStoreAdapter {
  readonly location: string;
  abstract readonly engine: DbEngine;
  private closed = false;

  protected constructor(location: string) {
    super();
    this.location = location;
  }

  /** The value as the engine returns it (a Buffer is fine: it is re-wrapped), or undefined. */
  protected abstract engineGet(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Values of `keys`, read from one snapshot. */
  protected abstract engineGetMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  protected abstract engineHas(key: Uint8Array): Promise<boolean>;
  /** One atomic write batch (checked, non-empty); `sync`: durable on disk before the promise settles. */
  protected abstract engineWrite(ops: readonly BatchOp[], sync: boolean): Promise<void>;
  protected abstract engineEntries(range: EngineRange): EnginePages<readonly [Uint8Array, Uint8Array]>;
  protected abstract engineKeys(range: EngineRange): EnginePages<Uint8Array>;
  /** Closes the engine; it must end the iterators still open. */
  protected abstract engineClose(): Promise<void>;

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.usable();
    checkKey(key);
    const v = await this.engineGet(key);
    return v === undefined ? undefined : plain(v);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.usable();
    keys.forEach((k, i) => {
      checkKey(k, `keys[${i}]`);
    });
    const values = await this.engineGetMany(keys.slice());
    return values.map((v) => (v === undefined ? undefined : plain(v)));
  }

  async has(key: Uint8Array): Promise<boolean> {
    this.usable();
    checkKey(key);
    return this.engineHas(key);
  }

  async write(ops: readonly BatchOp[], options: WriteOptions = {}): Promise<void> {
    this.usable();
    checkOps(ops);
    if (ops.length === 0) return;
    // A write batch is applied atomically (one log record); sync makes it durable before we return.
    await this.engineWrite(ops, options.sync ?? true);
  }

  entries(range: RangeOptions = {}): AsyncIterableIterator<Entry> {
    return this.cursor(this.engineEntries(this.engineRange(range)), ([k, v]) => [plain(k), plain(v)] as const);
  }

  keys(range: RangeOptions = {}): AsyncIterableIterator<Uint8Array> {
    return this.cursor(this.engineKeys(this.engineRange(range)), plain);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engineClose();
  }

  protected get isClosed(): boolean {
    return this.closed;
  }

  protected usable(): void {
    if (this.closed) throw new StoreError('STORE_CLOSED', `Cannot use the store at ${this.location}: it is closed`);
  }

  /**
   * The store is open and the range valid: one lower and one upper bound at most, and -1 for no limit. The engines
   * ignore an empty bound; an empty upper bound admits no key, so that range is made empty here.
   */
  private engineRange(range: RangeOptions): EngineRange {
    this.usable();
    checkRange(range);
    const r = intersectRanges(range);
    if (r.lt?.length === 0 || r.lte?.length === 0) return { limit: 0 };
    return { ...r, limit: r.limit === undefined || r.limit < 0 ? -1 : r.limit };
  }

  /**
   * An async iterator over an engine iterator that is already open (so its snapshot is already taken): reads ahead
   * in growing pages, and closes the engine iterator at the end or when the loop breaks. Once the store is closed
   * (which ended the engine iterator) a further read rejects with STORE_CLOSED.
   */
  private cursor<R, T>(it: EnginePages<R>, map: (r: R) => T): AsyncIterableIterator<T> {
    let page: R[] = [];
    let at = 0;
    let ended = false;
    let size = 16;
    const finish = async (): Promise<IteratorResult<T>> => {
      if (!ended) {
        ended = true;
        if (!this.closed) await it.close();
      }
      return { done: true, value: undefined };
    };
    const self: AsyncIterableIterator<T> = {
      next: async () => {
        if (ended) return { done: true, value: undefined };
        if (at >= page.length) {
          try {
            this.usable();
            page = await it.nextv(size);
          } catch (e) {
            await finish().catch(() => undefined);
            throw e;
          }
          at = 0;
          size = Math.min(size * 2, 1024);
          if (page.length === 0) return finish();
        }
        return { done: false, value: map(page[at++]!) };
      },
      return: finish,
      [Symbol.asyncIterator]() {
        return self;
      },
    };
    return self;
  }
}
