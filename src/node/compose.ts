/**
 * The composition root of the node's parts: builds every part once, with the narrow ports it needs, in dependency
 * order; nothing is changed after construction. `startNode` (node.ts) adds the store, the servers and the
 * configuration around it; tests and benchmarks compose a node over a memory store the same way.
 *
 *   ProtocolState ─┬─ Attacher ── MilestoneProcessor ── Coordinator
 *                  ├─ ConeRoots ── TipSelector ── TangleReader
 *                  └─ Intake ─┬─ ClientSubmissions ─┐
 *                             └─ PeerManager ───────┴─ NodeStatus ── NodeServiceImpl (gRPC adapter)
 *   LedgerReader ── LedgerService (the ledger RPCs of the gRPC adapter)
 *   V3Engine ── V3Service (gRPC adapter; accepted blocks are gossiped by the PeerManager)
 *   Attacher, MilestoneProcessor ── EventBus (events/) ── NodeEvents (gRPC adapter, TIP-28 events)
 *   FaucetLedger, ClientSubmissions, MilestoneProcessor ── Faucet (faucet/, dev networks) ── FaucetService (gRPC adapter)
 *   Intake, Attacher, MilestoneProcessor ── NodeMetrics (prometheus/: /metrics, /info rates, dashboard) ── PeersService
 *   Attacher, MilestoneProcessor, RecentBlocks ── Pruner (pruning/) ── Snapshots (snapshot/) ── ControlService
 */
import { join } from 'node:path';
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { LedgerState } from '../core/ledger/index.ts';
import { TABLES, type NodeStore } from '../core/store/index.ts';
import { PeerServiceService, type PeerMessage } from '../grpc/gen/peer.ts';
import { EventBus } from './events/bus.ts';
import { feedEvents } from './events/feed.ts';
import { Faucet, type FaucetSettings } from './faucet/faucet.ts';
import { FaucetLedger } from './faucet/funds.ts';
import { nodeEventsService } from './grpc/events.ts';
import type { ExtraService } from './grpc/server.ts';
import { NodeServiceImpl } from './grpc/service.ts';
import { LedgerService } from './grpc/service-ledger.ts';
import { FaucetService } from './grpc/service-faucet.ts';
import { V3Service } from './grpc/service-v3.ts';
import { Coordinator } from './ledger/coordinator.ts';
import type { CoordinatorSettings } from './ledger/genesis-ledger.ts';
import { MilestoneProcessor } from './ledger/milestones.ts';
import { ProtocolState } from './ledger/protocol-state.ts';
import { IndexerReader } from './ledger/indexer-reads.ts';
import { LedgerReader } from './ledger/reads.ts';
import { consoleLogger, type Logger } from './logger.ts';
import type { NetworkState } from './network.ts';
import { ephemeralIdentity, nodeIdOf } from './peering/handshake.ts';
import { acceptPeer } from './peering/link.ts';
import { PeerManager, type PeeringOptions } from './peering/manager.ts';
import type { PowQueue } from './pow/queue.ts';
import { dashboardData } from './dashboard.ts';
import { PeersService } from './grpc/service-peers.ts';
import { NodeMetrics } from './prometheus/node-metrics.ts';
import { NODE_NAME, NodeStatus } from './status.ts';
import { Attacher } from './tangle/attach.ts';
import { ConeRoots } from './tangle/cone-roots.ts';
import { KnownBlocks } from './tangle/known-blocks.ts';
import { RecentBlocks } from './tangle/recent-blocks.ts';
import { Intake } from './tangle/intake.ts';
import { TangleReader } from './tangle/reads.ts';
import { ClientSubmissions } from './tangle/submissions.ts';
import { TipSelector, type PoolRules } from './tangle/urts.ts';
import { V3Engine } from './v3/engine.ts';
import type { Genesis } from './genesis.ts';
import { ControlService } from './grpc/service-control.ts';
import { Pruner, type PrunerDeps, type PruningSettings } from './pruning/pruner.ts';
import { Snapshots } from './snapshot/snapshots.ts';
import { downloadSnapshotHandler, SnapshotServer } from './peering/snapshot-server.ts';
import { startValidator, type ValidatorHandle } from './v3/validator.ts';
import { DEFAULT_VALIDATION_INTERVAL_MS } from './settings.ts';

