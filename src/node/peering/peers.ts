/**
 * The peer set: one `Peer` per stream, whichever side opened it, and the static peers (`--peer [0xPUBKEY@]HOST:PORT`),
 * dialed and redialed with exponential backoff. Each stream starts with the handshake of handshake.ts (same network
 * and protocol, an identity key proven by signature; a stream to ourselves is closed and that address is not dialed
 * again); a peer counts as connected once its proof verified, and a stream without that in time is closed. A static
 * peer named with its key is refused (and logged with both keys) when another key answers. A dropped peer may be
 * banned: its node ID is refused, and its static address not redialed, for `banMs` (streams this node dialed only:
 * see drop). Inbound streams: at most `maxInbound`, `maxInboundPerHost` from one host. The records it keeps (Peer,
 * StaticPeer, PeerInfo) are in peer-records.ts (re-exported here).
 */
import { equalBytes, toHex, toHex0x } from '../../core/bytes.ts';
import type { Handshake } from '../../grpc/gen/peer.ts';
import type { NetworkState } from '../genesis/network.ts';
import { peerTarget } from './addresses.ts';
import type { PeeringContext } from './context.ts';
import { countingLink, countReceived, emptyCounters } from './gossip-metrics.ts';
import {
  NONCE_BYTES,
  nodeIdOf,
  ownHandshake,
  proofVerifies,
  proveIdentity,
  usableIdentityKey,
  type PeerIdentity,
} from './handshake.ts';
import { Backoff, TokenBucket } from './limits.ts';
import type { PeerLink } from './link.ts';
import { hostOf, peerInfo, type Peer, type PeerEvents, type PeerInfo, type StaticPeer } from './peer-records.ts';
import { bad, PEER_PROTOCOL } from './wire.ts';

export { hostOf, type Peer, type PeerEvents, type PeerInfo } from './peer-records.ts';

export class PeerSet {
  private readonly peers = new Map<number, Peer>();
  private readonly statics: StaticPeer[];
  private readonly bans = new Map<string, number>();
  private nextKey = 1;

