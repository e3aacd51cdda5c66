/**
 * The checker on a node's data folder: opens its store with the engine the folder was created with (`<dataDir>/db`,
 * LevelDB, or `<dataDir>/db-rocksdb`, RocksDB; the node must be stopped — a running node holds the lock and the open
 * fails with STORE_LOCKED), reads the genesis the network started from
 * (`<dataDir>/genesis.json`, written at the first start, or a given file) and runs `checkStore`. Nothing is written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { META, NodeStore } from '../../core/store/index.ts';
import { engineOfDataDir, ENGINE_FOLDERS, openDataDirStore } from '../../storage/open.ts';
import { genesisFromJson } from '../genesis/genesis.ts';
import { hasLedger, ledgerGenesisOf } from '../genesis/genesis-ledger.ts';
import { checkStore, type CheckOptions, type CheckReport } from './consistency.ts';

export class CheckSetupError extends Error {}

export async function checkDataDir(
  dataDir: string,
  opts: { genesisFile?: string; progress?: (text: string) => void } = {},
): Promise<CheckReport> {
  const engine = engineOfDataDir(dataDir);
  if (engine === undefined)
    throw new CheckSetupError(
      `no node store in ${dataDir} (missing the ${ENGINE_FOLDERS.leveldb} or ${ENGINE_FOLDERS.rocksdb} folder)`,
    );
  const kv = await openDataDirStore(dataDir, { engine, createIfMissing: false });
  const dbPath = kv.location;
  try {
    const store = new NodeStore(kv);
    if ((await store.getMeta(META.schemaVersion)) === undefined)
      throw new CheckSetupError(`the store in ${dbPath} has no schema version (not a node store)`);
    // The solid entry points come from the ledger's meta (checkStore reads them there).
    const options: CheckOptions = opts.progress ? { progress: opts.progress } : {};
    const file = opts.genesisFile ?? join(dataDir, 'genesis.json');
    if (existsSync(file)) {
      let g: ReturnType<typeof genesisFromJson>;
      try {
        g = genesisFromJson(JSON.parse(readFileSync(file, 'utf8')));
      } catch (e) {
        throw new CheckSetupError(`cannot read genesis ${file}: ${(e as Error).message}`);
      }
      const name = await store.getMeta(META.networkName);
      if (name !== undefined && name !== g.protocol.networkName)
        throw new CheckSetupError(`genesis ${file} is network "${g.protocol.networkName}", the store "${name}"`);
      if (hasLedger(g)) options.genesis = ledgerGenesisOf(g);
    } else if (opts.genesisFile !== undefined) {
      throw new CheckSetupError(`genesis file ${file} does not exist`);
    }
    return await checkStore(store, options);
  } finally {
    await kv.close();
  }
}
