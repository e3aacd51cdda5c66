/**
 * The peer manager: the node's peers over gRPC (proto/peer.proto), gossip, solidification and sync. It builds the
 * parts of the peer layer, passes each its collaborators, starts and stops them, dispatches the peers' messages and
 * gossips new blocks:
 *
 *   PeerSet     peers.ts        streams, static peers and redials, handshake, drops and bans
 *   LinkWatch   liveness.ts     links silent for `linkTimeoutMs` closed, on either side
 *   Offers      offers.ts       blocks a peer may have missed while its link was down, offered when it is back
 *   SyncStatus  status.ts       milestone indexes (ours and the peers' heartbeats), "synced", heartbeats
 *   Requests    requests.ts     block and milestone requests (outstanding, retried), answers to the peers' requests
 *   Sync        sync.ts         the tick loop: solidification of unsolid cones, milestone sync
 *   V3Parking   v3-parking.ts   v3 blocks waiting for their parents
 *
 * Bounds (a peer is never trusted): every message costs a token of the peer's bucket (rate + burst); a message
 * before the handshake, an ID of the wrong length, a block over 32768 bytes, undecodable or syntactically invalid,
 * an unrequested block below the minimum PoW score, a milestone whose signatures do not verify, or a peer that
 * keeps claiming milestones it never delivers: the peer is disconnected, and on a stream this node dialed its node
 * ID banned for `banMs` (a static peer is redialed only after the ban; peers.ts drop says why not inbound). Undecodable
 * protobuf ends the stream in gRPC itself.
 *
 * Blocks from peers take the node's own path: decode (strict), protocol version, syntactic validation, PoW
 * (except blocks we requested, as Hornet, and milestone blocks whose nonce is 0), then the Attacher (atomic store,
 * solidity, tips, milestone processing). A seen-set of block IDs drops duplicates before any decoding. New blocks
 * are gossiped to every other peer; blocks we requested (solidification, sync) are not re-gossiped.
 */
import { fromHex0x, toHex, toHex0x } from '../../core/bytes.ts';
import { ProtocolError } from '../../core/errors.ts';
import { blockId as blockIdOfBytes } from '../../core/ids/index.ts';
import { LIMITS, PAYLOAD_MILESTONE, type Block } from '../../core/model/index.ts';
import { BlockVersion, type PeerMessage } from '../../grpc/gen/peer.ts';
import { NodeError } from '../support/errors.ts';
import type { AttachResult } from '../tangle/attach.ts';
import type { Accepted } from '../tangle/intake.ts';
import { peerTarget } from './addresses.ts';
import { settingsOf, type PeeringContext, type PeeringOptions, type PeeringStats } from './context.ts';
import { emptyTraffic, type Traffic } from './gossip-metrics.ts';
import { ephemeralIdentity, nodeIdOf, type PeerIdentity } from './handshake.ts';
import { SeenSet } from './limits.ts';
import { LinkWatch } from './liveness.ts';
import { Offers } from './offers.ts';
import { snapshotRefusal } from './snapshot-server.ts';
import { dialPeer, type PeerLink } from './link.ts';
import { PeerSet, type Peer, type PeerInfo } from './peers.ts';
import type { PeeringFile } from './peering-file.ts';
import type { PeeringPort } from './port.ts';
import { Requests } from './requests.ts';
import { SyncStatus } from './status.ts';
import { Sync } from './sync.ts';
import { V3Parking } from './v3-parking.ts';
import { bad, blockMessage, Misbehaviour } from './wire.ts';

export type { PeeringOptions, PeeringStats } from './context.ts';
export type { PeerInfo } from './peers.ts';
export type { GossipCounters, MessageKind, Traffic } from './gossip-metrics.ts';
export { PEER_PROTOCOL } from './wire.ts';

