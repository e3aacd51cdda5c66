/** Storage engines behind the port in src/core/store. */
export { LevelKeyValueStore, type LevelOpenOptions } from './level.ts';