  constructor(
    private readonly ctx: PeeringContext,
    private readonly identity: PeerIdentity,
    private readonly network: NetworkState,
    private readonly dial: (address: string) => PeerLink,
    addresses: readonly string[],
    private readonly events: PeerEvents,
  ) {
    const { backoffBaseMs, backoffMaxMs } = ctx.settings;
    this.statics = [...new Set(addresses)].map((raw) => {
      const { address, publicKey } = peerTarget(raw);
      return {
        address,
        ...(publicKey ? { expected: publicKey } : {}),
        backoff: new Backoff(backoffBaseMs, backoffMaxMs),
        self: false,
        bannedUntil: 0,
      };
    });
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

  /**
   * One entry per peer: each static peer (its open stream, if any), then each peer that dialed us and is not a static
   * peer's node (two streams to one node, one dialed each way, are one peer). Peers without a handshake yet that
   * dialed us are left out: they have no ID.
   */
  infos(): PeerInfo[] {
    const out: PeerInfo[] = [];
    const listed = new Set<string>();
    for (const s of this.statics) {
      if (s.self) continue;
      const inbound =
        s.nodeId === undefined ? undefined : this.handshaken().find((p) => p.nodeId === s.nodeId && p.link.inbound);
      const p = s.peer && !s.peer.closed && s.peer.nodeId ? s.peer : inbound;
      const id = p?.nodeId ?? s.nodeId ?? s.address;
      listed.add(id);
      out.push(peerInfo(id, s.address, 'known', p, s.alias));
    }
    for (const p of this.handshaken()) {
      if (listed.has(p.nodeId!)) continue;
      listed.add(p.nodeId!);
      out.push(peerInfo(p.nodeId!, p.link.address, 'unknown', p));
    }
    return out;
  }

  /**
   * Adds a static peer at run time (dialed now, redialed with backoff); an address already known only gets the alias.
   */
  addStatic(address: string, alias?: string, expected?: Uint8Array): void {
    const known = this.statics.find((s) => s.address === address);
    if (known) {
      if (alias !== undefined) known.alias = alias;
      return;
    }
    const { backoffBaseMs, backoffMaxMs } = this.ctx.settings;
    const s: StaticPeer = {
      address,
      backoff: new Backoff(backoffBaseMs, backoffMaxMs),
      self: false,
      bannedUntil: 0,
      ...(alias !== undefined ? { alias } : {}),
      ...(expected ? { expected } : {}),
    };
    this.statics.push(s);
    this.ctx.log.info(`peer ${address} added${alias !== undefined ? ` (${alias})` : ''}`);
    this.connectStatic(s);
  }

  /**
   * Forgets a peer by ID (node ID, or the address of a static peer): a static peer is no longer dialed, and every
   * stream to that node is closed (it may dial again; it is not banned). False when no such peer is known.
   */
  remove(id: string): boolean {
    const key = id.toLowerCase();
    const statics = this.statics.filter((s) => !s.self && (s.address === id || s.nodeId === key));
    const nodeIds = new Set<string>(statics.flatMap((s) => (s.nodeId ? [s.nodeId] : [])));
    if ([...this.peers.values()].some((p) => p.nodeId === key)) nodeIds.add(key);
    if (statics.length === 0 && nodeIds.size === 0) return false;
    for (const s of statics) {
      s.removed = true;
      if (s.timer) clearTimeout(s.timer);
      this.statics.splice(this.statics.indexOf(s), 1);
      if (s.peer) this.close(s.peer);
    }
    for (const p of [...this.peers.values()]) if (p.nodeId !== undefined && nodeIds.has(p.nodeId)) this.close(p);
    this.ctx.log.info(`peer ${id} removed`);
    return true;
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

  /** Takes an inbound stream, unless `maxInbound` of them, or `maxInboundPerHost` from its host, are open already. */
  accept(link: PeerLink): void {
    const open = [...this.peers.values()].filter((p) => p.link.inbound && !p.closed);
    const host = hostOf(link.address);
    const fromHost = open.filter((p) => hostOf(p.link.address) === host).length;
    const { maxInbound, maxInboundPerHost } = this.ctx.settings;
    const refusal =
      open.length >= maxInbound
        ? `${open.length} inbound peer streams open already (at most ${maxInbound})`
        : fromHost >= maxInboundPerHost
          ? `${fromHost} inbound peer streams from ${host} open already (at most ${maxInboundPerHost} per host)`
          : undefined;
    if (refusal !== undefined) {
      this.ctx.log.warn(`peer ${link.address} refused: ${refusal}`);
      link.close();
      return;
    }
    this.open(link);
  }

  /** Takes a stream (inbound, or dialed for static peer `s`) and sends our handshake. */
  private open(link: PeerLink, s?: StaticPeer): Peer {
    const { messageRate, messageBurst, handshakeTimeoutMs } = this.ctx.settings;
    const metrics = emptyCounters();
    const counted = countingLink(link, metrics, this.ctx.traffic);
    const hello = ownHandshake(this.identity, this.network.networkName);
    const peer: Peer = {
      key: this.nextKey++,
      link: counted,
      nonce: hello.nonce,
      bucket: new TokenBucket(messageRate, messageBurst, this.ctx.now),
      unanswered: 0,
      closed: false,
      lastHeard: this.ctx.now(),
      metrics,
    };
    this.peers.set(peer.key, peer);
    link.onMessage((m) => {
      peer.lastHeard = this.ctx.now();
      countReceived(m, metrics, this.ctx.traffic);
      this.events.message(peer, m);
    });
    link.onClose((reason) => {
      peer.closed = true;
      if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
      this.peers.delete(peer.key);
      if (s && s.peer === peer) {
        s.peer = undefined;
        this.scheduleRedial(s);
      }
      if (peer.nodeId) {
        this.ctx.log.info(`peer ${link.address} disconnected: ${reason}`);
        this.events.disconnected(peer);
      }
    });
    peer.handshakeTimer = setTimeout(() => {
      if (!peer.nodeId) this.drop(peer, 'no handshake in time', false);
    }, handshakeTimeoutMs);
    counted.send({ kind: { $case: 'handshake', value: hello } });
    return peer;
  }

  /**
   * A peer's Handshake: checked (protocol, network, identity key, node ID, bans, the key a static peer must have),
   * then answered with our proof. A second one, or a malformed key, nonce or node ID, is Misbehaviour.
   */
  handshake(peer: Peer, h: Handshake): void {
    if (peer.hello || peer.nodeId) bad('a second handshake');
    if (h.protocol !== PEER_PROTOCOL)
      return void this.drop(peer, `peer protocol ${h.protocol}, this node speaks ${PEER_PROTOCOL}`, false);
    if (h.networkName !== this.network.networkName) {
      return void this.drop(
        peer,
        `network "${h.networkName}" differs from this node's "${this.network.networkName}"`,
        false,
      );
    }
    if (!usableIdentityKey(h.publicKey))
      bad(`an identity key of ${h.publicKey.length} bytes that is no usable Ed25519 public key`);
    if (h.nonce.length !== NONCE_BYTES) bad(`a handshake nonce of ${h.nonce.length} bytes, expected ${NONCE_BYTES}`);
    const derived = nodeIdOf(h.publicKey);
    if (!equalBytes(h.nodeId, derived))
      bad(`node ID ${toHex(h.nodeId)} is not the one of its identity key (${toHex(derived)})`);
    const s = this.staticOf(peer);
    if (equalBytes(h.publicKey, this.identity.publicKey)) {
      if (s) {
        s.self = true;
        this.ctx.log.warn(`peer ${s.address} is this node itself: not dialed again`);
      }
      this.close(peer);
      return;
    }
    const id = toHex(derived);
    const banned = this.bans.get(id);
    if (banned !== undefined && banned > this.ctx.now()) return void this.drop(peer, 'banned', false);
    if (s?.expected && !equalBytes(s.expected, h.publicKey)) {
      return void this.drop(
        peer,
        `refused: its identity key ${toHex0x(h.publicKey)} is not the expected ${toHex0x(s.expected)}`,
        false,
      );
    }
    peer.hello = { publicKey: h.publicKey, nonce: h.nonce, nodeId: id };
    const signature = proveIdentity(this.identity, this.network.networkId, h.publicKey, h.nonce, peer.nonce);
    peer.link.send({ kind: { $case: 'handshakeProof', value: { signature } } });
  }

  /**
   * A peer's HandshakeProof: the handshake completes when it verifies; otherwise Misbehaviour (its ID is not banned:
   * unproven).
   */
  proof(peer: Peer, signature: Uint8Array): void {
    if (peer.nodeId) bad('a second handshake proof');
    const hello = peer.hello;
    if (!hello) bad('a handshake proof before the handshake');
    if (
      !proofVerifies(
        this.network.networkId,
        this.identity.publicKey,
        peer.nonce,
        hello.publicKey,
        hello.nonce,
        signature,
      )
    ) {
      bad('its handshake proof does not verify with its identity key');
    }
    const id = hello.nodeId;
    peer.nodeId = id;
    if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
    const s = this.staticOf(peer);
    if (s) {
      s.backoff.reset();
      s.nodeId = id;
    }
    this.ctx.log.info(
      `peer ${peer.link.address} connected (${peer.link.inbound ? 'inbound' : 'outbound'}, ` +
        `node ${id}, identity ${toHex0x(hello.publicKey)})`,
    );
    this.events.connected(peer);
  }

  /**
   * Disconnects a peer; `ban`: its node ID (and its static address) is refused for banMs, but only for a stream this
   * node dialed. The handshake proves a key but binds it to no channel, so an inbound stream may be a relay speaking
   * with another node's proven identity (handshake.ts): banning that ID would let anyone get an honest node banned. An
   * inbound misbehaver is just dropped (a new key costs it nothing anyway; the per-host limit bounds it).
   */
  drop(peer: Peer, reason: string, ban = true): void {
    if (peer.closed) return;
    this.ctx.stats.dropped++;
    this.ctx.log.warn(`peer ${peer.link.address}${peer.nodeId ? ` (${peer.nodeId})` : ''} dropped: ${reason}`);
    if (ban && !peer.link.inbound) {
      const until = this.ctx.now() + this.ctx.settings.banMs;
      if (peer.nodeId) {
        // expired bans go first: identity keys cost nothing, so a peer could fill the map with new ones
        if (this.bans.size >= 1024)
          for (const [k, t] of this.bans) if (t <= this.ctx.now() || this.bans.size >= 1024) this.bans.delete(k);
        this.bans.set(peer.nodeId, until);
      }
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

  /** The address of the static peer this node dialed for `peer` (undefined for a stream the peer opened). */
  staticAddressOf(peer: Peer): string | undefined {
    return this.staticOf(peer)?.address;
  }

  private staticOf(peer: Peer): StaticPeer | undefined {
    return this.statics.find((x) => x.peer === peer);
  }

  private connectStatic(s: StaticPeer): void {
    if (!this.ctx.running() || s.self || s.removed || s.peer) return;
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
    if (!this.ctx.running() || s.self || s.removed || s.timer) return;
    const delay = Math.max(s.backoff.next(), s.bannedUntil - this.ctx.now());
    s.timer = setTimeout(() => {
      s.timer = undefined;
      this.connectStatic(s);
    }, delay);
  }
}
