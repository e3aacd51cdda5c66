/**
 * The peer manager: the node's peers over gRPC (proto/peer.proto), gossip, solidification and sync.
 *
 * Peers. Static peers (`--peer HOST:PORT`) are dialed and redialed with exponential backoff; any node may dial us
 * (the PeerService runs on the node's gRPC server). Each stream starts with a handshake (same network name, a
 * random node ID; a stream to ourselves is closed and that address is not dialed again).
 *
 * Bounds (a peer is never trusted): every message costs a token of the peer's bucket (rate + burst); a message
 * before the handshake, an ID of the wrong length, a block over 32768 bytes, undecodable or syntactically invalid,
 * an unrequested block below the minimum PoW score, a milestone whose signatures do not verify, or a peer that
 * keeps claiming milestones it never delivers: the peer is disconnected and its node ID banned for `banMs` (a
 * static peer is redialed only after the ban). Undecodable protobuf ends the stream in gRPC itself.
 *
 * Blocks from peers take the node's own path: decode (strict), protocol version, syntactic validation, PoW
 * (except blocks we requested, as Hornet, and milestone blocks whose nonce is 0), then the Attacher (atomic store,
 * solidity, tips, milestone processing). A seen-set of block IDs drops duplicates before any decoding. New blocks
 * are gossiped to every other peer; blocks we requested (solidification, sync) are not re-gossiped.
 *
 * Solidification: a block stored without its past cone is a "root"; every tick the unsolid part of each root's cone
 * is walked, and missing blocks are requested by ID (one outstanding request per block, retried at another peer
 * after `requestTimeoutMs`). Milestone confirmation is the MilestoneProcessor's: it confirms a milestone once its
 * block is solid.
 *
 * Sync: heartbeats carry each peer's latest and confirmed milestone index. While a peer knows milestones above our
 * ledger index, the next milestones (a window of `syncWindow`) are requested by index, their cones solidified as
 * above, and the ledger confirms them in order. `synced` is true once our ledger index reached the highest
 * milestone index known (ours or a peer's) and, with static peers configured, once a first heartbeat arrived or
 * the start grace period passed; "almost synced" (at most `syncTolerance` = 2 milestones behind, as Hornet) is what
 * SubmitBlock and the health flag require. A node without any peer (none configured, none connected) counts as synced: it
 * has no one to catch up from, and its health is the ledger's own rule.
 *
 * v3 (IOTA 2.0) blocks travel on the same streams: a v3 block whose parents are not known yet is parked (bounded)
 * and its parents are requested; it goes to the V3 engine's own submission path once they are there.
 */
