/**
 * Snapshots of a running node (TIP-25 `POST /control/snapshots/create`): written into `<data-dir>/snapshots/` as
 * `snapshot-<index>.json`, with the ledger held still in the attach queue while its state at the index is fixed and
 * no pruning meanwhile. `networkGenesis` finds the genesis file the network started from (its dev-only entries are
 * carried into the snapshot): the one given with `--genesis`, else `<data-dir>/genesis.json`, when it is the network's.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeStore } from '../../core/store/index.ts';
import { genesisFromJson, type Genesis } from '../genesis/genesis.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { Pruner } from '../pruning/pruner.ts';
import { writeSnapshot, type SnapshotResult } from './snapshot.ts';

export const SNAPSHOTS_FOLDER = 'snapshots';

/** The genesis of network `networkName` in `file` (default `<dataDir>/genesis.json`), or undefined. */
export function networkGenesis(dataDir: string, networkName: string, file?: string): Genesis | undefined {
  const path = file ?? join(dataDir, 'genesis.json');
  if (!existsSync(path)) return undefined;
  const g = genesisFromJson(JSON.parse(readFileSync(path, 'utf8')));
  return g.protocol.networkName === networkName ? g : undefined;
}

export interface SnapshotsDeps {
  store: NodeStore;
  network: NetworkState;
  pruner: Pruner;
  /** The attach queue: runs `fn` with no attach or confirmation under way. */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The folder snapshots are written to. */
  dir: string;
  genesis?: () => Genesis | undefined;
  logger: Logger;
}

export class Snapshots {
  constructor(private readonly deps: SnapshotsDeps) {}

  create(index: number): Promise<SnapshotResult> {
    const { store, network, pruner, exclusive, dir, logger } = this.deps;
    return pruner.exclusive(async () => {
      mkdirSync(dir, { recursive: true });
      const started = Date.now();
      const result = await writeSnapshot(
        { store, network, genesis: this.deps.genesis?.(), hold: exclusive },
        join(dir, `snapshot-${index}.json`),
        { index },
      );
      logger.info(
        `snapshot of milestone ${result.index} written to ${result.file}: ${result.outputs} outputs, ` +
          `${result.solidEntryPoints} solid entry points, ${result.bytes} bytes in ${Date.now() - started} ms`,
      );
      return result;
    });
  }
}
