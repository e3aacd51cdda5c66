/**
 * The RocksDB adapter of the storage port (npm `rocksdb`, the Level project's binding with RocksDB built in, the
 * abstract-leveldown callback API). Keys and values go to the binding as Buffer views over the caller's bytes (the
 * binding copies them before the call returns); what it hands back as Buffer is re-wrapped as a plain Uint8Array.
 * Acknowledged writes use `sync: true` (the write-ahead log is synced before the callback). Iterators and getMany
 * read from the snapshot taken when they are called. Everything above the binding calls (checks, closed state,
 * ranges, paging, plain Uint8Array out) is shared with the LevelDB adapter in engine.ts.
 *
 * The binding does not check its own state: a call on a closed handle crashes the process. So every call here goes
 * through the shared closed check first, and close() waits for the calls in flight (the binding defers its close
 * until they finish, and ends the iterators still open).
 */
import { createRequire } from 'node:module';
import type { BatchOp } from '../core/store/kv.ts';
import {
  EngineKeyValueStore,
  openError,
  type EngineOpenOptions,
  type EnginePages,
  type EngineRange,
} from './engine.ts';

type Callback<T> = (err: Error | null | undefined, value?: T) => void;

/** The part of the binding's abstract-leveldown 7 API this adapter uses. */
interface RocksIterator {
  next(callback: (err: Error | null | undefined, key?: Buffer, value?: Buffer) => void): void;
  end(callback: (err?: Error | null) => void): void;
}
interface RocksDb {
  open(options: { createIfMissing: boolean }, callback: Callback<void>): void;
  close(callback: Callback<void>): void;
  get(key: Buffer, options: { asBuffer: true }, callback: Callback<Buffer>): void;
  getMany(keys: Buffer[], options: { asBuffer: true }, callback: Callback<(Buffer | undefined)[]>): void;
  /**
   * The binding's batch, under abstract-leveldown's `batch()` (which only checks and serializes what this adapter
   * already checked). An `undefined` value is written as an empty one.
   */
  _batch(
    ops: { type: 'put' | 'del'; key: Buffer; value?: Buffer | undefined }[],
    options: { sync: boolean },
    callback: Callback<void>,
  ): void;
  iterator(options: Record<string, unknown>): RocksIterator;
}

let binding: ((location: string) => RocksDb) | undefined;
/** The native binding, loaded on the first open (importing this module costs nothing when RocksDB is not used). */
const rocksdb = (location: string): RocksDb => {
  binding ??= createRequire(import.meta.url)('rocksdb') as (location: string) => RocksDb;
  return binding(location);
};

export type RocksOpenOptions = EngineOpenOptions;

/** A Buffer over the same bytes (no copy): the binding takes only Buffers (anything else it turns into a string). */
const buf = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);

function call<T>(f: (callback: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => f((err, value) => (err ? reject(err) : resolve(value as T))));
}

/**
 * "IO error: While lock file: <dir>/LOCK: Resource temporarily unavailable" (another process), "lock hold by current
 * process" (this one).
 */
const LOCKED = /While lock file: .*LOCK|lock hold by current process/;

export class RocksKeyValueStore extends EngineKeyValueStore {
  readonly engine = 'rocksdb';
  private readonly db: RocksDb;

  private constructor(location: string, db: RocksDb) {
    super(location);
    this.db = db;
  }

  /** Opens (or creates) the store in `location`; STORE_LOCKED when another process or store holds the folder. */
  static async open(location: string, options: RocksOpenOptions = {}): Promise<RocksKeyValueStore> {
    const db = rocksdb(location);
    try {
      await call<void>((cb) => db.open({ createIfMissing: options.createIfMissing ?? true }, cb));
    } catch (e) {
      const message = (e as Error).message;
      throw openError(location, e, LOCKED.test(message), message);
    }
    return new RocksKeyValueStore(location, db);
  }

  protected async engineGet(key: Uint8Array): Promise<Uint8Array | undefined> {
    try {
      return await call<Buffer>((cb) => this.db.get(buf(key), { asBuffer: true }, cb));
    } catch (e) {
      if ((e as Error).message.startsWith('NotFound')) return undefined;
      throw e;
    }
  }

  protected engineGetMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return call((cb) => this.db.getMany(keys.map(buf), { asBuffer: true }, cb));
  }

  protected async engineHas(key: Uint8Array): Promise<boolean> {
    return (await this.engineGet(key)) !== undefined;
  }

  /**
   * An empty value goes to the binding as `undefined`, not as an empty Buffer: the binding copies every key and value
   * into a `new char[size]` and frees the copy only when it is not empty, so each empty value written leaked one
   * allocation (16-32 bytes; about 0.15 KB per block, as children, tips and index entries are empty). For
   * `undefined` it allocates nothing and writes the same empty value. abstract-leveldown's `batch()` refuses
   * `undefined`, so the binding's `_batch` is called, after the checks of engine.ts.
   */
  protected engineWrite(ops: readonly BatchOp[], sync: boolean): Promise<void> {
    const batch = ops.map((op) =>
      op.type === 'put'
        ? { type: op.type, key: buf(op.key), value: op.value.length === 0 ? undefined : buf(op.value) }
        : { type: op.type, key: buf(op.key) },
    );
    return call<void>((cb) => this.db._batch(batch, { sync }, cb));
  }

  protected engineEntries(range: EngineRange): EnginePages<readonly [Uint8Array, Uint8Array]> {
    return this.pages(range, true, (k, v) => [k, v] as const);
  }

  protected engineKeys(range: EngineRange): EnginePages<Uint8Array> {
    return this.pages(range, false, (k) => k);
  }

  protected engineClose(): Promise<void> {
    return call<void>((cb) => this.db.close(cb));
  }

  /**
   * An iterator of the binding (its snapshot taken now), read `n` entries at a time from the binding's read-ahead
   * cache.
   */
  private pages<R>(range: EngineRange, values: boolean, map: (key: Buffer, value: Buffer) => R): EnginePages<R> {
    const options: Record<string, unknown> = {
      keys: true,
      values,
      keyAsBuffer: true,
      valueAsBuffer: true,
      limit: range.limit,
      reverse: range.reverse === true,
    };
    for (const b of ['gt', 'gte', 'lt', 'lte'] as const) if (range[b] !== undefined) options[b] = buf(range[b]);
    const it = this.db.iterator(options);
    let ended = false;
    return {
      nextv: async (n) => {
        const out: R[] = [];
        while (out.length < n && !ended) {
          const [key, value] = await new Promise<[Buffer | undefined, Buffer | undefined]>((resolve, reject) =>
            it.next((err, k, v) => (err ? reject(err) : resolve([k, v]))),
          );
          if (key === undefined) ended = true;
          else out.push(map(key, value!));
        }
        return out;
      },
      // The binding ends its iterators itself when the store closes; ending one twice would never call back.
      close: () => (this.isClosed ? Promise.resolve() : call<void>((cb) => it.end(cb))),
    };
  }
}
