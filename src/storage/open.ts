/**
 * Choosing and opening a storage engine. A node's data folder remembers its engine by the name of its store folder:
 * `<dataDir>/db` is LevelDB, `<dataDir>/db-rocksdb` is RocksDB. Each engine opens the other's folder without complaint
 * and writes its own files into it (with these versions: RocksDB rewrites a LevelDB folder's manifest and adds its
 * IDENTITY and OPTIONS files, LevelDB adds its own tables and manifest to a RocksDB folder), and nothing promises the
 * formats stay compatible; so a store is never opened with the other engine: the folder name decides in a data
 * folder, and below it the files only RocksDB writes (IDENTITY, OPTIONS-*) decide for any store folder.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '../core/store/errors.ts';
import { DB_ENGINES, type DbEngine, type EngineKeyValueStore, type EngineOpenOptions } from './engine.ts';
import { LevelKeyValueStore } from './level.ts';
import { RocksKeyValueStore } from './rocksdb.ts';

export { DB_ENGINES, isDbEngine, type DbEngine } from './engine.ts';

/** The store folder of each engine inside a node's data folder. */
export const ENGINE_FOLDERS: Readonly<Record<DbEngine, string>> = { leveldb: 'db', rocksdb: 'db-rocksdb' };

const NAMES: Readonly<Record<DbEngine, string>> = { leveldb: 'LevelDB', rocksdb: 'RocksDB' };

/** The engine whose files are in `location`, or undefined when the folder is missing or holds no store. */
export function engineOfStoreFolder(location: string): DbEngine | undefined {
  let names: string[];
  try {
    names = readdirSync(location);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StoreError('STORE_OPEN_FAILED', `Cannot open store at ${location}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  if (names.includes('IDENTITY') || names.some((n) => n.startsWith('OPTIONS-'))) return 'rocksdb';
  if (names.includes('CURRENT')) return 'leveldb';
  return undefined;
}

/**
 * Opens (or creates) a store of `engine` in `location`; refuses (STORE_OPEN_FAILED) a folder holding the other engine's
 * store.
 */
export async function openKeyValueStore(
  engine: DbEngine,
  location: string,
  options: EngineOpenOptions = {},
): Promise<EngineKeyValueStore> {
  const found = engineOfStoreFolder(location);
  if (found !== undefined && found !== engine) {
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `Cannot open store at ${location} with ${NAMES[engine]}: it holds a ` +
        `${NAMES[found]} store, which ${NAMES[engine]} would rewrite (use --db-engine ${found})`,
    );
  }
  return engine === 'rocksdb' ? RocksKeyValueStore.open(location, options) : LevelKeyValueStore.open(location, options);
}

/** The engine of the store in a node's data folder (by its store folder), or undefined when it has none yet. */
export function engineOfDataDir(dataDir: string): DbEngine | undefined {
  const present = DB_ENGINES.filter((e) => existsSync(join(dataDir, ENGINE_FOLDERS[e])));
  if (present.length > 1) {
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `Cannot open the store of ${dataDir}: it has both ` +
        `${present.map((e) => `${ENGINE_FOLDERS[e]} (${NAMES[e]})`).join(' and ')}; ` +
        `remove the one the node does not use`,
    );
  }
  return present[0];
}

export interface DataDirStoreOptions extends EngineOpenOptions {
  /**
   * The engine of a new store; an existing store of another engine is refused. When absent, the folder's own engine.
   */
  engine?: DbEngine;
  /** `engine` is only a default (not asked for): a folder that already holds a store keeps its own engine. */
  engineIsDefault?: boolean;
}

/**
 * Opens the store of a node's data folder: `<dataDir>/db` (LevelDB) or `<dataDir>/db-rocksdb` (RocksDB). A folder
 * that already holds a store of another engine than the one asked for is refused with STORE_OPEN_FAILED, never
 * opened with the wrong engine.
 */
export async function openDataDirStore(
  dataDir: string,
  options: DataDirStoreOptions = {},
): Promise<EngineKeyValueStore> {
  const { engine: asked, engineIsDefault, ...open } = options;
  const existing = engineOfDataDir(dataDir);
  const engine = (engineIsDefault ? existing : undefined) ?? asked ?? existing;
  if (engine === undefined)
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `Cannot open the store of ${dataDir}: it has no ${DB_ENGINES.map((e) => ENGINE_FOLDERS[e]).join(' or ')} folder`,
    );
  if (existing !== undefined && existing !== engine) {
    throw new StoreError(
      'STORE_OPEN_FAILED',
      `Cannot open the store of ${dataDir} with --db-engine ${engine}: the folder holds a ` +
        `${NAMES[existing]} store (${ENGINE_FOLDERS[existing]}), and a data folder keeps the ` +
        `engine it was created with; run with --db-engine ${existing}, or use another --data-dir`,
    );
  }
  return openKeyValueStore(engine, join(dataDir, ENGINE_FOLDERS[engine]), open);
}
