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
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { LedgerState } from '../core/ledger/index.ts';
import { TABLES, type NodeStore } from '../core/store/index.ts';
import { PeerServiceService, type PeerMessage } from '../grpc/gen/peer.ts';
import type { ExtraService } from './grpc/server.ts';
import { NodeServiceImpl } from './grpc/service.ts';
import { LedgerService } from './grpc/service-ledger.ts';
import { V3Service } from './grpc/service-v3.ts';
import { Coordinator } from './ledger/coordinator.ts';
import type { CoordinatorSettings } from './ledger/genesis-ledger.ts';
import { MilestoneProcessor } from './ledger/milestones.ts';
import { ProtocolState } from './ledger/protocol-state.ts';
import { LedgerReader } from './ledger/reads.ts';
import { consoleLogger, type Logger } from './logger.ts';
import type { NetworkState } from './network.ts';
import { acceptPeer } from './peering/link.ts';
import { IndexerReader } from './ledger/indexer-reads.ts';
import { PeerManager, type PeeringOptions } from './peering/manager.ts';
import type { PowQueue } from './pow/queue.ts';
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
import { startValidator, type ValidatorHandle } from './v3/validator.ts';

export const DEFAULT_VALIDATION_INTERVAL_MS = 200;

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
  readonly v3: V3Engine | undefined;
  /** The gRPC adapter. */
  readonly service: NodeServiceImpl;
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
  const attacher = new Attacher(store, protocol, coneRoots, new KnownBlocks(), now);
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
  const intake = new Intake({
    network,
    protocol,
    pow: options.pow,
    attacher,
    selectTips: () => tips.select(random),
    milestoneKeys: () => ledger.milestoneKeys(),
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
  const status: NodeStatus = new NodeStatus({
    store,
    network,
    protocol,
    milestones,
    version: options.version,
    powEnabled: options.pow !== undefined,
    coordinatorActive: () => coordinator?.active === true,
    // The peer manager is built below from the status; it is asked only once the node runs.
    synced: (): boolean => peering.almostSynced,
    now,
  });
  attacher.onStored(() => status.blocksPerSecond.mark());
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
      v3,
    },
    { peers: [], logger, ...options.peering },
  );
  const submissions = new ClientSubmissions(intake, () => peering.almostSynced);
  const { name, tickerSymbol, unit, subunit, decimals } = network.baseToken;
  const v3Identity = { name: NODE_NAME, version: options.version, baseToken: { name, tickerSymbol, unit, ...(subunit !== undefined ? { subunit } : {}), decimals } };
  const service = new NodeServiceImpl({
    reader: new TangleReader(store, tips),
    submissions,
    status,
    tips,
    ledger: new LedgerService(new LedgerReader(store), new IndexerReader(store, () => protocol.current.bech32Hrp)),
    random,
    ...(v3 ? { v3: new V3Service(v3, v3Identity, (id) => peering.announceV3(id)) } : {}),
  });

  let validator: ValidatorHandle | undefined;
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
      implementation: { connect: (call: ServerDuplexStream<PeerMessage, PeerMessage>) => peering.accept(acceptPeer(call)) },
    },
    v3,
    service,
    async start() {
      await milestones.start();
      const ledgerIndex = await ledger.ledgerIndex();
      if (ledgerIndex === undefined) logger.info('no ledger (the genesis has no milestone keys): blocks are stored, milestones are not confirmed');
      else logger.info(`ledger at milestone ${ledgerIndex}`);
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
      const peers = options.peering?.peers ?? [];
      logger.info(`peering: ${peers.length} static peer(s)${peers.length > 0 ? ` (${peers.join(', ')})` : ''}, node ID ${Buffer.from(peering.nodeId).toString('hex')}`);
    },
    stop() {
      return (stopping ??= (async () => {
        submissions.shutdown();
        milestones.stop();
        await attacher.idle();
        await peering.stop();
        await validator?.stop();
        await v3?.idle();
        await coordinator?.stop();
      })());
    },
  };
}
