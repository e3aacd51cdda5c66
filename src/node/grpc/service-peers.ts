/**
 * The peers RPCs of the NodeService (service.ts delegates here), as Hornet's peers routes answer them (TIP-25
 * PeerResponse: id, multiAddresses, alias, relation, connected, gossip {heartbeat, metrics}), and the dashboard's data.
 */
import type {
  AddPeerRequest,
  DashboardResponse,
  GetPeerRequest,
  Peer,
  PeerHeartbeat,
  PeersResponse,
  RemovePeerResponse,
} from '../../grpc/gen/node.ts';
import type { DashboardData } from '../metrics/dashboard.ts';
import { NodeError } from '../support/errors.ts';
import type { PeerInfo } from '../peering/manager.ts';

/** What the peers RPCs need of the peer layer (the PeerManager). */
export interface PeersSource {
  peerInfos(): PeerInfo[];
  peerInfo(id: string): PeerInfo;
  addPeer(address: string, alias?: string): PeerInfo;
  removePeer(id: string): void;
}

/** Longest alias accepted. */
const MAX_ALIAS = 256;

export class PeersService {
  constructor(
    private readonly peers: PeersSource,
    private readonly dashboard: () => DashboardData,
  ) {}

  async getPeers(): Promise<PeersResponse> {
    return { peers: this.peers.peerInfos().map(peerMessage) };
  }

  async getPeer(req: GetPeerRequest): Promise<Peer> {
    return peerMessage(this.peers.peerInfo(requirePeerId(req.peerId)));
  }

  async addPeer(req: AddPeerRequest): Promise<Peer> {
    if (req.address.trim() === '') throw new NodeError('INVALID_REQUEST', 'invalid peer: multiAddress missing');
    if (req.alias !== undefined && req.alias.length > MAX_ALIAS)
      throw new NodeError('INVALID_REQUEST', `invalid peer: alias longer than ${MAX_ALIAS} characters`);
    return peerMessage(this.peers.addPeer(req.address, req.alias));
  }

  async removePeer(req: GetPeerRequest): Promise<RemovePeerResponse> {
    this.peers.removePeer(requirePeerId(req.peerId));
    return {};
  }

  async getDashboard(): Promise<DashboardResponse> {
    return { json: JSON.stringify(this.dashboard()) };
  }
}

function requirePeerId(id: string): string {
  if (id === '' || id.length > 300)
    throw new NodeError('INVALID_REQUEST', 'invalid peer ID: expected a node ID or a static peer HOST:PORT');
  return id;
}

export function peerMessage(p: PeerInfo): Peer {
  const out: Peer = {
    id: p.id,
    multiAddresses: p.multiAddresses,
    relation: p.relation,
    connected: p.connected,
    address: p.address,
  };
  if (p.alias !== undefined) out.alias = p.alias;
  if (p.metrics) {
    const h = p.heartbeat;
    const heartbeat: PeerHeartbeat | undefined = h
      ? {
          solidMilestoneIndex: h.confirmedMilestoneIndex,
          prunedMilestoneIndex: h.pruningIndex,
          latestMilestoneIndex: h.latestMilestoneIndex,
          connectedPeers: h.connectedPeers,
          syncedPeers: h.syncedPeers,
        }
      : undefined;
    out.gossip = { ...(heartbeat ? { heartbeat } : {}), metrics: { ...p.metrics } };
  }
  return out;
}
