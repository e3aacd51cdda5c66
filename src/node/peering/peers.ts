/**
 * The peer set: one `Peer` per stream, whichever side opened it, and the static peers (`--peer HOST:PORT`), dialed
 * and redialed with exponential backoff. Each stream starts with a handshake (same network name, a random node ID;
 * a stream to ourselves is closed and that address is not dialed again); a stream without a handshake in time is
 * closed. A dropped peer may be banned: its node ID is refused, and its static address not redialed, for `banMs`.
 */
import { equalBytes, toHex } from '../../core/bytes.ts';
import type { Heartbeat, PeerMessage } from '../../grpc/gen/peer.ts';
import type { NetworkState } from '../network.ts';
import type { PeeringContext } from './context.ts';
import { Backoff, TokenBucket } from './limits.ts';
import type { PeerLink } from './link.ts';
import { bad, NODE_ID_BYTES, PEER_PROTOCOL } from './wire.ts';

export interface Peer {
  key: number;
  link: PeerLink;
  /** Hex node ID once the handshake arrived. */
  nodeId?: string;
  bucket: TokenBucket;
  heartbeat?: Heartbeat;
  handshakeTimer?: ReturnType<typeof setTimeout>;
  /** Milestone requests sent to this peer and not answered (reset by any milestone it delivers). */
  unanswered: number;
  closed: boolean;
}

export interface PeerInfo {
  id: string;
  address: string;
  inbound: boolean;
  connected: boolean;
  heartbeat?: Heartbeat;
}

interface StaticPeer {
  address: string;
  backoff: Backoff;
  peer?: Peer;
  timer?: ReturnType<typeof setTimeout>;
  self: boolean;
  bannedUntil: number;
}

/** What the peer set reports to its owner. */
export interface PeerEvents {
  /** Every message of a peer (the handshake included, see `handshake`). */
  message(peer: Peer, m: PeerMessage): void;
  /** A peer completed its handshake. */
  connected(peer: Peer): void;
}

export class PeerSet {
  private readonly peers = new Map<number, Peer>();
  private readonly statics: StaticPeer[];
  private readonly bans = new Map<string, number>();
  private nextKey = 1;

  constructor(
    private readonly ctx: PeeringContext,
    private readonly nodeId: Uint8Array,
    private readonly network: NetworkState,
    private readonly dial: (address: string) => PeerLink,
    addresses: readonly string[],
    private readonly events: PeerEvents,
  ) {
    const { backoffBaseMs, backoffMaxMs } = ctx.settings;
    this.statics = [...new Set(addresses)].map((address) => ({ address, backoff: new Backoff(backoffBaseMs, backoffMaxMs), self: false, bannedUntil: 0 }));
  }

  // ------------------------------------------------------------------ views

  get(key: number): Peer | undefined {
    return this.peers.get(key);
  }

  /** Every peer with a stream, handshaken or not. */
  all(): IterableIterator<Peer> {
    return this.peers.values();
  }

  /** The peers that completed the handshake and are not closed. */
  handshaken(): Peer[] {
    return [...this.peers.values()].filter((p) => p.nodeId && !p.closed);
  }

  /** Distinct node IDs among the handshaken peers. */
  connectedPeers(): number {
    return new Set(this.handshaken().map((p) => p.nodeId)).size;
  }

  /** Whether a static peer other than this node itself is configured. */
  hasStaticPeers(): boolean {
    return this.statics.some((s) => !s.self);
  }

  infos(): PeerInfo[] {
    const out: PeerInfo[] = [...this.peers.values()].map((p) => ({
      id: p.nodeId ?? '',
      address: p.link.address,
      inbound: p.link.inbound,
      connected: p.nodeId !== undefined,
      ...(p.heartbeat ? { heartbeat: { ...p.heartbeat } } : {}),
    }));
    for (const s of this.statics) if (!s.peer && !s.self) out.push({ id: '', address: s.address, inbound: false, connected: false });
    return out;
  }

  // ------------------------------------------------------------------ connections

  /** Dials every static peer. */
  connectStatics(): void {
    for (const s of this.statics) this.connectStatic(s);
  }

  /** Cancels the redials and closes every stream (after the context stopped running, so nothing is redialed). */
  closeAll(): void {
    for (const s of this.statics) if (s.timer) clearTimeout(s.timer);
    for (const p of [...this.peers.values()]) this.close(p);
  }

  /** Takes an inbound stream. */
  accept(link: PeerLink): void {
    this.open(link);
  }

