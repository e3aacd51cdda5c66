/**
 * The node's status (GET /info, health) and the peer layer: gossip, sync, heartbeats, the PeerService. The peer layer
 * updates the sync state (peering/sync-state.ts) that the other parts read.
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import type { NodeStore } from '../../core/store/index.ts';
import { PeerServiceService, type PeerMessage } from '../../grpc/gen/peer.ts';
import type { ExtraService } from '../grpc/server.ts';
import type { Coordinator } from '../ledger/coordinator.ts';
import type { CoordinatorSettings } from '../genesis/genesis-ledger.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import { ephemeralIdentity, nodeIdOf, type PeerIdentity } from '../peering/handshake.ts';
import { acceptPeer } from '../peering/link.ts';
import { PeerManager, type PeeringOptions } from '../peering/manager.ts';
import { downloadSnapshotHandler, type SnapshotServer } from '../peering/snapshot-server.ts';
import type { SyncState } from '../peering/sync-state.ts';
import type { NodeMetrics } from '../metrics/node-metrics.ts';
import type { HealthSettings } from '../status/health.ts';
import type { StorageWatch } from '../status/storage.ts';
import { NodeStatus } from '../status/status.ts';
import type { V3Engine } from '../v3/engine.ts';
import type { IntakeParts, LedgerParts, TangleParts } from './tangle.ts';

/** The node's identity key (the data folder's, identity.ts; a process-long one when none is given): peers, /info. */
export function identityOf(settings: Partial<PeeringOptions> | undefined): PeerIdentity {
  return settings?.identity ?? ephemeralIdentity();
}

/** GET /info and health: milestones, sync and the peers' liveness, the coordinator, the PoW and the rates. */
export function wireStatus(deps: {
  store: NodeStore;
  network: NetworkState;
  tangle: TangleParts;
  ledger: LedgerParts;
  identity: PeerIdentity;
  version: string;
  powEnabled: boolean;
  coordinator: { settings: CoordinatorSettings | undefined; running: Coordinator | undefined };
  sync: SyncState;
  metrics: NodeMetrics;
  health: Partial<HealthSettings> | undefined;
  storage: StorageWatch | undefined;
  now: () => number;
}): NodeStatus {
  const { identity, coordinator, sync, metrics } = deps;
  return new NodeStatus({
    identity: { publicKey: identity.publicKey, nodeId: nodeIdOf(identity.publicKey) },
    store: deps.store,
    network: deps.network,
    protocol: deps.tangle.protocol,
    milestones: deps.ledger.milestones,
    version: deps.version,
    powEnabled: deps.powEnabled,
    ...(coordinator.settings ? { milestoneIntervalSeconds: coordinator.settings.milestoneInterval } : {}),
    runsCoordinator: coordinator.settings !== undefined,
    coordinatorSince: () => coordinator.running?.startedAt,
    synced: () => sync.almostSynced,
    peers: () => sync.peers(),
    ...(deps.health ? { health: deps.health } : {}),
    rates: () => metrics.rates,
    ...(deps.storage ? { storage: deps.storage } : {}),
    now: deps.now,
  });
}

export interface PeeringParts {
  readonly peering: PeerManager;
  /** The PeerService for the node's gRPC server (Connect, DownloadSnapshot). */
  readonly peerService: ExtraService;
}

/** The peer manager over the node's ports; it reports the sync state. */
export function wirePeering(
  deps: {
    store: NodeStore;
    network: NetworkState;
    tangle: TangleParts;
    ledger: LedgerParts;
    intake: IntakeParts;
    status: NodeStatus;
    metrics: NodeMetrics;
    v3: V3Engine | undefined;
    snapshotServer: SnapshotServer | undefined;
    sync: SyncState;
    identity: PeerIdentity;
  },
  settings: Partial<PeeringOptions> | undefined,
  logger: Logger,
): PeeringParts {
  const { store, tangle, ledger, intake, status, metrics, snapshotServer } = deps;
  const peering = new PeerManager(
    {
      network: deps.network,
      protocol: tangle.protocol,
      store,
      accept: (bytes, requested) => intake.intake.accept({ bytes }, { kind: 'peer', requested }),
      onStored: (l) => tangle.attacher.onStored(l),
      onConfirmed: (l) => ledger.milestones.onConfirmed((e) => l(e.index)),
      status: () => status.milestoneStatus(),
      milestoneBlockId: async (index) => (await store.milestone(index))?.blockId,
      blockSeen: () => metrics.blockReceived('peer', 'duplicate'),
      v3: deps.v3,
      // Snapshots for bootstrapping peers, from the folder of snapshots on demand.
      ...(snapshotServer ? { snapshots: { offer: (peer, request) => snapshotServer.offer(peer, request) } } : {}),
    },
    { peers: [], logger, ...settings, identity: deps.identity, sync: deps.sync },
  );
  const peerService: ExtraService = {
    definition: PeerServiceService,
    implementation: {
      connect: (call: ServerDuplexStream<PeerMessage, PeerMessage>) => peering.accept(acceptPeer(call)),
      downloadSnapshot: downloadSnapshotHandler(snapshotServer),
    },
  };
  return { peering, peerService };
}
