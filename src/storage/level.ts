/**
 * The LevelDB adapter of the storage port (classic-level). Keys and values travel as Uint8Array (`view`
 * encodings); what LevelDB hands back as Buffer is re-wrapped as a plain Uint8Array over the same memory.
 * Acknowledged writes use `sync: true` (fsync before the promise settles). Iterators and getMany read from
 * the snapshot taken when they are called. Everything above the calls into classic-level (checks, closed state,
 * ranges, paging, plain Uint8Array out) is shared with the RocksDB adapter in engine.ts.
 */
import { ClassicLevel } from 'classic-level';
import type { BatchOp } from '../core/store/kv.ts';
import {
  EngineKeyValueStore,
  openError,
  type EngineOpenOptions,
  type EnginePages,
  type EngineRange,
} from './engine.ts';

type Db = ClassicLevel<Uint8Array, Uint8Array>;

export type LevelOpenOptions = EngineOpenOptions;

export class LevelKeyValueStore extends EngineKeyValueStore {
  readonly engine = 'leveldb';
  private readonly db: Db;

  private constructor(location: string, db: Db) {
    super(location);
    this.db = db;
  }

  /** Opens (or creates) the store in `location`; STORE_LOCKED when another process or store holds the folder. */
  static async open(location: string, options: LevelOpenOptions = {}): Promise<LevelKeyValueStore> {
    const db: Db = new ClassicLevel<Uint8Array, Uint8Array>(location, { keyEncoding: 'view', valueEncoding: 'view' });
    try {
      await db.open({ createIfMissing: options.createIfMissing ?? true });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw openError(location, e, cause?.code === 'LEVEL_LOCKED', cause?.message ?? (e as Error).message);
    }
    return new LevelKeyValueStore(location, db);
  }

  protected engineGet(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.db.get(key);
  }

  protected engineGetMany(keys: Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return this.db.getMany(keys);
  }

  protected engineHas(key: Uint8Array): Promise<boolean> {
    return this.db.has(key);
  }

  protected engineWrite(ops: readonly BatchOp[], sync: boolean): Promise<void> {
    return this.db.batch(ops as BatchOp[], { sync });
  }

  protected engineEntries(range: EngineRange): EnginePages<[Uint8Array, Uint8Array]> {
    return this.db.iterator(range);
  }

  protected engineKeys(range: EngineRange): EnginePages<Uint8Array> {
    return this.db.keys(range);
  }

  protected engineClose(): Promise<void> {
    return this.db.close();
  }
}