/** How often the node checks its health to log a change (status.ts `watch`). */
const HEALTH_CHECK_MS = 5_000;

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
  /** Tip pool retention rules (default: Hornet's, urts.ts URTS_DEFAULTS). */
  tipPools?: { nonLazy: PoolRules; semiLazy: PoolRules };
  /** The node's metrics (one is made when absent): the PoW queue and the gRPC server report to it too. */
  metrics?: NodeMetrics;
  /** The dev wallet's seed the faucet pays from, and its amounts; undefined = no faucet. */
  faucet?: { seed: Uint8Array; settings?: Partial<FaucetSettings> };
  /** Automatic pruning (pruning/pruner.ts; absent: only on demand) and the store's size on disk. */
  pruning?: PruningSettings & Pick<PrunerDeps, 'databaseSize' | 'afterBatch'>;
  /** Where snapshots on demand go, and the genesis whose dev entries they carry (absent: no snapshots on demand). */
  snapshots?: { dir: string; genesis?: () => Genesis | undefined };
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

export async function composeNode(options: ComposeOptions): Promise<ComposedNode> {
  const { store, network } = options;
  const logger = options.logger ?? consoleLogger;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;

  const protocol = await ProtocolState.load(store);
  const ledger = new LedgerState(store);
  const coneRoots = new ConeRoots(store, network, protocol);
  const known = new KnownBlocks();
  const attacher = new Attacher(store, protocol, coneRoots, known, now);
  const tips = new TipSelector(store, protocol, coneRoots, now, options.tipPools);
  attacher.onSolid((id, parents, cri) => tips.added(id, parents, cri));
  const recent = new RecentBlocks(store, protocol);
  attacher.onStored((id, block) => recent.stored(id, block));
  const afterConfirm = async (referenced: Uint8Array[], index: number): Promise<void> => {
    recent.referenced(referenced);
    // The confirmed index moved: cone root indexes above the confirmed cone are current again, then the pools rescored.
    const batch = store.batch();
    const changed = await coneRoots.afterConfirmation(referenced, index, batch);
    if (batch.length > 0) await batch.commit({ sync: false });
    tips.rescore(changed);
  };
  const milestones = new MilestoneProcessor(store, (fn) => attacher.exclusive(fn), protocol, logger, afterConfirm, recent);
  attacher.onStored((id, block, result) => milestones.stored(id, block, result));
  // One pass over the stored blocks' metadata: what the attacher and the milestone processor need to know at start.
  for await (const [id, md] of store.entries(TABLES.blockMetadata)) {
    attacher.noteStored(id, md);
    milestones.noteStored(id, md);
  }
  await attacher.load();
  await tips.load();
  const metrics = options.metrics ?? new NodeMetrics({ now });
  const intake = new Intake({
    network,
    protocol,
    pow: options.pow,
    attacher,
    selectTips: () => tips.select(random),
    milestoneKeys: () => ledger.milestoneKeys(),
    observe: (origin, outcome) => metrics.blockReceived(origin, outcome),
  });
  const coordinator = options.coordinator
    ? new Coordinator({
        store,
        protocol,
        tips,
        blocks: recent,
        milestones,
        exclusive: (fn) => attacher.exclusive(fn),
        accept: async (block) => (await intake.accept({ block }, { kind: 'coordinator' })).blockId,
        ...(options.pow ? { mine: (bytes: Uint8Array, score: number) => options.pow!.mine(bytes, score, new AbortController().signal) } : {}),
        settings: options.coordinator,
        logger,
        now,
      })
    : undefined;
  const v3 = await V3Engine.open(store);
  // The node's identity key (the data folder's, identity.ts; a process-long one when none is given): peers, /info.
  const identity = options.peering?.identity ?? ephemeralIdentity();
  const status: NodeStatus = new NodeStatus({
    identity: { publicKey: identity.publicKey, nodeId: nodeIdOf(identity.publicKey) },
    store,
    network,
    protocol,
    milestones,
    version: options.version,
    powEnabled: options.pow !== undefined,
    ...(options.coordinator ? { milestoneIntervalSeconds: options.coordinator.milestoneInterval } : {}),
    coordinatorSince: () => coordinator?.startedAt,
    // The peer manager is built below from the status; it is asked only once the node runs.
    synced: (): boolean => peering.almostSynced,
    rates: () => metrics.rates,
    now,
  });
  attacher.onStored((id, _block, result) => {
    if (!result.solid) metrics.unsolidStored(id);
  });
  attacher.onSolid((id) => metrics.solidified(id));
  milestones.onConfirmed((e) => {
    const verdicts = e.confirmation.verdicts;
    const conflicts = verdicts.filter((v) => v.ledgerInclusionState === 'conflicting').map((v) => v.conflictReason);
    metrics.milestoneConfirmed({ index: e.index, timestamp: e.confirmation.milestoneTimestamp, milestoneId: e.milestoneId, blockId: e.blockId, referencedBlocks: e.coneSize, includedTransactions: e.included, conflicts, ms: e.ms });
  });
  const events = new EventBus();
  feedEvents(events, { store, protocol, logger, onStored: (l) => attacher.onStored(l), onSolid: (l) => attacher.onSolid(l), onConfirmed: (l) => milestones.onConfirmed(l), onLatest: (l) => milestones.onLatest(l) });
  const peering: PeerManager = new PeerManager(
    {
      network,
      protocol,
      store,
      accept: (bytes, requested) => intake.accept({ bytes }, { kind: 'peer', requested }),
      onStored: (l) => attacher.onStored(l),
      onConfirmed: (l) => milestones.onConfirmed((e) => l(e.index)),
      status: () => status.milestoneStatus(),
      milestoneBlockId: async (index) => (await store.milestone(index))?.blockId,
      blockSeen: () => metrics.blockReceived('peer', 'duplicate'),
      v3,
      // Snapshots for bootstrapping peers, from the folder of snapshots on demand (declared below, used once running).
      ...(options.snapshots ? { snapshots: { offer: (peer, request) => snapshotServer!.offer(peer, request) } } : {}),
    },
    { peers: [], logger, ...options.peering, identity },
  );
  const submissions = new ClientSubmissions(intake, () => peering.almostSynced);
  const { databaseSize, afterBatch, ...pruneSettings } = options.pruning ?? {};
  // After pruning: the attacher forgets waits on what was pruned; the stored-block filter drops the pruned IDs from
  // time to time (tangle/known-blocks.ts).
  const afterPrune = async (): Promise<void> => {
    const waits = attacher.held.awaited > 0 ? await attacher.exclusive(() => attacher.dropPrunedWaits()) : 0;
    if (waits > 0) logger.info(`pruning: ${waits} missing parent(s) of pruned unsolid blocks no longer awaited`);
    const before = known.size;
    if (await known.afterPrune(store, (fn) => attacher.exclusive(fn))) {
      logger.info(`pruning: stored-block filter rebuilt from the kept blocks: ${before.entries} -> ${known.size.entries} entries, ${(before.bytes / 2 ** 20).toFixed(1)} -> ${(known.size.bytes / 2 ** 20).toFixed(1)} MiB`);
    }
  };
  // The v3 data goes by time: what is older than the timestamp of the milestone at the pruning index (v3/pruning.ts).
  const pruneV3 = async (milestone: { index: number; timestamp: number }, pace: () => Promise<void>): Promise<void> => {
    const p = await v3!.prune({ milestoneIndex: milestone.index, timestamp: milestone.timestamp }, { afterBatch: pace });
    if (p.blocks > 0) logger.info(`pruning: v3 blocks of the slots before ${p.slot} pruned (${p.blocks} blocks, ${p.transactions} transactions, ${p.outputs} spent outputs, ${p.batches} batches)`);
  };
  const pruner = new Pruner(
    { store, protocol, exclusive: (fn) => attacher.exclusive(fn), forget: (ids) => (recent.referenced(ids), attacher.forgetPruned(ids)), pruned: afterPrune, synced: () => peering.almostSynced, logger, now, ...(databaseSize ? { databaseSize } : {}), ...(afterBatch ? { afterBatch } : {}), ...(v3 ? { pruneByTime: pruneV3 } : {}) },
    pruneSettings,
  );
  milestones.onConfirmed(() => pruner.confirmed());
  const snapshotServer = options.snapshots && new SnapshotServer({ store, network, pruneHold: (fn) => pruner.exclusive(fn), attachHold: (fn) => attacher.exclusive(fn), dir: join(options.snapshots.dir, 'peers'), logger, now });
  const snapshots = options.snapshots && new Snapshots({ store, network, pruner, exclusive: (fn) => attacher.exclusive(fn), dir: options.snapshots.dir, logger, ...(options.snapshots.genesis ? { genesis: options.snapshots.genesis } : {}) });
  metrics.observe({
    milestones: () => status.milestoneStatus(),
    health: () => status.health(),
    latestKnown: () => peering.latestKnown(),
    synced: () => peering.almostSynced,
    tips: () => tips.size,
    peers: () => ({ connected: peering.connectedPeers(), known: peering.peerInfos().filter((p) => p.relation === 'known').length }),
    traffic: () => peering.traffic,
    pow: () => options.pow,
    eventSubscribers: () => events.subscribers,
  });
  const faucet = options.faucet && protocol.hasLedger
    ? new Faucet(
        {
          seed: options.faucet.seed,
          protocol: () => protocol.current,
          tokenName: network.baseToken.name,
          ledger: new FaucetLedger(store, (fn) => attacher.exclusive(fn), () => protocol.current.bech32Hrp),
          submit: (block, signal) => submissions.submit({ block }, signal),
          metadata: (id) => new TangleReader(store, tips).metadata(id),
          synced: () => peering.almostSynced,
          onConfirmed: (l) => milestones.onConfirmed((e) => l(e.confirmation)),
          logger,
        },
        options.faucet.settings,
      )
    : undefined;
  const { name, tickerSymbol, unit, subunit, decimals } = network.baseToken;
  const v3Identity = { name: NODE_NAME, version: options.version, baseToken: { name, tickerSymbol, unit, ...(subunit !== undefined ? { subunit } : {}), decimals } };
  const service = new NodeServiceImpl({
    reader: new TangleReader(store, tips),
    submissions,
    status,
    tips,
    ledger: new LedgerService(new LedgerReader(store), new IndexerReader(store, () => protocol.current.bech32Hrp)),
    random,
    faucet: new FaucetService(faucet),
    control: new ControlService(pruner, snapshots),
    peers: new PeersService(peering, () =>
      dashboardData({
        synced: () => peering.almostSynced,
        tips: () => tips.size,
        peers: () => peering.peerInfos(),
        pow: () => options.pow,
        powStats: () => metrics.powStats(),
        series: () => metrics.series.samples(),
        milestones: () => metrics.recent.all(),
        now,
      }),
    ),
    ...(v3 ? { v3: new V3Service(v3, v3Identity, (id) => peering.announceV3(id)) } : {}),
  });

  let validator: ValidatorHandle | undefined;
  let stopHealthWatch: (() => void) | undefined;
  let stopping: Promise<void> | undefined;
  return {
    store,
    network,
    protocol,
    attacher,
    tips,
    milestones,
    intake,
    submissions,
    status,
    coordinator,
    peering,
    peerService: {
      definition: PeerServiceService,
      implementation: { connect: (call: ServerDuplexStream<PeerMessage, PeerMessage>) => peering.accept(acceptPeer(call)), downloadSnapshot: downloadSnapshotHandler(snapshotServer) },
    },
    v3,
    faucet,
    service,
    metrics,
    pruner,
    events,
    eventsService: nodeEventsService(events, logger),
    async start() {
      await milestones.start();
      pruner.start();
      const ledgerIndex = await ledger.ledgerIndex();
      if (ledgerIndex === undefined) logger.info('no ledger (the genesis has no milestone keys): blocks are stored, milestones are not confirmed');
      else logger.info(`ledger at milestone ${ledgerIndex}`);
      if (faucet) {
        await faucet.start();
        logger.info(`faucet on: ${faucet.address} pays ${faucet.settings.amount} per request (POST /api/faucet/v1/enqueue)`);
      }
      if (coordinator && ledgerIndex !== undefined) {
        coordinator.start();
        logger.info(`coordinator on: a milestone every ${options.coordinator!.milestoneInterval} s with ${options.coordinator!.seeds.length} dev keys`);
      }
      if (v3) {
        const intervalMs = options.validationInterval ?? DEFAULT_VALIDATION_INTERVAL_MS;
        validator = startValidator(v3, { intervalMs, logger });
        const seats = v3.validatorSeats.length;
        logger.info(`v3 network "${v3.params.networkName}": ${v3.seats.length} committee seat(s), built-in validator ${seats > 0 && intervalMs > 0 ? `every ${intervalMs} ms for ${seats} seat(s)` : 'off'}`);
      }
      await peering.start();
      stopHealthWatch = status.watch(logger, HEALTH_CHECK_MS);
      const peers = options.peering?.peers ?? [];
      logger.info(`peering: ${peers.length} static peer(s)${peers.length > 0 ? ` (${peers.join(', ')})` : ''}, node ID ${Buffer.from(peering.nodeId).toString('hex')}, identity 0x${Buffer.from(identity.publicKey).toString('hex')}`);
    },
    stop() {
      return (stopping ??= (async () => {
        stopHealthWatch?.();
        await faucet?.stop();
        submissions.shutdown();
        milestones.stop();
        snapshotServer?.stop();
        await pruner.stop();
        await attacher.idle();
        await peering.stop();
        await validator?.stop();
        await v3?.idle();
        await coordinator?.stop();
        events.close();
      })());
    },
  };
}
