/** Storage engines behind the port in src/core/store: LevelDB and RocksDB, and the choice between them. */
export { DB_ENGINES, EngineKeyValueStore, isDbEngine, type DbEngine, type EngineOpenOptions } from './engine.ts';
export { LevelKeyValueStore, type LevelOpenOptions } from './level.ts';
export { RocksKeyValueStore, type RocksOpenOptions } from './rocksdb.ts';
export {
  ENGINE_FOLDERS,
  engineOfDataDir,
  engineOfStoreFolder,
  openDataDirStore,
  openKeyValueStore,
  type DataDirStoreOptions,
} from './open.ts';