export class PeerManager {
  /** The node's identity key, and the node ID derived from it (handshake.ts). */
  readonly identity: PeerIdentity;
  readonly nodeId: Uint8Array;
  readonly stats: PeeringStats = { received: 0, duplicates: 0, gossiped: 0, requested: 0, dropped: 0, offered: 0 };
  /** Messages sent and received by kind, every peer together. */
  readonly traffic: Traffic = emptyTraffic();
  private readonly ctx: PeeringContext;
  private readonly seen: SeenSet;
  private readonly peers: PeerSet;
  private readonly watch: LinkWatch;
  private readonly offers: Offers;
  private readonly status: SyncStatus;
  private readonly requests: Requests;
  private readonly parking: V3Parking;
  private readonly sync: Sync;
  /** Blocks just received from a peer: hex ID -> (sender, requested), read by the stored listener. */
  private readonly arriving = new Map<string, { from: number; requested: boolean }>();
  private running = false;
  /** The peers added at run time, kept across restarts (peering-file.ts); none for a node without a data folder. */
  private readonly file: PeeringFile | undefined;

  constructor(
    private readonly port: PeeringPort,
    options: PeeringOptions,
  ) {
    this.identity = options.identity ?? ephemeralIdentity();
    this.nodeId = nodeIdOf(this.identity.publicKey);
    const settings = settingsOf(options);
    this.ctx = {
      settings,
      log: options.logger,
      now: options.now ?? Date.now,
      stats: this.stats,
      traffic: this.traffic,
      running: () => this.running,
    };
    this.seen = new SeenSet(settings.seenCapacity);
    this.peers = new PeerSet(this.ctx, this.identity, port.network, options.dial ?? dialPeer, options.peers, {
      message: (peer, m) => this.receive(peer, m),
      connected: (peer) => {
        this.status.greet(peer);
        this.offers.connected(peer);
        const saved = this.peers.staticAddressOf(peer);
        if (saved !== undefined && peer.hello) this.file?.learned(saved, toHex0x(peer.hello.publicKey));
      },
      disconnected: (peer) => this.offers.disconnected(peer),
    });
    this.file = options.peeringFile;
    for (const p of this.file?.peers() ?? [])
      this.peers.addStatic(p.address, p.alias, p.identity === undefined ? undefined : fromHex0x(p.identity));
    this.watch = new LinkWatch(this.ctx, this.peers);
    this.offers = new Offers(this.ctx, port, this.peers);
    this.status = new SyncStatus(this.ctx, this.peers, () => port.status(), options.sync);
    this.requests = new Requests(this.ctx, port, this.peers, this.seen, (index) => this.sync.pendingMilestone(index));
    this.parking = new V3Parking(
      this.ctx,
      port,
      this.requests,
      this.peers,
      (version, except, bytes) => this.gossip(version, except, bytes),
      (peer, e) => this.blockFailed(peer, e),
    );
    this.sync = new Sync(this.ctx, port, this.requests, this.status, this.parking);
    port.onStored((id, block, result) => this.stored(id, block, result));
    port.onConfirmed(() => this.status.announce());
  }

