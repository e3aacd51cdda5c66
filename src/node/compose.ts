/**
 * The composition root of the node's parts: `composeNode` builds every part once, in dependency order, by calling
 * one small `wire...` function per feature (compose/: tangle and ledger, status and peering, pruning and snapshots,
 * events, metrics, faucet, the gRPC adapter), each given its own section of the options; nothing is changed after
 * construction and nothing is used before it is built. `startNode` (node.ts) adds the store, the servers and the
 * configuration around it; tests and benchmarks compose a node over a memory store the same way.
 *
 * Two things the parts share have a name: the sync state (peering/sync-state.ts), which the peer layer updates and
 * submissions, pruning, the faucet, health and the metrics read; and the write lock (tangle/write-lock.ts), the
 * attacher's exclusive slot, which milestone confirmation, the coordinator, pruning, snapshots and the faucet take.
 *
 *   SyncState ── Tangle (ProtocolState, Attacher, TipSelector, RecentBlocks; WriteLock)
 *     ── Ledger (MilestoneProcessor) ── Intake ── Coordinator ── V3Engine
 *     ── NodeStatus ── ClientSubmissions ── metric hooks ── EventBus ── Pruner ── Snapshots, SnapshotServer
 *     ── PeerManager (updates SyncState) ── metric gauges ── Faucet
 *     ── NodeServiceImpl (gRPC adapter: ledger, faucet, control, peers and dashboard, v3), NodeEvents
 */
import type { NodeStore } from '../core/store/index.ts';
import {
  startV3RetentionOf,
  startV3Validator,
  wireEvents,
  wireFaucet,
  wireMetricGauges,
  wireMetricHooks,
  type FaucetSection,
} from './compose/features.ts';
import { identityOf, wirePeering, wireStatus } from './compose/peering.ts';
import {
  wireHistoryRetention,
  wirePruning,
  wireSnapshots,
  type PruningSection,
  type SnapshotSection,
} from './compose/pruning.ts';
import { wireEventsService, wireService } from './compose/service.ts';
import { wireCoordinator, wireIntake, wireLedger, wireSubmissions, wireTangle } from './compose/tangle.ts';
import type { EventBus } from './events/bus.ts';
import type { Faucet } from './faucet/faucet.ts';
import type { ExtraService } from './grpc/server.ts';
import type { NodeServiceImpl } from './grpc/service.ts';
import type { Coordinator } from './ledger/coordinator.ts';
import type { CoordinatorSettings } from './genesis/genesis-ledger.ts';
import type { MilestoneProcessor } from './ledger/milestones.ts';
import type { ProtocolState } from './ledger/protocol-state.ts';
import { childLogger, consoleLogger, type Logger } from './logger.ts';
import type { NetworkState } from './genesis/network.ts';
import type { PeerManager, PeeringOptions } from './peering/manager.ts';
import { SyncState } from './peering/sync-state.ts';
import type { PowQueue } from './pow/queue.ts';
import { NodeMetrics } from './metrics/node-metrics.ts';
import type { Pruner } from './pruning/pruner.ts';
import type { HealthSettings } from './status/health.ts';
import type { StorageWatch } from './status/storage.ts';
import type { NodeStatus } from './status/status.ts';
import type { Attacher } from './tangle/attach.ts';
import type { Intake } from './tangle/intake.ts';
import type { ClientSubmissions } from './tangle/submissions.ts';
import type { PoolRules, TipSelector } from './tangle/urts.ts';
import type { WriteLock } from './tangle/write-lock.ts';
import { V3Engine } from './v3/engine.ts';
import type { RetentionHandle } from './v3/retention.ts';
import type { ValidatorHandle } from './v3/validator.ts';

/** How often the node checks its health to log a change (status.ts `watch`). */
const HEALTH_CHECK_MS = 1_000;

export interface ComposeOptions {
  store: NodeStore;
  network: NetworkState;
  /** The node's version (package.json). */
  version: string;
  logger?: Logger;
  /** Undefined = remote PoW off. */
  pow?: PowQueue;
  now?: () => number;
  /** Tip selection randomness (tests may fix it). */
  random?: () => number;
  /** Static peers ("host:port") and peer-layer settings (tests: faster heartbeats, ticks, backoff). */
  peering?: Partial<PeeringOptions>;
  /** The built-in coordinator's keys and interval; undefined = no coordinator. */
  coordinator?: CoordinatorSettings;
  /** Milliseconds between the v3 validator's rounds (0 = off). */
  validationInterval?: number;
  /** The v3 retention: epochs kept before the latest commitment's (v3/retention.ts; 0 = off; default 30). */
  pruneV3Epochs?: number;
  /** Tip pool retention rules (default: Hornet's, urts.ts URTS_DEFAULTS). */
  tipPools?: { nonLazy: PoolRules; semiLazy: PoolRules };
  /** The node's metrics (one is made when absent): the PoW queue and the gRPC server report to it too. */
  metrics?: NodeMetrics;
  /** The dev wallet's seed the faucet pays from, and its amounts; undefined = no faucet. */
  faucet?: FaucetSection;
  /** Automatic pruning (pruning/pruner.ts; absent: only on demand) and the store's size on disk. */
  pruning?: PruningSection;
  /** Milestones of explorer history kept (`--history-milestones`; absent: all). */
  historyMilestones?: number;
  /** Where snapshots on demand go, and the genesis whose dev entries they carry (absent: no snapshots on demand). */
  snapshots?: SnapshotSection;
  /** The thresholds of the health rule, which also says when the node is cut off (status/health.ts). */
  health?: Partial<HealthSettings>;
  /** The data folder's size and free disk, for /info and the dashboard (status/storage.ts; absent: in memory). */
  storage?: StorageWatch;
}

