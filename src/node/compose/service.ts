/**
 * The node service's gRPC adapter (grpc/service.ts) over the parts: tangle, ledger and explorer reads, submissions,
 * status, faucet, control (pruning, snapshots), peers and the dashboard, v3; and the NodeEvents service.
 */
import type { NodeStore } from '../../core/store/index.ts';
import { dashboardData } from '../metrics/dashboard.ts';
import type { EventBus } from '../events/bus.ts';
import type { Faucet } from '../faucet/faucet.ts';
import { nodeEventsService } from '../grpc/events.ts';
import type { ExtraService } from '../grpc/server.ts';
import { NodeServiceImpl } from '../grpc/service.ts';
import { ControlService } from '../grpc/service-control.ts';
import { FaucetService } from '../grpc/service-faucet.ts';
import { LedgerService } from '../grpc/service-ledger.ts';
import { ExplorerService } from '../grpc/service-explorer.ts';
import { PeersService } from '../grpc/service-peers.ts';
import { V3Service } from '../grpc/service-v3.ts';
import { IndexerReader } from '../ledger/indexer-reads.ts';
import { ExplorerReader } from '../ledger/explorer-reads.ts';
import { LedgerReader } from '../ledger/reads.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { PeerManager } from '../peering/manager.ts';
import type { SyncState } from '../peering/sync-state.ts';
import type { PowQueue } from '../pow/queue.ts';
import type { NodeMetrics } from '../metrics/node-metrics.ts';
import type { Pruner } from '../pruning/pruner.ts';
import type { Snapshots } from '../snapshots/snapshots.ts';
import { NODE_NAME, type NodeStatus } from '../status/status.ts';
import { TangleReader } from '../tangle/reads.ts';
import type { V3Engine } from '../v3/engine.ts';
import type { IntakeParts, TangleParts } from './tangle.ts';

export function wireService(deps: {
  store: NodeStore;
  network: NetworkState;
  version: string;
  tangle: TangleParts;
  intake: IntakeParts;
  status: NodeStatus;
  sync: SyncState;
  peering: PeerManager;
  metrics: NodeMetrics;
  pruner: Pruner;
  snapshots: Snapshots | undefined;
  faucet: Faucet | undefined;
  v3: V3Engine | undefined;
  pow: PowQueue | undefined;
  random: () => number;
  now: () => number;
}): NodeServiceImpl {
  const { store, network, tangle, peering, metrics, sync, v3, pow, now } = deps;
  const { protocol, tips } = tangle;
  const { name, tickerSymbol, unit, subunit, decimals } = network.baseToken;
  const v3Identity = {
    name: NODE_NAME,
    version: deps.version,
    baseToken: { name, tickerSymbol, unit, ...(subunit !== undefined ? { subunit } : {}), decimals },
  };
  return new NodeServiceImpl({
    reader: new TangleReader(store, tips),
    submissions: deps.intake.submissions,
    status: deps.status,
    tips,
    ledger: new LedgerService(new LedgerReader(store), new IndexerReader(store, () => protocol.current.bech32Hrp)),
    explorer: new ExplorerService(new ExplorerReader(store, () => protocol.current.bech32Hrp)),
    random: deps.random,
    faucet: new FaucetService(deps.faucet),
    control: new ControlService(deps.pruner, deps.snapshots),
    peers: new PeersService(peering, () =>
      dashboardData({
        synced: () => sync.almostSynced,
        tips: () => tips.size,
        peers: () => peering.peerInfos(),
        pow: () => pow,
        powStats: () => metrics.powStats(),
        series: () => metrics.series.samples(),
        milestones: () => metrics.recent.all(),
        now,
      }),
    ),
    ...(v3 ? { v3: new V3Service(v3, v3Identity, (id) => peering.announceV3(id)) } : {}),
  });
}

/** NodeEvents, the TIP-28 events over gRPC. */
export function wireEventsService(events: EventBus, logger: Logger): ExtraService {
  return nodeEventsService(events, logger);
}
