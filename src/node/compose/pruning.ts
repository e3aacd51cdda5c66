/**
 * Pruning (automatic after confirmations and on demand), the explorer history's retention, and snapshots (on demand,
 * and for bootstrapping peers).
 */
import { join } from 'node:path';
import type { NodeStore } from '../../core/store/index.ts';
import type { Genesis } from '../genesis/genesis.ts';
import { HistoryRetention } from '../history/retention.ts';
import { childLogger, type Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import { SnapshotServer } from '../peering/snapshot-server.ts';
import type { SyncState } from '../peering/sync-state.ts';
import { Pruner, type PrunerDeps, type PruningSettings } from '../pruning/pruner.ts';
import { Snapshots } from '../snapshots/snapshots.ts';
import type { V3Engine } from '../v3/engine.ts';
import type { LedgerParts, TangleParts } from './tangle.ts';

export type PruningSection = PruningSettings & Pick<PrunerDeps, 'databaseSize' | 'afterBatch'>;

/**
 * The pruner, told of each confirmation; it prunes only while the node is synced. After pruning the attacher forgets
 * waits on what was pruned, and the stored-block filter drops the pruned IDs from time to time
 * (tangle/known-blocks.ts); the v3 data goes by time (v3/pruning.ts).
 */
export function wirePruning(
  deps: {
    store: NodeStore;
    tangle: TangleParts;
    ledger: LedgerParts;
    v3: V3Engine | undefined;
    sync: SyncState;
    now: () => number;
  },
  settings: PruningSection | undefined,
  logger: Logger,
): Pruner {
  const { store, tangle, ledger, v3, sync, now } = deps;
  const { attacher, known, recent, writeLock } = tangle;
  const log = childLogger(logger, 'pruning');
  const { databaseSize, afterBatch, ...pruneSettings } = settings ?? {};
  const afterPrune = async (): Promise<void> => {
    const waits = attacher.held.awaited > 0 ? await writeLock(() => attacher.dropPrunedWaits()) : 0;
    if (waits > 0) log.info(`${waits} missing parent(s) of pruned unsolid blocks no longer awaited`);
    const before = known.size;
    if (await known.afterPrune(store, writeLock)) {
      log.info(
        `stored-block filter rebuilt from the kept blocks: ${before.entries} -> ${known.size.entries} ` +
          `entries, ${(before.bytes / 2 ** 20).toFixed(1)} -> ${(known.size.bytes / 2 ** 20).toFixed(1)} MiB`,
      );
    }
  };
  // The v3 data goes by time: what is older than the timestamp of the milestone at the pruning index.
  const pruneV3 = async (
    engine: V3Engine,
    milestone: { index: number; timestamp: number },
    pace: () => Promise<void>,
  ): Promise<void> => {
    const p = await engine.prune(
      { milestoneIndex: milestone.index, timestamp: milestone.timestamp },
      { afterBatch: pace },
    );
    if (p.blocks > 0)
      log.info(
        `v3 blocks of the slots before ${p.slot} pruned (${p.blocks} blocks, ` +
          `${p.transactions} transactions, ${p.outputs} spent outputs, ${p.batches} batches)`,
      );
  };
  const pruner = new Pruner(
    {
      store,
      protocol: tangle.protocol,
      exclusive: writeLock,
      forget: (ids) => {
        recent.referenced(ids);
        attacher.forgetPruned(ids);
      },
      pruned: afterPrune,
      synced: () => sync.almostSynced,
      logger,
      now,
      ...(databaseSize ? { databaseSize } : {}),
      ...(afterBatch ? { afterBatch } : {}),
      ...(v3
        ? { pruneByTime: (m: { index: number; timestamp: number }, pace: () => Promise<void>) => pruneV3(v3, m, pace) }
        : {}),
    },
    pruneSettings,
  );
  ledger.milestones.onConfirmed(() => pruner.confirmed());
  return pruner;
}

/** The history's retention (`--history-milestones`), told of each confirmation; it takes turns with pruning. */
export function wireHistoryRetention(
  deps: { store: NodeStore; ledger: LedgerParts; pruner: Pruner },
  keepMilestones: number | undefined,
  logger: Logger,
): HistoryRetention {
  const { store, ledger, pruner } = deps;
  const retention = new HistoryRetention(store, logger, keepMilestones, (fn) => pruner.exclusive(fn));
  ledger.milestones.onConfirmed(() => retention.confirmed());
  return retention;
}

export interface SnapshotSection {
  /** Where snapshots on demand go (peers' in its `peers/` folder). */
  dir: string;
  /** The genesis whose dev entries they carry. */
  genesis?: () => Genesis | undefined;
}

export interface SnapshotParts {
  /** Snapshots on demand (ControlService). */
  readonly snapshots: Snapshots | undefined;
  /** Snapshots for bootstrapping peers (PeerService). */
  readonly server: SnapshotServer | undefined;
}

/** Snapshots on demand and for peers, none without their settings; each holds off pruning and writes while it reads. */
export function wireSnapshots(
  deps: { store: NodeStore; network: NetworkState; tangle: TangleParts; pruner: Pruner; now: () => number },
  settings: SnapshotSection | undefined,
  logger: Logger,
): SnapshotParts {
  if (!settings) return { snapshots: undefined, server: undefined };
  const { store, network, tangle, pruner, now } = deps;
  const server = new SnapshotServer({
    store,
    network,
    pruneHold: (fn) => pruner.exclusive(fn),
    attachHold: tangle.writeLock,
    dir: join(settings.dir, 'peers'),
    logger,
    now,
  });
  const snapshots = new Snapshots({
    store,
    network,
    pruner,
    exclusive: tangle.writeLock,
    dir: settings.dir,
    logger,
    ...(settings.genesis ? { genesis: settings.genesis } : {}),
  });
  return { snapshots, server };
}
