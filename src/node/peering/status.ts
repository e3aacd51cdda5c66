/**
 * Sync status and heartbeats. Heartbeats carry each node's latest and confirmed milestone index; this node's own
 * come from the node (refreshed every heartbeat, tick and confirmation). `synced` is true once our ledger index
 * reached the highest milestone index known (ours or a peer's) and, with static peers configured, once a first
 * heartbeat arrived or the start grace period passed; "almost synced" (at most `syncTolerance` = 2 milestones
 * behind, as Hornet) is what SubmitBlock and the health flag require. A node without any peer (none configured,
 * none connected) counts as synced: it has no one to catch up from, and its health is the ledger's own rule.
 * The peers' liveness (whether static peers are configured, the handshaken peers, when one last sent a heartbeat) goes
 * to the sync state too, for the health rule (status/health.ts: a node that dials peers needs a live one).
 */
import type { Heartbeat, PeerMessage } from '../../grpc/gen/peer.ts';
import type { PeerLiveness } from '../status/health.ts';
import type { MilestoneStatus } from '../status/status.ts';
import type { PeeringContext } from './context.ts';
import type { Peer, PeerSet } from './peers.ts';
import { SyncState } from './sync-state.ts';

export type StatusPeers = Pick<PeerSet, 'all' | 'handshaken' | 'connectedPeers' | 'hasStaticPeers'>;

export class SyncStatus {
  private last: MilestoneStatus = { latest: 0, confirmed: 0, pruning: 0 };
  private started = 0;
  private heardHeartbeat = false;
  /** When each peer's last heartbeat arrived (ctx.now). */
  private readonly heardAt = new WeakMap<Peer, number>();
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly ctx: PeeringContext,
    private readonly peers: StatusPeers,
    /** The node's own milestone indexes. */
    private readonly read: () => Promise<MilestoneStatus>,
    /**
     * Where the lag goes: milestones the ledger is behind the highest index known (Infinity: unknown yet, in the start
     * grace period).
     */
    readonly state: SyncState = new SyncState(),
  ) {
    // A node without static peers has no one to catch up from: synced from the start. One with static peers is not
    // before it heard from them (start() and the heartbeats refine this).
    this.setLag(peers.hasStaticPeers() ? Infinity : 0);
    state.observePeers(() => this.liveness());
  }

  /** Static peers configured, handshaken peers, and how long ago the last heartbeat of one of them arrived. */
  liveness(): PeerLiveness {
    let last: number | undefined;
    for (const p of this.peers.handshaken()) {
      const at = this.heardAt.get(p);
      if (at !== undefined && (last === undefined || at > last)) last = at;
    }
    const silentMs = last === undefined ? undefined : Math.max(0, this.ctx.now() - last);
    return { configured: this.peers.hasStaticPeers(), connected: this.peers.connectedPeers(), silentMs };
  }

  private setLag(lag: number): void {
    this.state.update(lag, this.ctx.settings.syncTolerance);
  }

  /** The start grace period begins; reads the node's status. */
  async start(): Promise<void> {
    this.started = this.ctx.now();
    await this.refresh();
    this.recompute();
  }

  startHeartbeats(): void {
    this.heartbeatTimer = setInterval(() => this.announce(), this.ctx.settings.heartbeatMs);
  }

  stop(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
  }

  get synced(): boolean {
    return this.state.synced;
  }

  get almostSynced(): boolean {
    return this.state.almostSynced;
  }

  /** The ledger index as last read. */
  get confirmed(): number {
    return this.last.confirmed;
  }

  /** The highest milestone index a connected peer claims, or our own latest. */
  latestKnown(): number {
    let m = this.last.latest;
    for (const p of this.peers.all()) if (p.heartbeat && p.nodeId) m = Math.max(m, p.heartbeat.latestMilestoneIndex);
    return m;
  }

  /** A peer's heartbeat arrived. */
  heard(peer: Peer, heartbeat: Heartbeat): void {
    peer.heartbeat = heartbeat;
    this.heardAt.set(peer, this.ctx.now());
    this.heardHeartbeat = true;
    this.recompute();
  }

  recompute(): void {
    this.setLag(this.computeLag());
  }

  /** Reads the node's milestone status again. */
  async refresh(): Promise<void> {
    try {
      this.last = await this.read();
      this.setLag(this.computeLag());
    } catch (e) {
      if (this.ctx.running()) this.ctx.log.warn(`peering: cannot read the milestone status: ${(e as Error).message}`);
    }
  }

  /** Refreshes the status, then sends a heartbeat to every handshaken peer. */
  announce(): void {
    void this.refresh().then(() => this.broadcast());
  }

  /** Sends our heartbeat to one peer (just handshaken). */
  greet(peer: Peer): void {
    peer.link.send(this.message());
  }

  private broadcast(): void {
    if (!this.ctx.running()) return;
    const msg = this.message();
    for (const p of this.peers.handshaken()) p.link.send(msg);
  }

  private message(): PeerMessage {
    const s = this.last;
    const value = {
      latestMilestoneIndex: s.latest,
      confirmedMilestoneIndex: s.confirmed,
      pruningIndex: s.pruning,
      connectedPeers: this.peers.connectedPeers(),
      syncedPeers: this.syncedPeers(),
    };
    return { kind: { $case: 'heartbeat', value } };
  }

  /**
   * Connected peers (distinct node IDs) whose last heartbeat says they are at most `syncTolerance` milestones behind.
   */
  syncedPeers(): number {
    const synced = new Set<string>();
    for (const p of this.peers.handshaken()) {
      const h = p.heartbeat;
      if (h && h.confirmedMilestoneIndex + this.ctx.settings.syncTolerance >= h.latestMilestoneIndex)
        synced.add(p.nodeId!);
    }
    return synced.size;
  }

  private computeLag(): number {
    const { confirmed } = this.last;
    // a node with no peer at all has no one to catch up from: it stays usable (its health is the ledger's rule)
    if (!this.peers.hasStaticPeers() && this.peers.handshaken().length === 0) return 0;
    if (
      this.peers.hasStaticPeers() &&
      !this.heardHeartbeat &&
      this.ctx.now() - this.started < this.ctx.settings.startGraceMs
    )
      return Infinity;
    return Math.max(0, this.latestKnown() - confirmed);
  }
}
