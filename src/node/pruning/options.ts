/** The pruning and snapshot settings of `ledger-node run`, from its configuration and its store. */
import { join } from 'node:path';
import type { KeyValueStore } from '../../core/store/index.ts';
import type { NodeConfig } from '../config.ts';
import type { Genesis } from '../genesis/genesis.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import { networkGenesis, SNAPSHOTS_FOLDER } from '../snapshots/snapshots.ts';
import type { PrunerDeps, PruningSettings } from './pruner.ts';
import { folderSize, parseSize } from './size.ts';

/** `--prune-milestones`, `--prune-size`, and the size of the store's folder when it has one. */
export function pruningOptionsOf(
  config: NodeConfig,
  kv: KeyValueStore,
): PruningSettings & Pick<PrunerDeps, 'databaseSize'> {
  const out: PruningSettings & Pick<PrunerDeps, 'databaseSize'> = {};
  if (config.pruneMilestones !== undefined) out.keepMilestones = config.pruneMilestones;
  if (config.pruneSize !== undefined) out.targetSizeBytes = parseSize(config.pruneSize)!;
  const location = (kv as { location?: unknown }).location;
  if (typeof location === 'string') out.databaseSize = () => folderSize(location);
  return out;
}

/** Snapshots on demand go to `<data-dir>/snapshots/`; they carry the dev entries of the network's genesis file. */
export function snapshotOptionsOf(
  config: NodeConfig,
  network: NetworkState,
  logger: Logger,
): { dir: string; genesis: () => Genesis | undefined } {
  return {
    dir: join(config.dataDir, SNAPSHOTS_FOLDER),
    genesis: () => {
      try {
        return networkGenesis(config.dataDir, network.networkName, config.genesis);
      } catch (e) {
        logger.warn(`snapshot: cannot read the network's genesis file: ${(e as Error).message}`);
        return undefined;
      }
    },
  };
}