import { equalBytes, toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { ProtocolError } from '../../core/errors.ts';
import { blockId as blockIdOfBytes } from '../../core/ids/index.ts';
import { LIMITS, PAYLOAD_MILESTONE, type Block } from '../../core/model/index.ts';
import { blockIdV3, decodeBlockV3 } from '../../core/v3/index.ts';
import { BlockVersion, type Heartbeat, type PeerMessage } from '../../grpc/gen/peer.ts';
import { NodeError } from '../errors.ts';
import type { AttachResult } from '../tangle/attach.ts';
import type { Accepted } from '../tangle/intake.ts';
import type { Logger } from '../logger.ts';
import { Backoff, SeenSet, TokenBucket } from './limits.ts';
import { dialPeer, type PeerLink } from './link.ts';
import { hasStoredBlock, type PeeringPort } from './port.ts';

export const PEER_PROTOCOL = 1;
const NODE_ID_BYTES = 16;
const V2_ID = 32;
const V3_ID = 36;

export interface PeeringOptions {
  /** Static peers, "host:port". */
  peers: readonly string[];
  logger: Logger;
  /** 16 random bytes by default. */
  nodeId?: Uint8Array;
  heartbeatMs?: number;
  /** Solidification / sync loop period. */
  tickMs?: number;
  requestTimeoutMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  banMs?: number;
  handshakeTimeoutMs?: number;
  /** Messages per second a peer may send on average, and in one burst. */
  messageRate?: number;
  messageBurst?: number;
  /** Block requests sent per tick, at most. */
  requestsPerTick?: number;
  /** Milestones requested ahead of the ledger index. */
  syncWindow?: number;
  /** With static peers: not synced before a first heartbeat, for at most this long after start. */
  startGraceMs?: number;
  /** Milestones a node may be behind and still take submissions and report healthy (default 2). */
  syncTolerance?: number;
  seenCapacity?: number;
  /** v3 blocks waiting for parents, at most. */
  maxParked?: number;
  /** Unsolid blocks (not milestones) whose cones are being solidified, at most; and for how long each is tried. */
  maxRoots?: number;
  rootTtlMs?: number;
  /** Dial function (tests). */
  dial?: (address: string) => PeerLink;
  now?: () => number;
}

export interface PeerInfo {
  id: string;
  address: string;
  inbound: boolean;
  connected: boolean;
  heartbeat?: Heartbeat;
}

export interface PeeringStats {
  received: number;
  duplicates: number;
  gossiped: number;
  requested: number;
  dropped: number;
}

interface Peer {
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

interface Outstanding {
  at: number;
  peer: number;
  version: BlockVersion;
}

interface StaticPeer {
  address: string;
  backoff: Backoff;
  peer?: Peer;
  timer?: ReturnType<typeof setTimeout>;
  self: boolean;
  bannedUntil: number;
}

class Misbehaviour extends Error {}

function bad(reason: string): never {
  throw new Misbehaviour(reason);
}

/** Milestone requests a peer may leave unanswered before it is dropped (it claims milestones it does not serve). */
const MAX_UNANSWERED_MILESTONES = 20;

export class PeerManager {
  readonly nodeId: Uint8Array;
  readonly stats: PeeringStats = { received: 0, duplicates: 0, gossiped: 0, requested: 0, dropped: 0 };
  private readonly o: Required<Omit<PeeringOptions, 'nodeId' | 'peers' | 'logger' | 'dial' | 'now'>>;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly dial: (address: string) => PeerLink;
  private readonly peers = new Map<number, Peer>();
  private readonly statics: StaticPeer[];
  private readonly bans = new Map<string, number>();
  private readonly seen: SeenSet;
  private readonly outstanding = new Map<string, Outstanding>();
  private readonly milestoneRequests = new Map<number, Outstanding>();
  /** Milestone index -> block IDs (hex) of the milestone blocks this node holds above its ledger index. */
  private readonly milestoneBlocks = new Map<number, Map<string, Uint8Array>>();
  /** Blocks stored without a solid past cone (hex -> ID and when it became a root); see `addRoot`. */
  private readonly roots = new Map<string, { id: Uint8Array; since: number }>();
  /** v3 blocks waiting for parents: hex ID -> bytes, parents, sender. */
  private readonly parked = new Map<string, { bytes: Uint8Array; parents: Uint8Array[]; from: number }>();
  /** Blocks just received from a peer: hex ID -> (sender, requested), read by the stored listener. */
  private readonly arriving = new Map<string, { from: number; requested: boolean }>();
  private nextKey = 1;
  private started = 0;
  private heardHeartbeat = false;
  /** Milestones the ledger is behind the highest index known (Infinity: unknown yet, in the start grace period). */
  private lag: number;
  private running = false;
  private ticking = false;
  private tickTimer: ReturnType<typeof setInterval> | undefined;
  private heartbeatTimer: ReturnType<typeof setInterval> | undefined;
  private lastStatus = { latest: 0, confirmed: 0, pruning: 0 };

  constructor(
    private readonly port: PeeringPort,
    options: PeeringOptions,
  ) {
    this.log = options.logger;
    this.now = options.now ?? Date.now;
    this.dial = options.dial ?? dialPeer;
    this.nodeId = options.nodeId ?? crypto.getRandomValues(new Uint8Array(NODE_ID_BYTES));
    this.o = {
      heartbeatMs: options.heartbeatMs ?? 1000,
      tickMs: options.tickMs ?? 100,
      requestTimeoutMs: options.requestTimeoutMs ?? 1500,
      backoffBaseMs: options.backoffBaseMs ?? 250,
      backoffMaxMs: options.backoffMaxMs ?? 15_000,
      banMs: options.banMs ?? 5 * 60_000,
      handshakeTimeoutMs: options.handshakeTimeoutMs ?? 5000,
      messageRate: options.messageRate ?? 2000,
      messageBurst: options.messageBurst ?? 10_000,
      requestsPerTick: options.requestsPerTick ?? 200,
      syncWindow: options.syncWindow ?? 8,
      startGraceMs: options.startGraceMs ?? 3000,
      syncTolerance: options.syncTolerance ?? 2,
      seenCapacity: options.seenCapacity ?? 100_000,
      maxParked: options.maxParked ?? 4096,
      maxRoots: options.maxRoots ?? 10_000,
      rootTtlMs: options.rootTtlMs ?? 60_000,
    };
    this.seen = new SeenSet(this.o.seenCapacity);
    this.statics = [...new Set(options.peers)].map((address) => ({ address, backoff: new Backoff(this.o.backoffBaseMs, this.o.backoffMaxMs), self: false, bannedUntil: 0 }));
    // A node without static peers has no one to catch up from: synced from the start. One with static peers is not
    // before it heard from them (start() and the heartbeats refine this).
    this.lag = this.statics.length === 0 ? 0 : Infinity;
    port.onStored((id, block, result) => this.stored(id, block, result));
    port.onConfirmed(() => {
      void this.refreshStatus().then(() => this.broadcastHeartbeat());
    });
  }

  // ------------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.started = this.now();
    await this.refreshStatus();
    this.lag = this.computeLag();
    for (const s of this.statics) this.connectStatic(s);
    this.tickTimer = setInterval(() => void this.tick(), this.o.tickMs);
    this.heartbeatTimer = setInterval(() => void this.refreshStatus().then(() => this.broadcastHeartbeat()), this.o.heartbeatMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.tickTimer) clearInterval(this.tickTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    for (const s of this.statics) if (s.timer) clearTimeout(s.timer);
    for (const p of [...this.peers.values()]) this.closePeer(p);
    while (this.ticking) await new Promise((r) => setTimeout(r, 5));
  }

  /** Takes an inbound stream (the PeerService's Connect handler). */
  accept(link: PeerLink): void {
    if (!this.running) {
      link.close();
      return;
    }
    this.addPeer(link);
  }

  // ------------------------------------------------------------------ state

  /** Whether the node caught up with the highest milestone it knows of (own or peers'). */
  get synced(): boolean {
    return this.lag <= 0;
  }

  /**
   * Synced, or at most `syncTolerance` milestones behind (Hornet's "almost synced"): what SubmitBlock and health
   * require, so the few milliseconds between a peer's heartbeat announcing a new milestone and its confirmation
   * here do not refuse submissions.
   */
  get almostSynced(): boolean {
    return this.lag <= this.o.syncTolerance;
  }

  /** Connected peers that completed the handshake. */
  connectedPeers(): number {
    return new Set([...this.peers.values()].filter((p) => p.nodeId !== undefined && !p.closed).map((p) => p.nodeId)).size;
  }

  peerInfos(): PeerInfo[] {
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

  /** The highest milestone index a connected peer claims, or our own latest. */
  latestKnown(): number {
    let m = this.lastStatus.latest;
    for (const p of this.peers.values()) if (p.heartbeat && p.nodeId) m = Math.max(m, p.heartbeat.latestMilestoneIndex);
    return m;
  }

  private computeLag(): number {
    const { confirmed } = this.lastStatus;
    // a node with no peer at all has no one to catch up from: it stays usable (its health is the ledger's rule)
    if (!this.statics.some((s) => !s.self) && this.handshaken().length === 0) return 0;
    if (this.statics.some((s) => !s.self) && !this.heardHeartbeat && this.now() - this.started < this.o.startGraceMs) return Infinity;
    return Math.max(0, this.latestKnown() - confirmed);
  }

  private async refreshStatus(): Promise<void> {
    try {
      this.lastStatus = await this.port.status();
      this.lag = this.computeLag();
    } catch (e) {
      if (this.running) this.log.warn(`peering: cannot read the milestone status: ${(e as Error).message}`);
    }
  }

  // ------------------------------------------------------------------ connections

  private connectStatic(s: StaticPeer): void {
    if (!this.running || s.self || s.peer) return;
    let link: PeerLink;
    try {
      link = this.dial(s.address);
    } catch (e) {
      this.log.warn(`peer ${s.address}: cannot dial: ${(e as Error).message}`);
      this.scheduleRedial(s);
      return;
    }
    s.peer = this.addPeer(link, s);
  }

  private scheduleRedial(s: StaticPeer): void {
    if (!this.running || s.self || s.timer) return;
    const delay = Math.max(s.backoff.next(), s.bannedUntil - this.now());
    s.timer = setTimeout(() => {
      s.timer = undefined;
      this.connectStatic(s);
    }, delay);
  }

  private addPeer(link: PeerLink, s?: StaticPeer): Peer {
    const peer: Peer = { key: this.nextKey++, link, bucket: new TokenBucket(this.o.messageRate, this.o.messageBurst, this.now), unanswered: 0, closed: false };
    this.peers.set(peer.key, peer);
    link.onMessage((m) => this.receive(peer, m));
    link.onClose((reason) => {
      peer.closed = true;
      if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
      this.peers.delete(peer.key);
      if (peer.nodeId) this.log.info(`peer ${link.address} disconnected: ${reason}`);
      if (s && s.peer === peer) {
        s.peer = undefined;
        this.scheduleRedial(s);
      }
    });
    peer.handshakeTimer = setTimeout(() => {
      if (!peer.nodeId) this.drop(peer, 'no handshake in time', false);
    }, this.o.handshakeTimeoutMs);
    link.send({ kind: { $case: 'handshake', value: { networkName: this.port.network.networkName, nodeId: this.nodeId, protocol: PEER_PROTOCOL } } });
    return peer;
  }

  private closePeer(peer: Peer): void {
    if (peer.closed) return;
    peer.closed = true;
    peer.link.close();
  }

  /** Disconnects a peer; `ban`: its node ID (and its static address) is refused for banMs. */
  private drop(peer: Peer, reason: string, ban = true): void {
    if (peer.closed) return;
    this.stats.dropped++;
    this.log.warn(`peer ${peer.link.address}${peer.nodeId ? ` (${peer.nodeId})` : ''} dropped: ${reason}`);
    if (ban) {
      const until = this.now() + this.o.banMs;
      if (peer.nodeId) this.bans.set(peer.nodeId, until);
      const s = this.statics.find((x) => x.peer === peer);
      if (s) s.bannedUntil = until;
    }
    this.closePeer(peer);
  }

  // ------------------------------------------------------------------ receiving

  private receive(peer: Peer, m: PeerMessage): void {
    if (peer.closed) return;
    try {
      if (!peer.bucket.take()) bad(`more than ${this.o.messageRate} messages/s (burst ${this.o.messageBurst})`);
      const kind = m.kind;
      if (kind === undefined) bad('empty message');
      if (kind.$case === 'handshake') return this.handshake(peer, kind.value);
      if (!peer.nodeId) bad(`${kind.$case} before the handshake`);
      switch (kind.$case) {
        case 'heartbeat':
          peer.heartbeat = kind.value;
          this.heardHeartbeat = true;
          this.lag = this.computeLag();
          return;
        case 'block':
          this.stats.received++;
          return void this.receiveBlock(peer, kind.value.version, kind.value.data).catch((e: unknown) => this.blockFailed(peer, e));
        case 'blockRequest':
          return void this.answerBlockRequest(peer, kind.value.version, kind.value.blockId).catch((e: unknown) => this.blockFailed(peer, e));
        case 'milestoneRequest':
          return void this.answerMilestoneRequest(peer, kind.value.index).catch((e: unknown) => this.blockFailed(peer, e));
      }
    } catch (e) {
      this.blockFailed(peer, e);
    }
  }

  private blockFailed(peer: Peer, e: unknown): void {
    if (e instanceof Misbehaviour) this.drop(peer, e.message);
    else if (e instanceof ProtocolError || (e instanceof NodeError && e.code === 'INVALID_REQUEST')) this.drop(peer, `invalid block: ${e.message}`);
    else if (this.running) this.log.error(`peer ${peer.link.address}: failed to handle a message`, e);
  }

  private handshake(peer: Peer, h: { networkName: string; nodeId: Uint8Array; protocol: number }): void {
    if (peer.nodeId) bad('a second handshake');
    if (h.nodeId.length !== NODE_ID_BYTES) bad(`node ID of ${h.nodeId.length} bytes, expected ${NODE_ID_BYTES}`);
    const id = toHex(h.nodeId);
    if (equalBytes(h.nodeId, this.nodeId)) {
      const s = this.statics.find((x) => x.peer === peer);
      if (s) {
        s.self = true;
        this.log.warn(`peer ${s.address} is this node itself: not dialed again`);
      }
      this.closePeer(peer);
      return;
    }
    const banned = this.bans.get(id);
    if (banned !== undefined && banned > this.now()) return void this.drop(peer, 'banned', false);
    if (h.protocol !== PEER_PROTOCOL) return void this.drop(peer, `peer protocol ${h.protocol}, this node speaks ${PEER_PROTOCOL}`, false);
    if (h.networkName !== this.port.network.networkName) {
      return void this.drop(peer, `network "${h.networkName}" differs from this node's "${this.port.network.networkName}"`, false);
    }
    peer.nodeId = id;
    if (peer.handshakeTimer) clearTimeout(peer.handshakeTimer);
    const s = this.statics.find((x) => x.peer === peer);
    s?.backoff.reset();
    this.log.info(`peer ${peer.link.address} connected (${peer.link.inbound ? 'inbound' : 'outbound'}, node ${id})`);
    this.sendHeartbeat(peer);
  }

  private async receiveBlock(peer: Peer, version: BlockVersion, data: Uint8Array): Promise<void> {
    if (data.length === 0) bad('an empty block');
    if (data.length > LIMITS.maxBlockLength) bad(`a block of ${data.length} bytes (at most ${LIMITS.maxBlockLength})`);
    if (version === BlockVersion.BLOCK_VERSION_V2) return this.receiveV2(peer, data);
    if (version === BlockVersion.BLOCK_VERSION_V3) return this.receiveV3(peer, data);
    bad(`a block of unknown version ${version}`);
  }

  private async receiveV2(peer: Peer, data: Uint8Array): Promise<void> {
    const id = blockIdOfBytes(data);
    const k = toHex(id);
    const requested = this.outstanding.delete(k);
    if (!this.seen.add(k) && !requested) {
      this.stats.duplicates++;
      return;
    }
    this.arriving.set(k, { from: peer.key, requested });
    let accepted: Accepted;
    try {
      accepted = await this.port.accept(data, requested);
    } finally {
      this.arriving.delete(k);
    }
    const { block, result } = accepted;
    const isMilestone = block.payload?.type === PAYLOAD_MILESTONE;
    if (isMilestone) peer.unanswered = 0;
    if (!result.stored) {
      // Already held (e.g. a milestone asked for again after a restart): make sure it is tracked.
      if (isMilestone) this.noteMilestone(block, id);
      if (!result.solid) this.addRoot(k, id);
    }
  }

  /** The Attacher's listener: every newly stored block (ours or a peer's). */
  private stored(id: Uint8Array, block: Block, result: AttachResult): void {
    const k = toHex(id);
    this.seen.add(k);
    const from = this.arriving.get(k);
    if (block.payload?.type === PAYLOAD_MILESTONE) this.noteMilestone(block, id);
    if (!result.solid) {
      this.addRoot(k, id);
      if (this.running) void this.requestMissing(block.parents, from?.from).catch((e: unknown) => this.log.warn(`peering: cannot request missing parents: ${(e as Error).message}`));
    }
    if (from?.requested) return;
    this.gossip({ kind: { $case: 'block', value: { version: BlockVersion.BLOCK_VERSION_V2, data: new Uint8Array(0) } } }, from?.from, () => this.port.store.getBlock(id));
  }

  /** Remembers an unsolid block to solidify; the oldest is forgotten beyond `maxRoots` (milestones are tracked apart). */
  private addRoot(k: string, id: Uint8Array): void {
    if (this.roots.has(k)) return;
    if (this.roots.size >= this.o.maxRoots) this.roots.delete(this.roots.keys().next().value as string);
    this.roots.set(k, { id, since: this.now() });
  }

  private noteMilestone(block: Block, id: Uint8Array): void {
    if (block.payload?.type !== PAYLOAD_MILESTONE) return;
    let m = this.milestoneBlocks.get(block.payload.index);
    if (!m) this.milestoneBlocks.set(block.payload.index, (m = new Map()));
    m.set(toHex(id), id);
    this.milestoneRequests.delete(block.payload.index);
  }

  /** Sends a block message to every connected peer but `except`; the bytes are read once. */
  private gossip(template: PeerMessage, except: number | undefined, bytes: () => Promise<Uint8Array | undefined>): void {
    const targets = [...this.peers.values()].filter((p) => p.nodeId && !p.closed && p.key !== except);
    if (targets.length === 0) return;
    void bytes()
      .then((data) => {
        if (!data || template.kind?.$case !== 'block') return;
        const msg: PeerMessage = { kind: { $case: 'block', value: { version: template.kind.value.version, data } } };
        for (const p of targets) if (p.link.send(msg)) this.stats.gossiped++;
      })
      .catch((e: unknown) => {
        if (this.running) this.log.warn(`peering: cannot gossip a block: ${(e as Error).message}`);
      });
  }

  // ------------------------------------------------------------------ v3

  /** Gossips a v3 block this node accepted from a client (SubmitBlockV3) to every peer. */
  announceV3(blockId: Uint8Array): void {
    const k = toHex(blockId);
    if (!this.seen.add(k)) return;
    this.gossip({ kind: { $case: 'block', value: { version: BlockVersion.BLOCK_VERSION_V3, data: new Uint8Array(0) } } }, undefined, () => this.port.store.getBlock(blockId));
  }

  private async receiveV3(peer: Peer, data: Uint8Array): Promise<void> {
    const engine = this.port.v3;
    if (!engine) bad('a v3 block on a network without a v3 part');
    const id = blockIdV3(data, engine.params);
    const k = toHex(id);
    const requested = this.outstanding.delete(k);
    if (!this.seen.add(k) && !requested) {
      this.stats.duplicates++;
      return;
    }
    const block = decodeBlockV3(data, engine.params);
    const body = block.body;
    const parents = [...body.strongParents, ...body.weakParents, ...body.shallowLikeParents];
    const missing: Uint8Array[] = [];
    for (const p of parents) if (!equalBytes(p, engine.genesisBlockId) && !(await hasStoredBlock(this.port.store, p))) missing.push(p);
    if (missing.length > 0) {
      if (this.parked.size >= this.o.maxParked) this.parked.delete(this.parked.keys().next().value as string);
      this.parked.set(k, { bytes: data, parents, from: peer.key });
      for (const p of missing) this.request(p, BlockVersion.BLOCK_VERSION_V3, peer.key);
      return;
    }
    await this.submitV3(peer.key, data, id, requested);
  }

  private async submitV3(from: number, data: Uint8Array, id: Uint8Array, requested: boolean): Promise<void> {
    const engine = this.port.v3!;
    const had = await hasStoredBlock(this.port.store, id);
    await engine.submit({ raw: data });
    if (had) return;
    if (!requested) this.gossip({ kind: { $case: 'block', value: { version: BlockVersion.BLOCK_VERSION_V3, data: new Uint8Array(0) } } }, from, async () => data);
    await this.retryParked();
  }

  /** Submits parked v3 blocks whose parents all arrived. */
  private async retryParked(): Promise<void> {
    for (const [k, p] of [...this.parked]) {
      let ready = true;
      const engine = this.port.v3;
      if (!engine) return;
      for (const parent of p.parents) {
        if (!equalBytes(parent, engine.genesisBlockId) && !(await hasStoredBlock(this.port.store, parent))) {
          ready = false;
          break;
        }
      }
      if (!ready || !this.parked.delete(k)) continue;
      const peer = this.peers.get(p.from);
      try {
        await this.submitV3(p.from, p.bytes, blockIdV3(p.bytes, engine.params), false);
      } catch (e) {
        if (peer) this.blockFailed(peer, e);
      }
    }
  }

  // ------------------------------------------------------------------ answering requests

  private async answerBlockRequest(peer: Peer, version: BlockVersion, id: Uint8Array): Promise<void> {
    const want = version === BlockVersion.BLOCK_VERSION_V2 ? V2_ID : version === BlockVersion.BLOCK_VERSION_V3 ? V3_ID : bad(`a block request of unknown version ${version}`);
    if (id.length !== want) bad(`a block request with a ${id.length}-byte ID (expected ${want})`);
    const data = await this.port.store.getBlock(id);
    if (data) peer.link.send({ kind: { $case: 'block', value: { version, data } } });
  }

  private async answerMilestoneRequest(peer: Peer, index: number): Promise<void> {
    let id = await this.port.milestoneBlockId(index);
    if (!id) {
      const pending = this.milestoneBlocks.get(index);
      id = pending ? pending.values().next().value : undefined;
    }
    if (!id) return;
    const data = await this.port.store.getBlock(id);
    if (data) peer.link.send({ kind: { $case: 'block', value: { version: BlockVersion.BLOCK_VERSION_V2, data } } });
  }

  // ------------------------------------------------------------------ requesting

  private handshaken(): Peer[] {
    return [...this.peers.values()].filter((p) => p.nodeId && !p.closed);
  }

  /** Asks one peer for a block, unless a request for it is still outstanding. */
  private request(id: Uint8Array, version: BlockVersion, prefer?: number): boolean {
    const k = toHex(id);
    const now = this.now();
    const o = this.outstanding.get(k);
    if (o && now - o.at < this.o.requestTimeoutMs) return false;
    const peers = this.handshaken();
    if (peers.length === 0) return false;
    let peer = prefer !== undefined && !o ? peers.find((p) => p.key === prefer) : undefined;
    if (!peer) {
      const others = o ? peers.filter((p) => p.key !== o.peer) : peers;
      const pool = others.length > 0 ? others : peers;
      peer = pool[Math.floor(Math.random() * pool.length)]!;
    }
    // a block seen before but lost (e.g. its attach failed) must not be dropped as a duplicate when it comes back
    this.seen.delete(k);
    this.outstanding.set(k, { at: now, peer: peer.key, version });
    this.stats.requested++;
    return peer.link.send({ kind: { $case: 'blockRequest', value: { version, blockId: id } } });
  }

  /** Requests the parents of a new unsolid block that are not stored (first from the peer that sent the block). */
  private async requestMissing(parents: readonly Uint8Array[], prefer?: number): Promise<void> {
    for (const p of parents) {
      if (this.port.protocol.isSolidEntryPoint(p)) continue;
      if (!(await this.port.store.hasBlock(p))) this.request(p, BlockVersion.BLOCK_VERSION_V2, prefer);
    }
  }

  private requestMilestone(index: number): void {
    const now = this.now();
    const o = this.milestoneRequests.get(index);
    if (o && now - o.at < this.o.requestTimeoutMs) return;
    const candidates = this.handshaken().filter((p) => (p.heartbeat?.latestMilestoneIndex ?? 0) >= index && p.key !== o?.peer);
    const pool = candidates.length > 0 ? candidates : this.handshaken().filter((p) => (p.heartbeat?.latestMilestoneIndex ?? 0) >= index);
    if (pool.length === 0) return;
    if (o) {
      const previous = this.peers.get(o.peer);
      if (previous && ++previous.unanswered > MAX_UNANSWERED_MILESTONES) this.drop(previous, `claims milestone ${index} but does not serve it`);
    }
    const peer = pool[Math.floor(Math.random() * pool.length)]!;
    this.milestoneRequests.set(index, { at: now, peer: peer.key, version: BlockVersion.BLOCK_VERSION_V2 });
    this.stats.requested++;
    peer.link.send({ kind: { $case: 'milestoneRequest', value: { index } } });
  }

  // ------------------------------------------------------------------ the loop

  private async tick(): Promise<void> {
    if (this.ticking || !this.running) return;
    this.ticking = true;
    try {
      await this.refreshStatus();
      const { confirmed } = this.lastStatus;
      for (const index of [...this.milestoneBlocks.keys()]) if (index <= confirmed) this.milestoneBlocks.delete(index);
      for (const index of [...this.milestoneRequests.keys()]) if (index <= confirmed) this.milestoneRequests.delete(index);
      // sync: the next milestones by index
      const target = Math.min(this.latestKnown(), confirmed + this.o.syncWindow);
      for (let i = confirmed + 1; i <= target; i++) if (!this.milestoneBlocks.has(i)) this.requestMilestone(i);
      // solidification: the unsolid cones of milestones in the window first, then of other unsolid blocks
      let budget = this.o.requestsPerTick;
      for (let i = confirmed + 1; i <= confirmed + this.o.syncWindow && budget > 0; i++) {
        for (const id of this.milestoneBlocks.get(i)?.values() ?? []) budget -= await this.solidify(id, budget);
      }
      for (const [k, { id, since }] of [...this.roots]) {
        if (budget <= 0 || !this.running) break;
        const md = await this.port.store.getBlockMetadata(id);
        if (!md || md.solid || this.now() - since > this.o.rootTtlMs) {
          this.roots.delete(k);
          continue;
        }
        budget -= await this.solidify(id, budget);
      }
      const now = this.now();
      for (const [k, o] of this.outstanding) if (now - o.at > 20 * this.o.requestTimeoutMs) this.outstanding.delete(k);
      if (this.parked.size > 0) await this.retryParked();
      this.lag = this.computeLag();
    } catch (e) {
      if (this.running) this.log.error('peering: sync tick failed', e);
    } finally {
      this.ticking = false;
    }
  }

  /** Walks the unsolid part of `root`'s past cone and requests the missing blocks; returns how many it asked for. */
  private async solidify(root: Uint8Array, budget: number): Promise<number> {
    const store = this.port.store;
    const visited = new Set<string>([toHex(root)]);
    const stack: Uint8Array[] = [root];
    let asked = 0;
    while (stack.length > 0 && asked < budget && visited.size < 100_000) {
      const id = stack.pop()!;
      const md = await store.getBlockMetadata(id);
      if (!md) {
        if (this.request(id, BlockVersion.BLOCK_VERSION_V2)) asked++;
        continue;
      }
      if (md.solid) continue;
      const bytes = await store.getBlock(id);
      if (!bytes) continue;
      for (const p of decodeBlock(bytes).parents) {
        const k = toHex(p);
        if (visited.has(k) || this.port.protocol.isSolidEntryPoint(p)) continue;
        visited.add(k);
        stack.push(p);
      }
    }
    return asked;
  }

  // ------------------------------------------------------------------ heartbeats

  private heartbeat(): Heartbeat {
    const s = this.lastStatus;
    return { latestMilestoneIndex: s.latest, confirmedMilestoneIndex: s.confirmed, pruningIndex: s.pruning, connectedPeers: this.connectedPeers() };
  }

  private sendHeartbeat(peer: Peer): void {
    peer.link.send({ kind: { $case: 'heartbeat', value: this.heartbeat() } });
  }

  private broadcastHeartbeat(): void {
    if (!this.running) return;
    const msg: PeerMessage = { kind: { $case: 'heartbeat', value: this.heartbeat() } };
    for (const p of this.handshaken()) p.link.send(msg);
  }
}
