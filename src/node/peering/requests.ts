/**
 * Requests and answers. This node asks peers for blocks by ID and for milestones by index: one outstanding request
 * per block or index, retried at another peer after `requestTimeoutMs`; a milestone is asked only of peers whose
 * heartbeat claims it, and a peer that keeps claiming milestones it never delivers is dropped. A block we asked for
 * is never a duplicate (and skips the PoW rule, see PeeringPort.accept). The peers' requests are answered from the
 * store.
 */
import { toHex } from '../../core/bytes.ts';
import { BlockVersion } from '../../grpc/gen/peer.ts';
import type { PeeringContext } from './context.ts';
import type { SeenSet } from './limits.ts';
import type { Peer, PeerSet } from './peers.ts';
import type { PeeringPort } from './port.ts';
import { bad, blockMessage } from './wire.ts';

const V2_ID = 32;
const V3_ID = 36;

/** Block requests remembered at most (the oldest is forgotten first; it is asked again when still missing). */
const MAX_OUTSTANDING = 50_000;

/** Milestone requests a peer may leave unanswered before it is dropped (it claims milestones it does not serve). */
const MAX_UNANSWERED_MILESTONES = 20;

interface Outstanding {
  at: number;
  peer: number;
  version: BlockVersion;
}

/** How a block from a peer relates to what this node asked for and saw. */
export type Arrival = 'requested' | 'new' | 'duplicate';

export type RequestPeers = Pick<PeerSet, 'handshaken' | 'get' | 'drop'>;

export class Requests {
  private readonly outstanding = new Map<string, Outstanding>();
  private readonly milestoneRequests = new Map<number, Outstanding>();

  constructor(
    private readonly ctx: PeeringContext,
    private readonly port: Pick<PeeringPort, 'store' | 'protocol' | 'milestoneBlockId'>,
    private readonly peers: RequestPeers,
    /** Block IDs seen (the gossip duplicate filter). */
    private readonly seen: SeenSet,
    /** A milestone block this node holds but has not confirmed yet (it answers milestone requests too). */
    private readonly pendingMilestone: (index: number) => Uint8Array | undefined,
  ) {}

  // ------------------------------------------------------------------ arrivals

  /** A block (hex ID `k`) arrived from a peer: settles its request, and counts a duplicate nobody asked for. */
  arrival(k: string): Arrival {
    const requested = this.outstanding.delete(k);
    if (!this.seen.add(k) && !requested) {
      this.ctx.stats.duplicates++;
      return 'duplicate';
    }
    return requested ? 'requested' : 'new';
  }

  /** A block of milestone `index` is held: no more requests for it. */
  milestoneArrived(index: number): void {
    this.milestoneRequests.delete(index);
  }

  /** Forgets the milestone requests the ledger passed. */
  forgetConfirmed(confirmed: number): void {
    for (const index of [...this.milestoneRequests.keys()])
      if (index <= confirmed) this.milestoneRequests.delete(index);
  }

  /** Forgets block requests long unanswered (they are asked again when still missing). */
  expire(): void {
    const now = this.ctx.now();
    for (const [k, o] of this.outstanding)
      if (now - o.at > 20 * this.ctx.settings.requestTimeoutMs) this.outstanding.delete(k);
  }

  // ------------------------------------------------------------------ requesting

  /** Asks one peer for a block, unless a request for it is still outstanding. */
  request(id: Uint8Array, version: BlockVersion, prefer?: number): boolean {
    const k = toHex(id);
    const now = this.ctx.now();
    const o = this.outstanding.get(k);
    if (o && now - o.at < this.ctx.settings.requestTimeoutMs) return false;
    const peers = this.peers.handshaken();
    if (peers.length === 0) return false;
    let peer = prefer !== undefined && !o ? peers.find((p) => p.key === prefer) : undefined;
    if (!peer) {
      const others = o ? peers.filter((p) => p.key !== o.peer) : peers;
      const pool = others.length > 0 ? others : peers;
      peer = pool[Math.floor(Math.random() * pool.length)]!;
    }
    // a block seen before but lost (e.g. its attach failed) must not be dropped as a duplicate when it comes back
    this.seen.delete(k);
    // bounded: peers sending unsolid blocks with made-up parents would otherwise fill it between expiries
    if (!o && this.outstanding.size >= MAX_OUTSTANDING)
      this.outstanding.delete(this.outstanding.keys().next().value as string);
    this.outstanding.set(k, { at: now, peer: peer.key, version });
    this.ctx.stats.requested++;
    return peer.link.send({ kind: { $case: 'blockRequest', value: { version, blockId: id } } });
  }

  /** Requests the parents of a new unsolid block that are not stored (first from the peer that sent the block). */
  async requestMissing(parents: readonly Uint8Array[], prefer?: number): Promise<void> {
    for (const p of parents) {
      if (this.port.protocol.isSolidEntryPoint(p)) continue;
      if (!(await this.port.store.hasBlock(p))) this.request(p, BlockVersion.BLOCK_VERSION_V2, prefer);
    }
  }

  requestMilestone(index: number): void {
    const now = this.ctx.now();
    const o = this.milestoneRequests.get(index);
    if (o && now - o.at < this.ctx.settings.requestTimeoutMs) return;
    const claiming = this.peers.handshaken().filter((p) => (p.heartbeat?.latestMilestoneIndex ?? 0) >= index);
    const others = claiming.filter((p) => p.key !== o?.peer);
    const pool = others.length > 0 ? others : claiming;
    if (pool.length === 0) return;
    if (o) {
      const previous = this.peers.get(o.peer);
      if (previous && ++previous.unanswered > MAX_UNANSWERED_MILESTONES)
        this.peers.drop(previous, `claims milestone ${index} but does not serve it`);
    }
    const peer = pool[Math.floor(Math.random() * pool.length)]!;
    this.milestoneRequests.set(index, { at: now, peer: peer.key, version: BlockVersion.BLOCK_VERSION_V2 });
    this.ctx.stats.requested++;
    peer.link.send({ kind: { $case: 'milestoneRequest', value: { index } } });
  }

  // ------------------------------------------------------------------ answering

  async answerBlock(peer: Peer, version: BlockVersion, id: Uint8Array): Promise<void> {
    const want =
      version === BlockVersion.BLOCK_VERSION_V2
        ? V2_ID
        : version === BlockVersion.BLOCK_VERSION_V3
          ? V3_ID
          : bad(`a block request of unknown version ${version}`);
    if (id.length !== want) bad(`a block request with a ${id.length}-byte ID (expected ${want})`);
    const data = await this.port.store.getBlock(id);
    if (data) peer.link.send(blockMessage(version, data));
  }

  async answerMilestone(peer: Peer, index: number): Promise<void> {
    const id = (await this.port.milestoneBlockId(index)) ?? this.pendingMilestone(index);
    if (!id) return;
    const data = await this.port.store.getBlock(id);
    if (data) peer.link.send(blockMessage(BlockVersion.BLOCK_VERSION_V2, data));
  }
}
