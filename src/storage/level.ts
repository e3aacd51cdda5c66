/**
 * The LevelDB adapter of the storage port (classic-level). Keys and values travel as Uint8Array (`view`
 * encodings); what LevelDB hands back as Buffer is re-wrapped as a plain Uint8Array over the same memory.
 * Acknowledged writes use `sync: true` (fsync before the promise settles). Iterators and getMany read from
 * the snapshot taken when they are called.
 */
import { ClassicLevel } from 'classic-level';
import { StoreError } from '../core/store/errors.ts';
import { KeyValueStoreAdapter } from '../core/store/adapter.ts';
import type { BatchOp, Entry, RangeOptions, WriteOptions } from '../core/store/kv.ts';
import { checkKey, checkOps, checkRange, intersectRanges } from '../core/store/range.ts';

type Db = ClassicLevel<Uint8Array, Uint8Array>;

export interface LevelOpenOptions {
  /** Create the folder when missing (default true); false fails with STORE_OPEN_FAILED instead. */
  createIfMissing?: boolean;
}

/** A plain Uint8Array over the bytes of a Buffer (no copy; never a Buffer). */
function plain(b: Uint8Array): Uint8Array {
  return b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

export class LevelKeyValueStore extends KeyValueStoreAdapter {
  readonly location: string;
  private readonly db: Db;
  private closed = false;

  private constructor(location: string, db: Db) {
    super();
    this.location = location;
    this.db = db;
  }

  /** Opens (or creates) the store in `location`; STORE_LOCKED when another process or store holds the folder. */
  static async open(location: string, options: LevelOpenOptions = {}): Promise<LevelKeyValueStore> {
    const db: Db = new ClassicLevel<Uint8Array, Uint8Array>(location, { keyEncoding: 'view', valueEncoding: 'view' });
    try {
      await db.open({ createIfMissing: options.createIfMissing ?? true });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      if (cause?.code === 'LEVEL_LOCKED') {
        throw new StoreError('STORE_LOCKED', `Cannot open store at ${location}: the folder is locked by another process or open store (is another node running on it?)`, { cause: e });
      }
      const reason = cause?.message ?? (e as Error).message;
      throw new StoreError('STORE_OPEN_FAILED', `Cannot open store at ${location}: ${reason}`, { cause: e });
    }
    return new LevelKeyValueStore(location, db);
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.usable();
    checkKey(key);
    const v = await this.db.get(key);
    return v === undefined ? undefined : plain(v);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.usable();
    keys.forEach((k, i) => checkKey(k, `keys[${i}]`));
    const values = await this.db.getMany(keys.slice());
    return values.map((v) => (v === undefined ? undefined : plain(v)));
  }

  async has(key: Uint8Array): Promise<boolean> {
    this.usable();
    checkKey(key);
    return this.db.has(key);
  }

  async write(ops: readonly BatchOp[], options: WriteOptions = {}): Promise<void> {
    this.usable();
    checkOps(ops);
    if (ops.length === 0) return;
    // A LevelDB WriteBatch is applied atomically (one log record); sync makes it durable before we return.
    await this.db.batch(ops as BatchOp[], { sync: options.sync ?? true });
  }

  entries(range: RangeOptions = {}): AsyncIterableIterator<Entry> {
    return cursor(this.iterate(range, (r) => this.db.iterator(r)), ([k, v]: [Uint8Array, Uint8Array]) => [plain(k), plain(v)] as const);
  }

  keys(range: RangeOptions = {}): AsyncIterableIterator<Uint8Array> {
    return cursor(this.iterate(range, (r) => this.db.keys(r)), plain);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.close();
  }

  /** A Level iterator over `range` (its snapshot taken now), once the store and the range are checked. */
  private iterate<I>(range: RangeOptions, open: (r: LevelRange) => I): I {
    this.usable();
    checkRange(range);
    return open(levelRange(range));
  }

  private usable(): void {
    if (this.closed) throw new StoreError('STORE_CLOSED', `Cannot use the store at ${this.location}: it is closed`);
  }
}

type LevelRange = { gt?: Uint8Array; gte?: Uint8Array; lt?: Uint8Array; lte?: Uint8Array; reverse?: boolean; limit?: number };

/** One lower and one upper bound at most, and no `limit` key when unlimited (LevelDB takes -1). */
function levelRange(range: RangeOptions): LevelRange {
  const r = intersectRanges(range);
  return { ...r, limit: r.limit === undefined || r.limit < 0 ? -1 : r.limit };
}

/**
 * An async iterator over a Level iterator that is already open (so its snapshot is already taken):
 * reads ahead in small pages, and closes the Level iterator at the end or when the loop breaks.
 */
function cursor<R, T>(it: { nextv(n: number): Promise<R[]>; close(): Promise<void> }, map: (r: R) => T): AsyncIterableIterator<T> {
  let page: R[] = [];
  let at = 0;
  let ended = false;
  let size = 16;
  const finish = async (): Promise<IteratorResult<T>> => {
    if (!ended) {
      ended = true;
      await it.close();
    }
    return { done: true, value: undefined };
  };
  const self: AsyncIterableIterator<T> = {
    next: async () => {
      if (ended) return { done: true, value: undefined };
      if (at >= page.length) {
        try {
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
