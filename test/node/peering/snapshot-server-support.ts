/**
 * A rig for the snapshot server's tests (src/node/peering/snapshot-server.ts): a node (pruning/support.ts) with a
 * ledger of a few hundred outputs (so its snapshot takes several chunks) and enough milestones for a snapshot
 * (belowMaxDepth + 5 below the confirmed one), servers on it in folders of a temporary root, peers that record the
 * messages they get, DownloadSnapshot calls whose `write` answers what the test says (false: backpressure) and whose
 * errors are recorded, and the clock of the tickets and of the once-a-minute rule, which the test moves.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { status as Status, ServerWritableStream } from '@grpc/grpc-js';
import { blake2b } from '@noble/hashes/blake2.js';
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { outputId, transactionIdOf } from '../../../src/core/ids/index.ts';
import type { TransactionPayload } from '../../../src/core/model/index.ts';
import { LEDGER_META } from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, META } from '../../../src/core/store/index.ts';
import type { PeerMessage, SnapshotChunk, SnapshotDownload, SnapshotOffer } from '../../../src/grpc/gen/peer.ts';
import type { Genesis } from '../../../src/node/genesis/genesis.ts';
import {
  CHUNK_BYTES,
  SnapshotServer,
  type RequestingPeer,
  type SnapshotServingSettings,
} from '../../../src/node/peering/snapshot-server.ts';
import { EXTRA_HISTORY } from '../../../src/node/pruning/pruner.ts';
import type { TestNode } from '../../../harness/node.ts';
import { addressOf, basicOutput, type Coin, spend, until } from '../support.ts';
import { genesisCoins, milestones, openNode, submit, testGenesis, walletSeed } from '../pruning/support.ts';

/** A peer as the peer layer hands it to the server: its node ID and a link whose messages are kept. */
export interface FakePeer extends RequestingPeer {
  sent: PeerMessage[];
}

export function fakePeer(nodeId: string | undefined, address = `${nodeId ?? 'anonymous'}.peer:15600`): FakePeer {
  const sent: PeerMessage[] = [];
  return {
    ...(nodeId === undefined ? {} : { nodeId }),
    sent,
    link: {
      address,
      send: (m) => {
        sent.push(m);
        return true;
      },
    },
  };
}

/** The last offer (or refusal) a peer got. */
export function lastOffer(p: FakePeer): SnapshotOffer {
  const m = p.sent.at(-1);
  if (m?.kind?.$case !== 'snapshotOffer') throw new Error(`peer ${p.link.address} got no snapshot offer`);
  return m.kind.value;
}

/**
 * A DownloadSnapshot call: `write` records the chunk and answers `accept` (false: the stream's buffer is full, wait
 * for 'drain'); errors the server emits are recorded. Like a grpc-js stream, after 'close' it takes no more chunks.
 */
export class FakeCall extends EventEmitter {
  readonly chunks: SnapshotChunk[] = [];
  readonly errors: { code: number; details: string }[] = [];
  ended = false;
  closed = false;
  /** Writes tried after the stream closed. */
  late = 0;
  accept: boolean;
  constructor(
    readonly request: SnapshotDownload,
    options: { stall?: boolean } = {},
  ) {
    super();
    this.accept = !options.stall;
    this.on('error', (e: { code: number; details: string }) => this.errors.push(e));
  }
  write(chunk: SnapshotChunk): boolean {
    if (this.closed) {
      this.late++;
      return false;
    }
    this.chunks.push(chunk);
    return this.accept;
  }
  end(): void {
    this.ended = true;
  }
  getPeer(): string {
    return 'ipv4:127.0.0.1:40000';
  }
  close(): void {
    this.closed = true;
    this.emit('close');
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks.map((c) => c.data));
  }
  get settled(): boolean {
    return this.ended || this.errors.length > 0;
  }
}

/** Lets the event loop run a while (file reads, timers) so a wrong step would have happened. */
export const settleDown = (): Promise<void> => new Promise((r) => setTimeout(r, 40));

/** Spends `coin` into `n` outputs of `amount` to `seed`'s own address plus the change. */
function fanOut(
  g: Genesis,
  seed: Uint8Array,
  coin: Coin,
  n: number,
  amount: bigint,
): { tx: TransactionPayload; change: Coin } {
  const own = addressOf(seed);
  const outputs = [
    ...Array.from({ length: n }, () => basicOutput(amount, own)),
    basicOutput(coin.output.amount - amount * BigInt(n), own),
  ];
  const tx = spend(g, seed, coin, outputs);
  return { tx, change: { outputId: outputId(transactionIdOf(tx), n), output: outputs[n]! } };
}

/** The file name of the snapshot of milestone `index`. */
export const snapshotFile = (index: number): string => `snapshot-${index}.json`;

/** The snapshot files in `dir`, sorted. */
export const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);

/** The node, its servers and the downloads of one suite (`snapshotServing`). */
export class SnapshotServing {
  node!: TestNode;
  root = '';
  /** The milestone a new snapshot is written at: belowMaxDepth + 5 below the confirmed one. */
  target = 0;
  /** The servers' clock (ms). */
  clock = 1_700_000_000_000;
  private dirs = 0;
  readonly servers: SnapshotServer[] = [];
  readonly calls: FakeCall[] = [];

