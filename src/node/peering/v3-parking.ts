/**
 * v3 (IOTA 2.0) blocks from peers. They travel on the same streams as v2 blocks: a v3 block whose parents are not
 * all known yet is parked (at most `maxParked`, the oldest forgotten first) and its missing parents are requested
 * from the sender; it goes to the V3 engine's own submission path once they are there. New v3 blocks are gossiped
 * on, blocks we requested are not. A block naming a missing parent of a slot this node pruned is dropped: the parent
 * is not requested (pruned history is not fetched back) and the sender, which may keep it, is not blamed.
 */
import { equalBytes, toHex } from '../../core/bytes.ts';
import { blockIdV3, decodeBlockV3 } from '../../core/v3/index.ts';
import { BlockVersion } from '../../grpc/gen/peer.ts';
import type { V3Engine } from '../v3/engine.ts';
import type { PeeringContext } from './context.ts';
import type { Peer, PeerSet } from './peers.ts';
import { hasStoredBlock, type PeeringPort } from './port.ts';
import type { Requests } from './requests.ts';
import { bad } from './wire.ts';

/** Sends a block to every handshaken peer but `except`; the bytes are read once, only when there is a peer. */
export type Gossip = (
  version: BlockVersion,
  except: number | undefined,
  bytes: () => Promise<Uint8Array | undefined>,
) => void;

export type ParkingRequests = Pick<Requests, 'arrival' | 'request'>;

interface Parked {
  bytes: Uint8Array;
  parents: Uint8Array[];
  /** The sender's peer key. */
  from: number;
}

export class V3Parking {
  /** v3 blocks waiting for parents: hex ID -> bytes, parents, sender. */
  private readonly parked = new Map<string, Parked>();

  constructor(
    private readonly ctx: PeeringContext,
    private readonly port: Pick<PeeringPort, 'store' | 'v3'>,
    private readonly requests: ParkingRequests,
    private readonly peers: Pick<PeerSet, 'get'>,
    private readonly gossip: Gossip,
    /** A parked block failed once submitted: its sender's fault or not (the PeerManager decides). */
    private readonly failed: (peer: Peer, e: unknown) => void,
  ) {}

  /** A v3 block from `peer`: submitted when its parents are known, else parked. */
  async receive(peer: Peer, data: Uint8Array): Promise<void> {
    const engine = this.port.v3;
    if (!engine) bad('a v3 block on a network without a v3 part');
    const id = blockIdV3(data, engine.params);
    const k = toHex(id);
    const arrival = this.requests.arrival(k);
    if (arrival === 'duplicate') return;
    const block = decodeBlockV3(data, engine.params);
    const body = block.body;
    const parents = [...body.strongParents, ...body.weakParents, ...body.shallowLikeParents];
    const missing: Uint8Array[] = [];
    for (const p of parents) if (await this.isMissing(engine, p)) missing.push(p);
    if (missing.some((p) => engine.inPrunedSlot(p))) return;
    if (missing.length > 0) {
      if (this.parked.size >= this.ctx.settings.maxParked)
        this.parked.delete(this.parked.keys().next().value as string);
      this.parked.set(k, { bytes: data, parents, from: peer.key });
      for (const p of missing) this.requests.request(p, BlockVersion.BLOCK_VERSION_V3, peer.key);
      return;
    }
    await this.submit(peer.key, data, id, arrival === 'requested');
  }

  /** Submits parked v3 blocks whose parents all arrived. */
  async retry(): Promise<void> {
    if (this.parked.size === 0) return;
    for (const [k, p] of [...this.parked]) {
      let ready = true;
      const engine = this.port.v3;
      if (!engine) return;
      for (const parent of p.parents) {
        if (await this.isMissing(engine, parent)) {
          ready = false;
          break;
        }
      }
      if (!ready || !this.parked.delete(k)) continue;
      const peer = this.peers.get(p.from);
      try {
        await this.submit(p.from, p.bytes, blockIdV3(p.bytes, engine.params), false);
      } catch (e) {
        if (peer) this.failed(peer, e);
      }
    }
  }

  /** Whether a parent is neither the genesis block nor stored. */
  private async isMissing(engine: V3Engine, parent: Uint8Array): Promise<boolean> {
    return !equalBytes(parent, engine.genesisBlockId) && !(await hasStoredBlock(this.port.store, parent));
  }

  private async submit(from: number, data: Uint8Array, id: Uint8Array, requested: boolean): Promise<void> {
    const engine = this.port.v3!;
    const had = await hasStoredBlock(this.port.store, id);
    await engine.submit({ raw: data });
    if (had) return;
    if (!requested) this.gossip(BlockVersion.BLOCK_VERSION_V3, from, async () => data);
    await this.retry();
  }
}