  // ------------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.status.start();
    this.peers.connectStatics();
    this.sync.start();
    this.status.startHeartbeats();
    this.watch.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.watch.stop();
    this.sync.stop();
    this.status.stop();
    this.peers.closeAll();
    await this.sync.idle();
  }

  /** Takes an inbound stream (the PeerService's Connect handler). */
  accept(link: PeerLink): void {
    if (!this.running) {
      link.close();
      return;
    }
    this.peers.accept(link);
  }

  // ------------------------------------------------------------------ state

  /** Whether the node caught up with the highest milestone it knows of (own or peers'). */
  get synced(): boolean {
    return this.status.synced;
  }

  /**
   * Synced, or at most `syncTolerance` milestones behind (Hornet's "almost synced"): what SubmitBlock and health
   * require, so the few milliseconds between a peer's heartbeat announcing a new milestone and its confirmation
   * here do not refuse submissions.
   */
  get almostSynced(): boolean {
    return this.status.almostSynced;
  }

  /** Connected peers that completed the handshake. */
  connectedPeers(): number {
    return this.peers.connectedPeers();
  }

  /** Every peer, as the peers routes show them (peers.ts PeerInfo). */
  peerInfos(): PeerInfo[] {
    return this.peers.infos();
  }

  /** One peer by its ID (node ID, or a static peer's address); NOT_FOUND when unknown. */
  peerInfo(id: string): PeerInfo {
    const key = id.toLowerCase();
    const info = this.peers.infos().find((p) => p.id === key || p.id === id || p.address === id);
    if (!info) throw new NodeError('NOT_FOUND', `peer not found: ${id}`);
    return info;
  }

  /**
   * Adds a static peer at run time (`host:port`, or a multiaddress /ip4|ip6|dns/HOST/tcp/PORT, either optionally
   * preceded by `0xPUBKEY@`): dialed at once and redialed with backoff like a `--peer`, until removed; written to the
   * peering file, so dialed again after a restart. Returns it as listed.
   */
  addPeer(address: string, alias?: string): PeerInfo {
    const { address: dial, publicKey } = peerTarget(address);
    this.peers.addStatic(dial, alias, publicKey);
    const info = this.peers.infos().find((p) => p.address === dial);
    if (!info) throw new NodeError('INVALID_REQUEST', `peer ${dial} is this node itself`);
    this.file?.save({
      address: dial,
      ...(alias !== undefined ? { alias } : {}),
      ...(publicKey ? { identity: toHex0x(publicKey) } : {}),
    });
    return info;
  }

  /**
   * Disconnects a peer and forgets it as a static peer, also in the peering file (a `--peer` comes back at the next
   * start: the configuration names it); NOT_FOUND when unknown.
   */
  removePeer(id: string): void {
    const info = this.peers.infos().find((p) => p.id === id.toLowerCase() || p.id === id || p.address === id);
    if (!this.peers.remove(id)) throw new NodeError('NOT_FOUND', `peer not found: ${id}`);
    this.file?.remove({ address: info?.address ?? id });
    this.status.recompute();
  }

  /** The highest milestone index a connected peer claims, or our own latest. */
  latestKnown(): number {
    return this.status.latestKnown();
  }

  // ------------------------------------------------------------------ receiving

  private receive(peer: Peer, m: PeerMessage): void {
    if (peer.closed) return;
    try {
      const { messageRate, messageBurst } = this.ctx.settings;
      if (!peer.bucket.take()) bad(`more than ${messageRate} messages/s (burst ${messageBurst})`);
      const kind = m.kind;
      if (kind === undefined) bad('empty message');
      if (kind.$case === 'handshake') {
        this.peers.handshake(peer, kind.value);
        return;
      }
      if (kind.$case === 'handshakeProof') {
        this.peers.proof(peer, kind.value.signature);
        return;
      }
      if (!peer.nodeId) bad(`${kind.$case} before the handshake`);
      switch (kind.$case) {
        case 'heartbeat':
          this.status.heard(peer, kind.value);
          return;
        case 'block':
          this.stats.received++;
          return void this.receiveBlock(peer, kind.value.version, kind.value.data).catch((e: unknown) =>
            this.blockFailed(peer, e),
          );
        case 'blockRequest':
          return void this.requests
            .answerBlock(peer, kind.value.version, kind.value.blockId)
            .catch((e: unknown) => this.blockFailed(peer, e));
        case 'milestoneRequest':
          return void this.requests
            .answerMilestone(peer, kind.value.index)
            .catch((e: unknown) => this.blockFailed(peer, e));
        case 'snapshotRequest':
          if (!this.port.snapshots) return void peer.link.send(snapshotRefusal('this node serves no snapshots'));
          return void this.port.snapshots
            .offer(peer, kind.value)
            .catch((e: unknown) =>
              this.ctx.log.warn(`peer ${peer.link.address}: snapshot offer failed: ${(e as Error).message}`),
            );
        case 'snapshotOffer':
          bad('a snapshot offer nobody asked for');
      }
    } catch (e) {
      this.blockFailed(peer, e);
    }
  }

  private blockFailed(peer: Peer, e: unknown): void {
    if (e instanceof Misbehaviour) this.peers.drop(peer, e.message);
    else if (e instanceof ProtocolError || (e instanceof NodeError && e.code === 'INVALID_REQUEST'))
      this.peers.drop(peer, `invalid block: ${e.message}`);
    else if (this.running) this.ctx.log.error(`peer ${peer.link.address}: failed to handle a message`, e);
  }

  private async receiveBlock(peer: Peer, version: BlockVersion, data: Uint8Array): Promise<void> {
    if (data.length === 0) bad('an empty block');
    if (data.length > LIMITS.maxBlockLength) bad(`a block of ${data.length} bytes (at most ${LIMITS.maxBlockLength})`);
    if (version === BlockVersion.BLOCK_VERSION_V2) return this.receiveV2(peer, data);
    if (version === BlockVersion.BLOCK_VERSION_V3) return this.parking.receive(peer, data);
    bad(`a block of unknown version ${version}`);
  }

  private async receiveV2(peer: Peer, data: Uint8Array): Promise<void> {
    const id = blockIdOfBytes(data);
    const k = toHex(id);
    const arrival = this.requests.arrival(k);
    if (arrival === 'duplicate') {
      peer.metrics.knownBlocks++;
      this.port.blockSeen?.();
      return;
    }
    const requested = arrival === 'requested';
    this.arriving.set(k, { from: peer.key, requested });
    let accepted: Accepted;
    try {
      accepted = await this.port.accept(data, requested);
    } finally {
      this.arriving.delete(k);
    }
    const { block, result } = accepted;
    if (result.stored) peer.metrics.newBlocks++;
    else peer.metrics.knownBlocks++;
    const isMilestone = block.payload?.type === PAYLOAD_MILESTONE;
    if (isMilestone) peer.unanswered = 0;
    if (!result.stored) {
      // Already held (e.g. a milestone asked for again after a restart): make sure it is tracked.
      if (isMilestone) this.sync.noteMilestone(block, id);
      if (!result.solid) this.sync.addRoot(k, id);
    }
  }

  /** The Attacher's listener: every newly stored block (ours or a peer's). */
  private stored(id: Uint8Array, block: Block, result: AttachResult): void {
    const k = toHex(id);
    this.seen.add(k);
    const from = this.arriving.get(k);
    if (block.payload?.type === PAYLOAD_MILESTONE) this.sync.noteMilestone(block, id);
    if (!result.solid) {
      this.sync.addRoot(k, id);
      if (this.running)
        void this.requests
          .requestMissing(block.parents, from?.from)
          .catch((e: unknown) => this.ctx.log.warn(`peering: cannot request missing parents: ${(e as Error).message}`));
    }
    if (from?.requested) return;
    this.offers.noteGossiped(id, from === undefined ? undefined : this.peers.get(from.from)?.nodeId);
    this.gossip(BlockVersion.BLOCK_VERSION_V2, from?.from, () => this.port.store.getBlock(id));
  }

  // ------------------------------------------------------------------ gossip

  /** Gossips a v3 block this node accepted from a client (SubmitBlockV3) to every peer. */
  announceV3(blockId: Uint8Array): void {
    const k = toHex(blockId);
    if (!this.seen.add(k)) return;
    this.gossip(BlockVersion.BLOCK_VERSION_V3, undefined, () => this.port.store.getBlock(blockId));
  }

  /** Sends a block message to every connected peer but `except`; the bytes are read once. */
  private gossip(
    version: BlockVersion,
    except: number | undefined,
    bytes: () => Promise<Uint8Array | undefined>,
  ): void {
    const targets = this.peers.handshaken().filter((p) => p.key !== except);
    if (targets.length === 0) return;
    void bytes()
      .then((data) => {
        if (!data) return;
        const msg = blockMessage(version, data);
        for (const p of targets) if (p.link.send(msg)) this.stats.gossiped++;
      })
      .catch((e: unknown) => {
        if (this.running) this.ctx.log.warn(`peering: cannot gossip a block: ${(e as Error).message}`);
      });
  }
}