  /** Takes a stream (inbound, or dialed for static peer `s`) and sends our handshake. */
  private open(link: PeerLink, s?: StaticPeer): Peer {
    const { messageRate, messageBurst, handshakeTimeoutMs } = this.ctx.settings;
    const peer: Peer = { key: this.nextKey++, link, bucket: new TokenBucket(messageRate, messageBurst, this.ctx.now), unanswered: 0, closed: false };
    this.peers.set(peer.key, peer);
    link.onMessage((m) => this.events.message(peer, m));
    link.onClose((reason) => {
      peer.closed = true;
      if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
      this.peers.delete(peer.key);
      if (peer.nodeId) this.ctx.log.info(`peer ${link.address} disconnected: ${reason}`);
      if (s && s.peer === peer) {
        s.peer = undefined;
        this.scheduleRedial(s);
      }
    });
    peer.handshakeTimer = setTimeout(() => {
      if (!peer.nodeId) this.drop(peer, 'no handshake in time', false);
    }, handshakeTimeoutMs);
    link.send({ kind: { $case: 'handshake', value: { networkName: this.network.networkName, nodeId: this.nodeId, protocol: PEER_PROTOCOL } } });
    return peer;
  }

  /** A peer's handshake; a second one, or a node ID of the wrong length, is Misbehaviour. */
  handshake(peer: Peer, h: { networkName: string; nodeId: Uint8Array; protocol: number }): void {
    if (peer.nodeId) bad('a second handshake');
    if (h.nodeId.length !== NODE_ID_BYTES) bad(`node ID of ${h.nodeId.length} bytes, expected ${NODE_ID_BYTES}`);
    const id = toHex(h.nodeId);
    if (equalBytes(h.nodeId, this.nodeId)) {
      const s = this.staticOf(peer);
      if (s) {
        s.self = true;
        this.ctx.log.warn(`peer ${s.address} is this node itself: not dialed again`);
      }
      this.close(peer);
      return;
    }
    const banned = this.bans.get(id);
    if (banned !== undefined && banned > this.ctx.now()) return void this.drop(peer, 'banned', false);
    if (h.protocol !== PEER_PROTOCOL) return void this.drop(peer, `peer protocol ${h.protocol}, this node speaks ${PEER_PROTOCOL}`, false);
    if (h.networkName !== this.network.networkName) {
      return void this.drop(peer, `network "${h.networkName}" differs from this node's "${this.network.networkName}"`, false);
    }
    peer.nodeId = id;
    if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
    this.staticOf(peer)?.backoff.reset();
    this.ctx.log.info(`peer ${peer.link.address} connected (${peer.link.inbound ? 'inbound' : 'outbound'}, node ${id})`);
    this.events.connected(peer);
  }

  /** Disconnects a peer; `ban`: its node ID (and its static address) is refused for banMs. */
  drop(peer: Peer, reason: string, ban = true): void {
    if (peer.closed) return;
    this.ctx.stats.dropped++;
    this.ctx.log.warn(`peer ${peer.link.address}${peer.nodeId ? ` (${peer.nodeId})` : ''} dropped: ${reason}`);
    if (ban) {
      const until = this.ctx.now() + this.ctx.settings.banMs;
      if (peer.nodeId) this.bans.set(peer.nodeId, until);
      const s = this.staticOf(peer);
      if (s) s.bannedUntil = until;
    }
    this.close(peer);
  }

  private close(peer: Peer): void {
    if (peer.closed) return;
    peer.closed = true;
    peer.link.close();
  }

  private staticOf(peer: Peer): StaticPeer | undefined {
    return this.statics.find((x) => x.peer === peer);
  }

  private connectStatic(s: StaticPeer): void {
    if (!this.ctx.running() || s.self || s.peer) return;
    let link: PeerLink;
    try {
      link = this.dial(s.address);
    } catch (e) {
      this.ctx.log.warn(`peer ${s.address}: cannot dial: ${(e as Error).message}`);
      this.scheduleRedial(s);
      return;
    }
    s.peer = this.open(link, s);
  }

  private scheduleRedial(s: StaticPeer): void {
    if (!this.ctx.running() || s.self || s.timer) return;
    const delay = Math.max(s.backoff.next(), s.bannedUntil - this.ctx.now());
    s.timer = setTimeout(() => {
      s.timer = undefined;
      this.connectStatic(s);
    }, delay);
  }
}
