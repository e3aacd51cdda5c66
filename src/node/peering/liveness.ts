/**
 * Dead links. Peers send a heartbeat every `heartbeatMs` (status.ts), so a link on which nothing at all (no heartbeat,
 * no block, no request) came from the peer for `linkTimeoutMs` is dead or stuck: it is closed, on the side that
 * dialed and on the side that accepted alike, and what was written into it since may be lost (offers.ts offers it
 * again once the peer is back). A static peer is redialed with its backoff (peers.ts).
 *
 * What else notices a dead link, and why this is needed too (docs/decisions.md §40):
 *   - gRPC keepalive (HTTP/2 PING, link.ts on the dialing side, PEER_DOOR_OPTIONS on the door): each side's transport
 *     closes a connection whose PING goes unanswered, but only `keepalive_time + keepalive_timeout` after the last
 *     activity (15 s), and a PING is answered by the peer's HTTP/2 layer, not by its peer layer;
 *   - TCP gives up on unacknowledged data only after minutes (tcp_retries2), and a stream with nothing to send sees
 *     nothing at all.
 *
 * The watch runs every tenth of the timeout. When this node's own event loop was stuck for half the timeout or more
 * (a sweep comes that late), the peers' messages may be waiting unread in the sockets: every link then gets the whole
 * timeout again instead of being closed for this node's own stall.
 */
import type { PeeringContext } from './context.ts';
import type { PeerSet } from './peers.ts';

export type WatchedPeers = Pick<PeerSet, 'all' | 'drop'>;

/** How often links are checked for a timeout of `linkTimeoutMs`: a tenth of it, 10 ms to 1 s. */
export function sweepEveryMs(linkTimeoutMs: number): number {
  return Math.min(1000, Math.max(10, Math.floor(linkTimeoutMs / 10)));
}

export class LinkWatch {
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastSweep = 0;

  constructor(
    private readonly ctx: PeeringContext,
    private readonly peers: WatchedPeers,
  ) {}

  start(): void {
    if (this.timer) return;
    this.lastSweep = this.ctx.now();
    this.timer = setInterval(() => this.sweep(), sweepEveryMs(this.ctx.settings.linkTimeoutMs));
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Closes every link silent for longer than the timeout (drops without a ban: a dead link is nobody's fault). */
  sweep(): void {
    if (!this.ctx.running()) return;
    const now = this.ctx.now();
    const { linkTimeoutMs } = this.ctx.settings;
    const stalled = now - this.lastSweep >= linkTimeoutMs / 2;
    this.lastSweep = now;
    for (const peer of [...this.peers.all()]) {
      if (peer.closed) continue;
      if (stalled) {
        peer.lastHeard = Math.max(peer.lastHeard, now);
        continue;
      }
      const silent = now - peer.lastHeard;
      if (silent > linkTimeoutMs)
        this.peers.drop(peer, `nothing came from it for ${silent} ms (the link timeout is ${linkTimeoutMs} ms)`, false);
    }
  }
}
