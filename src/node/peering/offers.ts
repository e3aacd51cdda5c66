/**
 * What a peer missed while its link was down. A write into a link is "sent" as soon as gRPC queued it: when the link
 * turns out dead (liveness.ts) or ends, the blocks written into it since it last surely worked may never have arrived,
 * and blocks stored while no link to the peer was open were never sent. So once a link to the same node (its node ID)
 * completes the handshake again, this node offers it the v2 blocks it gossiped since then, as ordinary block messages:
 * the peer drops those it holds (its seen-set) and takes the others through its own checks, gossiping them on.
 *
 * Since when: the earlier of the last message heard from the peer on that link and the link timeout before the close
 * (a peer that stopped hearing us closes its side within the timeout, and we see that close), less one heartbeat
 * interval. Blocks that came from that peer are not offered back to it. A block a milestone already referenced is
 * not offered (the peer gets it with that milestone's cone); one below max depth is not either (no milestone can
 * reference it any more: the tip rules of tangle/urts.ts). Bounds: the newest `offerMaxBlocks` blocks and at most
 * `offerMaxBytes` of them, sent oldest first (parents before children); a peer that lacks older ones asks for them
 * as missing parents. The record of gossiped blocks keeps the last 4 x `offerMaxBlocks`, the lost peers the last
 * MAX_LOST_PEERS node IDs; both are in memory only (a restart of this node forgets them).
 *
 * v3 blocks are not offered: a v3 block that missed a peer is fetched as a missing parent of the next block naming it
 * (v3-parking.ts), and an old one may fail the peer's issuing-time and commitment checks, which would cost the link.
 */
import { BlockVersion } from '../../grpc/gen/peer.ts';
import type { PeeringContext } from './context.ts';
import type { Peer, PeerSet } from './peers.ts';
import type { PeeringPort } from './port.ts';
import { blockMessage } from './wire.ts';

/** Node IDs whose lost links are remembered at most (identity keys cost nothing; the oldest is forgotten first). */
export const MAX_LOST_PEERS = 1024;

interface Gossiped {
  id: Uint8Array;
  at: number;
  /** The node ID it came from (not offered back to it). */
  from: string | undefined;
}

export class Offers {
  /** v2 blocks gossiped (or that would have been: no peer was connected), oldest first. */
  private readonly gossiped: Gossiped[] = [];
  /** Node ID -> since when it may have missed blocks; in the order they were lost. */
  private readonly lost = new Map<string, number>();

  constructor(
    private readonly ctx: PeeringContext,
    private readonly port: Pick<PeeringPort, 'store' | 'protocol'>,
    private readonly peers: Pick<PeerSet, 'handshaken'>,
  ) {}

  /** A v2 block this node stored and gossips (whether or not a peer is connected). */
  noteGossiped(id: Uint8Array, from: string | undefined): void {
    this.gossiped.push({ id, at: this.ctx.now(), from });
    const capacity = 4 * this.ctx.settings.offerMaxBlocks;
    if (this.gossiped.length > capacity + capacity / 4) this.gossiped.splice(0, this.gossiped.length - capacity);
  }

  /** Node IDs with a lost link not come back yet (tests, metrics). */
  get lostPeers(): number {
    return this.lost.size;
  }

  /**
   * A handshaken peer's stream closed. Another stream to its node that is still open gets the offer at once;
   * otherwise this remembers since when the node may have missed blocks, for its next handshake.
   */
  disconnected(peer: Peer): void {
    const id = peer.nodeId;
    if (id === undefined) return;
    const { linkTimeoutMs, heartbeatMs } = this.ctx.settings;
    const since = Math.min(peer.lastHeard, this.ctx.now() - linkTimeoutMs) - heartbeatMs;
    const other = this.peers.handshaken().find((p) => p !== peer && p.nodeId === id);
    if (other) {
      void this.offer(other, since).catch((e: unknown) => this.failed(other, e));
      return;
    }
    const before = this.lost.get(id);
    this.lost.delete(id);
    this.lost.set(id, before === undefined ? since : Math.min(before, since));
    if (this.lost.size > MAX_LOST_PEERS) this.lost.delete(this.lost.keys().next().value as string);
  }

  /** A peer completed its handshake: when a link to its node was lost before, it gets the offer. */
  connected(peer: Peer): void {
    const id = peer.nodeId;
    const since = id === undefined ? undefined : this.lost.get(id);
    if (id === undefined || since === undefined) return;
    this.lost.delete(id);
    void this.offer(peer, since).catch((e: unknown) => this.failed(peer, e));
  }

  /** Sends `peer` the blocks gossiped since `since` that it may lack (see above); returns how many were sent. */
  async offer(peer: Peer, since: number): Promise<number> {
    const { offerMaxBlocks, offerMaxBytes } = this.ctx.settings;
    const chosen: Uint8Array[] = [];
    let bytes = 0;
    let skipped = 0;
    for (let i = this.gossiped.length - 1; i >= 0 && chosen.length < offerMaxBlocks; i--) {
      const g = this.gossiped[i]!;
      if (g.at < since) break;
      if (g.from === peer.nodeId) continue;
      const data = await this.offerable(g.id);
      if (data === undefined) {
        skipped++;
        continue;
      }
      if (bytes + data.length > offerMaxBytes) break;
      bytes += data.length;
      chosen.push(data);
    }
    let sent = 0;
    let sentBytes = 0;
    for (let i = chosen.length - 1; i >= 0 && !peer.closed; i--) {
      if (!peer.link.send(blockMessage(BlockVersion.BLOCK_VERSION_V2, chosen[i]!))) break;
      sent++;
      sentBytes += chosen[i]!.length;
    }
    this.ctx.stats.offered += sent;
    if (sent > 0 || skipped > 0)
      this.ctx.log.info(
        `peer ${peer.link.address}: a link to it was lost; offered ${sent} blocks (${sentBytes} bytes) gossiped ` +
          `since, ${skipped} left out (referenced already, below max depth or gone)`,
      );
    return sent;
  }

  private failed(peer: Peer, e: unknown): void {
    if (this.ctx.running())
      this.ctx.log.warn(`peer ${peer.link.address}: cannot offer blocks: ${(e as Error).message}`);
  }

  /** The block's bytes, unless it is gone, referenced by a milestone already, or below max depth. */
  private async offerable(id: Uint8Array): Promise<Uint8Array | undefined> {
    const md = await this.port.store.getBlockMetadata(id);
    if (!md || md.referenced) return undefined;
    const { protocol } = this.port;
    if (md.coneRoots && protocol.ledgerIndex - md.coneRoots.ocri > protocol.current.belowMaxDepth) return undefined;
    return this.port.store.getBlock(id);
  }
}