  /** A server in a folder of its own, on the node and the test's clock. */
  serve = (settings: Partial<SnapshotServingSettings> = {}): { server: SnapshotServer; dir: string } => {
    const { testing, logger } = this.node;
    const dir = join(this.root, `peers-${this.dirs++}`);
    const server = new SnapshotServer(
      {
        store: testing.store,
        network: testing.network,
        pruneHold: (fn) => testing.pruner.exclusive(fn),
        attachHold: (fn) => testing.writeLock(fn),
        dir,
        logger,
        now: () => this.clock,
      },
      settings,
    );
    this.servers.push(server);
    return { server, dir };
  };

  ask = async (server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> => {
    await server.offer(p, { index });
    return lastOffer(p);
  };

  /** Asks for an offer and expects one (not a refusal). */
  offered = async (server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> => {
    const o = await this.ask(server, p, index);
    expect(o.reason, `the offer to ${p.link.address}`).to.equal('');
    expect(o.index).to.be.greaterThan(0);
    return o;
  };

  /**
   * An offer to a peer whose download just ended: the stream ends (end()) a moment before the server lets go of the
   * download's slot (once its file is closed), so an offer right after may still find it under way.
   */
  offeredWhenFree = async (server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> => {
    await until(
      'the ended download lets go of its slot',
      async () => !/under way/.test((await this.ask(server, p, index)).reason),
      10_000,
    );
    return this.offered(server, p, index);
  };

  download = (
    server: SnapshotServer,
    ticket: Uint8Array,
    options: { offset?: bigint; stall?: boolean } = {},
  ): FakeCall => {
    const call = new FakeCall({ ticket, offset: options.offset ?? 0n }, options);
    this.calls.push(call);
    server.download(call as unknown as ServerWritableStream<SnapshotDownload, SnapshotChunk>);
    return call;
  };

  /** A download that went through: ended, no error, exactly the offered bytes from `offset` on. */
  completes = async (call: FakeCall, offer: SnapshotOffer, offset = 0): Promise<void> => {
    await until('the download ends', () => call.settled, 10_000);
    expect(call.errors).to.deep.equal([]);
    expect(call.ended).to.equal(true);
    expect(call.bytes.length).to.equal(Number(offer.size) - offset);
    let position = BigInt(offset);
    for (const c of call.chunks) {
      expect(c.offset).to.equal(position);
      expect(c.data.length).to.be.within(1, CHUNK_BYTES);
      position += BigInt(c.data.length);
    }
    if (offset === 0) expect(toHex(blake2b(call.bytes, { dkLen: 32 }))).to.equal(toHex(offer.hash));
  };

  refusedWith = async (call: FakeCall, code: Status, details: RegExp): Promise<void> => {
    await until('the download is refused', () => call.settled, 10_000);
    expect(call.ended, 'the stream was ended as if complete').to.equal(false);
    expect(call.chunks).to.have.length(0);
    expect(call.errors).to.have.length(1);
    expect(call.errors[0]!.code, call.errors[0]!.details).to.equal(code);
    expect(call.errors[0]!.details).to.match(details);
  };

  /** A download stalled after its first chunk (the stream's buffer is full). */
  stalled = async (server: SnapshotServer, ticket: Uint8Array): Promise<FakeCall> => {
    const call = this.download(server, ticket, { stall: true });
    await until('the first chunk is written', () => call.chunks.length === 1, 10_000);
    return call;
  };
}

/**
 * The rig of one suite: the node and its ledger before the tests, and after each test its stalled downloads ended
 * (as when their clients go) and its servers stopped; the node stopped and the folders removed after the suite.
 */
export function snapshotServing(): SnapshotServing {
  const rig = new SnapshotServing();
  before(async () => {
    const g = testGenesis();
    rig.node = await openNode(new MemoryKeyValueStore(), g);
    const { testing } = rig.node;
    // a few hundred outputs first, so that a snapshot is several chunks long
    let coin = genesisCoins(g)[0]!;
    for (let i = 0; i < 3; i++) {
      const { tx, change } = fanOut(g, walletSeed(g), coin, 127, 1_000_000n);
      await submit(testing, tx);
      await testing.coordinator!.issue();
      coin = change;
    }
    await milestones(testing, 24, 1);
    const confirmed = (await testing.store.getMeta(META.ledgerIndex))!;
    const params = (await testing.store.getMeta(LEDGER_META.protocolParameters))!;
    rig.target = confirmed - (params.belowMaxDepth + EXTRA_HISTORY);
    expect(rig.target, 'room for snapshots of five milestones').to.be.at.least(5);
    rig.root = mkdtempSync(join(tmpdir(), 'snapshot-server-test-'));
  });
  afterEach(async () => {
    // a download a test left stalled ends as when its client goes
    for (const c of rig.calls.splice(0)) if (!c.settled && !c.closed) c.emit('cancelled');
    for (const s of rig.servers.splice(0)) s.stop();
    await settleDown();
  });
  after(async () => {
    await rig.node?.close();
    if (rig.root) rmSync(rig.root, { recursive: true, force: true });
  });
  return rig;
}