export interface ComposedNode {
  readonly store: NodeStore;
  readonly network: NetworkState;
  readonly protocol: ProtocolState;
  readonly attacher: Attacher;
  readonly tips: TipSelector;
  readonly milestones: MilestoneProcessor;
  readonly intake: Intake;
  readonly submissions: ClientSubmissions;
  readonly status: NodeStatus;
  readonly coordinator: Coordinator | undefined;
  readonly peering: PeerManager;
  /** Whether the node is synced: the peer layer updates it, submissions, pruning, the faucet and health read it. */
  readonly sync: SyncState;
  /**
   * The attacher's exclusive slot: milestone confirmation, the coordinator, pruning, snapshots and the faucet take it.
   */
  readonly writeLock: WriteLock;
  /** The PeerService for the node's gRPC server. */
  readonly peerService: ExtraService;
  /** The node's events (TIP-28) and their gRPC service, NodeEvents; the bus closes on stop. */
  readonly events: EventBus;
  readonly eventsService: ExtraService;
  readonly v3: V3Engine | undefined;
  /** The dev network's faucet (undefined when off). */
  readonly faucet: Faucet | undefined;
  /** The gRPC adapter. */
  readonly service: NodeServiceImpl;
  /** Its metrics: /metrics (prom-client registry), GET /info's rates, the dashboard's data. */
  readonly metrics: NodeMetrics;
  /** Pruning (automatic and on demand) and snapshots on demand. */
  readonly pruner: Pruner;
  /** Resumes milestone processing, then starts the coordinator, the v3 validator and the peer layer. */
  start(): Promise<void>;
  /** Aborts PoW in flight, waits for writes under way and stops what start() started; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * What tests and benchmarks may reach of a running node (`RunningNode.testing`), instead of the parts themselves: the
 * store, the network, the gRPC adapter, the status, the protocol state, waiting on milestones, the write lock, storing
 * a block directly and what the attacher holds, pruning on demand, the coordinator and the faucet, and what the peer
 * layer reports.
 */
export interface TestSurface {
  readonly store: NodeStore;
  readonly network: NetworkState;
  readonly service: NodeServiceImpl;
  readonly status: NodeStatus;
  readonly protocol: ProtocolState;
  readonly milestones: Pick<MilestoneProcessor, 'settled' | 'onConfirmed' | 'held' | 'rejection' | 'latest'>;
  /** The node's write lock (tangle/write-lock.ts): runs a function while no block is being stored. */
  readonly writeLock: WriteLock;
  readonly attacher: Pick<Attacher, 'attach' | 'idle' | 'held'>;
  /** Pruning on demand, the highest index it may prune to, waiting for a run, and its lock (no run under way). */
  readonly pruner: Pick<Pruner, 'prune' | 'maxIndex' | 'idle' | 'exclusive'>;
  readonly coordinator: Coordinator | undefined;
  readonly faucet: Faucet | undefined;
  readonly peering: Pick<
    PeerManager,
    'connectedPeers' | 'peerInfos' | 'stats' | 'synced' | 'almostSynced' | 'nodeId' | 'identity' | 'accept'
  >;
}

export function testSurfaceOf(parts: ComposedNode): TestSurface {
  const { store, network, service, status, protocol, milestones, writeLock, attacher, pruner } = parts;
  const { coordinator, faucet, peering } = parts;
  return {
    store,
    network,
    service,
    status,
    protocol,
    milestones,
    writeLock,
    attacher,
    pruner,
    coordinator,
    faucet,
    peering,
  };
}

export async function composeNode(options: ComposeOptions): Promise<ComposedNode> {
  const { store, network, pow } = options;
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;

  // Built in dependency order. The sync state comes first: the peer layer, built late (it needs the status and the
  // snapshot server), updates it; the parts built before it read it.
  const sync = new SyncState();
  const tangle = await wireTangle(store, network, { tipPools: options.tipPools }, now);
  const ledger = await wireLedger(store, tangle, logger);
  const metrics = options.metrics ?? new NodeMetrics({ now });
  const early = wireIntake({ network, tangle, ledger, metrics, pow }, random);
  const coordinator = wireCoordinator({ store, tangle, ledger, intake: early, pow, now }, options.coordinator, logger);
  const v3 = await V3Engine.open(store, { now });
  const identity = identityOf(options.peering);
  const status = wireStatus({
    store,
    network,
    tangle,
    ledger,
    identity,
    version: options.version,
    powEnabled: pow !== undefined,
    coordinator: { settings: options.coordinator, running: coordinator },
    sync,
    metrics,
    health: options.health,
    storage: options.storage,
    now,
  });
  const intake = { intake: early, submissions: wireSubmissions(early, sync, status) };
  wireMetricHooks(metrics, tangle, ledger);
  const events = wireEvents(store, tangle, ledger, logger);
  const pruner = wirePruning({ store, tangle, ledger, v3, sync, now }, options.pruning, logger);
  const history = wireHistoryRetention({ store, ledger, pruner }, options.historyMilestones, logger);
  const snapshots = wireSnapshots({ store, network, tangle, pruner, now }, options.snapshots, logger);
  const { peering, peerService } = wirePeering(
    { store, network, tangle, ledger, intake, status, metrics, v3, snapshotServer: snapshots.server, sync, identity },
    options.peering,
    logger,
  );
  wireMetricGauges(metrics, { status, peering, sync, tangle, events, pow });
  const faucet = wireFaucet({ store, network, tangle, ledger, intake, sync, status }, options.faucet, logger);
  const service = wireService({
    store,
    network,
    version: options.version,
    tangle,
    intake,
    status,
    sync,
    peering,
    metrics,
    pruner,
    snapshots: snapshots.snapshots,
    faucet,
    v3,
    pow,
    random,
    now,
  });

  const { attacher, protocol, tips, writeLock } = tangle;
  const { milestones } = ledger;
  let validator: ValidatorHandle | undefined;
  let retention: RetentionHandle | undefined;
  let stopHealthWatch: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  return {
    store,
    network,
    protocol,
    attacher,
    tips,
    milestones,
    intake: intake.intake,
    submissions: intake.submissions,
    status,
    coordinator,
    peering,
    sync,
    writeLock,
    peerService,
    v3,
    faucet,
    service,
    metrics,
    pruner,
    events,
    eventsService: wireEventsService(events, logger),
    // Start: the ledger first, then what writes to it (pruning, faucet, coordinator, validator), the peers, the health
    // watch; the event bus and the attacher run from construction. Stop: the same in reverse.
    async start() {
      await milestones.start();
      pruner.start();
      history.start();
      const ledgerIndex = await ledger.ledger.ledgerIndex();
      if (ledgerIndex === undefined)
        logger.info('no ledger (the genesis has no milestone keys): blocks are stored, milestones are not confirmed');
      else logger.info(`ledger at milestone ${ledgerIndex}`);
      if (faucet) {
        await faucet.start();
        logger.info(
          `faucet on: ${faucet.address} pays ${faucet.settings.amount} per request (POST /api/faucet/v1/enqueue)`,
        );
      }
      if (coordinator && ledgerIndex !== undefined) {
        coordinator.start();
        logger.info(
          `coordinator on: a milestone every ${options.coordinator!.milestoneInterval} ` +
            `s with ${options.coordinator!.seeds.length} dev keys`,
        );
      }
      if (v3) validator = startV3Validator(v3, options.validationInterval, logger);
      if (v3) retention = startV3RetentionOf(v3, options.pruneV3Epochs, logger);
      await peering.start();
      stopHealthWatch = status.watch(logger, HEALTH_CHECK_MS);
      const peers = options.peering?.peers ?? [];
      childLogger(logger, 'peering').info(
        `${peers.length} static peer(s)${peers.length > 0 ? ` (${peers.join(', ')})` : ''}, ` +
          `node ID ${Buffer.from(peering.nodeId).toString('hex')}, ` +
          `identity 0x${Buffer.from(identity.publicKey).toString('hex')}`,
      );
    },
    stop() {
      stopping ??= (async () => {
        stopHealthWatch?.();
        // Client submissions first: their PoW in flight is aborted, so calls waiting on it end.
        intake.submissions.shutdown();
        await peering.stop();
        await validator?.stop();
        await retention?.stop();
        v3?.catchUp.stop();
        await v3?.idle();
        await coordinator?.stop();
        await faucet?.stop();
        snapshots.server?.stop();
        // Both told first: a history run may wait in the pruner's queue.
        const historyStopped = history.stop();
        await pruner.stop();
        await historyStopped;
        milestones.stop();
        await attacher.idle();
        events.close();
      })();
      return stopping;
    },
  };
}
