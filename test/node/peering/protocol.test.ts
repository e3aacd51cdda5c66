/**
 * The peer stream protocol (src/node/peering) over in-memory links: handshake rules, per-peer bounds (rate, sizes,
 * IDs, invalid blocks -> disconnect and ban), duplicate suppression, requests for missing parents, sync state and
 * the 503 of SubmitBlock while behind, reconnect backoff; plus the limits' building blocks.
 */
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { BlockVersion, type PeerMessage } from '../../../src/grpc/gen/peer.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { devGenesis } from '../../../src/node/genesis/genesis.ts';
import { createNetwork } from '../../../src/node/genesis/network.ts';
import { Backoff, SeenSet, TokenBucket } from '../../../src/node/peering/limits.ts';
import { settingsOf, type PeeringContext } from '../../../src/node/peering/context.ts';
import { MAX_MILESTONE_BLOCKS, Sync, type SyncRequests, type SyncStatusView } from '../../../src/node/peering/sync.ts';
import type { PeeringPort } from '../../../src/node/peering/port.ts';
import type { Block } from '../../../src/core/model/index.ts';
import type { PeerLink } from '../../../src/node/peering/link.ts';
import type { PeerManager, PeeringOptions } from '../../../src/node/peering/manager.ts';
import { composeNode } from '../../../src/node/compose.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';

/** One end of an in-memory stream; `remote` is what the test drives as the other peer. */
class MemLink implements PeerLink {
  readonly sent: PeerMessage[] = [];
  closed = false;
  closeReason = '';
  private readonly messageListeners: ((m: PeerMessage) => void)[] = [];
  private readonly closeListeners: ((r: string) => void)[] = [];
  constructor(
    readonly address: string,
    readonly inbound: boolean,
  ) {}
  send(m: PeerMessage): boolean {
    if (this.closed) return false;
    this.sent.push(m);
    return true;
  }
  close(): void {
    this.end('closed by this node');
  }
  end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    for (const l of this.closeListeners.splice(0)) l(reason);
  }
  onMessage(l: (m: PeerMessage) => void): void {
    this.messageListeners.push(l);
  }
  onClose(l: (r: string) => void): void {
    this.closeListeners.push(l);
  }
  /** The remote peer sends `m` to the node. */
  deliver(m: PeerMessage): void {
    for (const l of this.messageListeners) l(m);
  }
  of<K extends NonNullable<PeerMessage['kind']>['$case']>(kind: K): PeerMessage[] {
    return this.sent.filter((m) => m.kind?.$case === kind);
  }
}

const NETWORK = 'peering-test';
const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await tick(5);
  }
}

interface Harness {
  manager: PeerManager;
  service: NodeServiceImpl;
  store: NodeStore;
  logger: CollectingLogger;
  sep: Uint8Array;
  connect(): Promise<MemLink>;
  close(): Promise<void>;
}

async function harness(options: Partial<PeeringOptions> = {}, minPowScore = 0): Promise<Harness> {
  const store = await NodeStore.open(new MemoryKeyValueStore());
  const g = devGenesis({ minPowScore, timestamp: 1700000000 });
  g.protocol.networkName = NETWORK;
  const network = await createNetwork(store, g);
  const logger = new CollectingLogger();
  const parts = await composeNode({
    store,
    network,
    version: 'test',
    logger,
    peering: { tickMs: 10, heartbeatMs: 50, requestTimeoutMs: 100, ...options },
  });
  const { service, peering: manager } = parts;
  await manager.start();
  return {
    manager,
    service,
    store,
    logger,
    sep: parts.protocol.solidEntryPoints[0]!,
    async connect() {
      const link = new MemLink(`mem-${Math.random()}`, true);
      manager.accept(link);
      const peer = new TestPeer();
      link.deliver(peer.hello(NETWORK));
      link.deliver(peer.proof(NETWORK, link.of('handshake')[0]!));
      link.deliver({
        kind: {
          $case: 'heartbeat',
          value: {
            latestMilestoneIndex: 0,
            confirmedMilestoneIndex: 0,
            pruningIndex: 0,
            connectedPeers: 1,
            syncedPeers: 0,
          },
        },
      });
      return link;
    },
    async close() {
      await parts.stop();
      await store.close();
    },
  };
}

function tagged(parents: Uint8Array[], n: number): { bytes: Uint8Array; id: Uint8Array } {
  const bytes = encodeBlock({
    protocolVersion: 2,
    parents,
    payload: { type: 5, tag: new Uint8Array([n & 0xff, n >> 8]), data: new Uint8Array([n & 0xff]) },
    nonce: 0n,
  });
  return { bytes, id: blockIdOf(bytes) };
}

const blockMsg = (data: Uint8Array, version = BlockVersion.BLOCK_VERSION_V2): PeerMessage => ({
  kind: { $case: 'block', value: { version, data } },
});

describe('peering: building blocks', () => {
  it('TokenBucket allows a burst, then the rate', () => {
    let t = 0;
    const b = new TokenBucket(10, 3, () => t);
    expect([b.take(), b.take(), b.take(), b.take()]).to.deep.equal([true, true, true, false]);
    t += 100; // one token back
    expect([b.take(), b.take()]).to.deep.equal([true, false]);
  });
  it('SeenSet forgets the oldest key beyond its capacity', () => {
    const s = new SeenSet(2);
    expect(s.add('a')).to.equal(true);
    expect(s.add('a')).to.equal(false);
    s.add('b');
    s.add('c');
    expect([s.has('a'), s.has('b'), s.has('c'), s.size]).to.deep.equal([false, true, true, 2]);
  });
  it('Backoff doubles up to the cap, with 75-100 % jitter, and resets', () => {
    const fixed = new Backoff(100, 1000, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(() => fixed.next())).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    fixed.reset();
    expect(fixed.next()).to.equal(100);
    const low = new Backoff(100, 1000, () => 0);
    expect(low.next()).to.equal(75);
  });
  it('Sync tracks at most MAX_MILESTONE_BLOCKS milestone blocks above the ledger, forgetting the highest first', () => {
    const ctx: PeeringContext = {
      settings: settingsOf({ peers: [], logger: new CollectingLogger() }),
      log: new CollectingLogger(),
      now: () => 0,
      stats: { received: 0, duplicates: 0, gossiped: 0, requested: 0, dropped: 0 },
      traffic: undefined as never,
      running: () => false,
    };
    const requests = { milestoneArrived: () => undefined } as unknown as SyncRequests;
    const sync = new Sync(ctx, {} as Pick<PeeringPort, 'store' | 'protocol'>, requests, {} as SyncStatusView, {
      retry: async () => undefined,
    });
    const milestone = (index: number): Block => ({
      protocolVersion: 2,
      parents: [],
      payload: { type: 7, index } as never,
      nonce: 0n,
    });
    const id = (n: number): Uint8Array => new Uint8Array(32).map((_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 1));
    // Milestone blocks a client stored without PoW, under indexes far above the ledger, then the next real one.
    for (let i = 0; i < 3 * MAX_MILESTONE_BLOCKS; i++) sync.noteMilestone(milestone(1_000_000 + i), id(i));
    expect(sync.trackedMilestoneBlocks).to.equal(MAX_MILESTONE_BLOCKS);
    sync.noteMilestone(milestone(1), id(-1));
    sync.noteMilestone(milestone(1), id(-1)); // the same block again: counted once
    expect(sync.trackedMilestoneBlocks).to.equal(MAX_MILESTONE_BLOCKS);
    expect(sync.pendingMilestone(1)).to.deep.equal(id(-1));
    expect(sync.pendingMilestone(1_000_000)).to.deep.equal(id(0));
    expect(sync.pendingMilestone(1_000_000 + MAX_MILESTONE_BLOCKS - 1)).to.equal(undefined); // the highest went
  });
});

describe('peering: stream protocol', function () {
  this.timeout(10000);
  let h: Harness;
  afterEach(async () => {
    await h?.close();
  });

  it('answers a handshake with its own and a heartbeat; drops messages before the handshake and other networks', async () => {
    h = await harness();
    const good = await h.connect();
    expect(good.of('handshake')[0]!.kind).to.deep.include({ $case: 'handshake' });
    expect(good.of('heartbeat').length).to.be.at.least(1);
    expect(h.manager.connectedPeers()).to.equal(1);
    const early = new MemLink('early', true);
    h.manager.accept(early);
    early.deliver({ kind: { $case: 'milestoneRequest', value: { index: 1 } } });
    expect(early.closed).to.equal(true);
    const other = new MemLink('other', true);
    h.manager.accept(other);
    other.deliver(new TestPeer().hello('another'));
    expect(other.closed).to.equal(true);
    expect(h.logger.lines.join('\n')).to.contain('network "another" differs');
    expect(good.closed).to.equal(false);
  });

  it('stores a gossiped block once, relays it to the other peers once, and drops the duplicate', async () => {
    h = await harness();
    const p1 = await h.connect();
    const p2 = await h.connect();
    const p3 = await h.connect();
    const blk = tagged([h.sep], 1);
    p1.deliver(blockMsg(blk.bytes));
    p2.deliver(blockMsg(blk.bytes));
    await until('stored', () => h.store.hasBlock(blk.id));
    await until('relayed', () => p3.of('block').length === 1);
    await tick(20);
    expect(h.manager.stats.duplicates).to.equal(1);
    expect(p1.of('block')).to.have.length(0); // never back to the sender
    expect(p2.of('block').length).to.be.at.most(1);
    expect(p3.of('block')).to.have.length(1);
    expect(toHex(blockIdOf((p3.of('block')[0]!.kind as { value: { data: Uint8Array } }).value.data))).to.equal(
      toHex(blk.id),
    );
    expect([p1.closed, p2.closed, p3.closed]).to.deep.equal([false, false, false]);
  });

  it('requests a missing parent from the sender; the answer makes the child solid and is not re-gossiped', async () => {
    h = await harness();
    const p1 = await h.connect();
    const p2 = await h.connect();
    const parent = tagged([h.sep], 2);
    const child = tagged([parent.id], 3);
    p1.deliver(blockMsg(child.bytes));
    await until('request', () => p1.of('blockRequest').length > 0);
    const req = p1.of('blockRequest')[0]!.kind as { value: { blockId: Uint8Array; version: BlockVersion } };
    expect(toHex(req.value.blockId)).to.equal(toHex(parent.id));
    expect((await h.store.getBlockMetadata(child.id))?.solid).to.equal(false);
    p1.deliver(blockMsg(parent.bytes));
    await until('child solid', async () => (await h.store.getBlockMetadata(child.id))?.solid === true);
    await tick(20);
    // p2 got the gossiped child, not the requested parent
    expect(
      p2.of('block').map((m) => toHex(blockIdOf((m.kind as { value: { data: Uint8Array } }).value.data))),
    ).to.deep.equal([toHex(child.id)]);
  });

  it('answers block requests by ID with the stored bytes, and nothing for unknown IDs', async () => {
    h = await harness();
    const p1 = await h.connect();
    const blk = tagged([h.sep], 4);
    p1.deliver(blockMsg(blk.bytes));
    await until('stored', () => h.store.hasBlock(blk.id));
    const p2 = await h.connect();
    p2.deliver({ kind: { $case: 'blockRequest', value: { version: BlockVersion.BLOCK_VERSION_V2, blockId: blk.id } } });
    p2.deliver({
      kind: {
        $case: 'blockRequest',
        value: { version: BlockVersion.BLOCK_VERSION_V2, blockId: new Uint8Array(32).fill(9) },
      },
    });
    await until('answer', () => p2.of('block').length === 1);
    await tick(20);
    expect(p2.of('block')).to.have.length(1);
    expect((p2.of('block')[0]!.kind as { value: { data: Uint8Array } }).value.data).to.deep.equal(blk.bytes);
  });

  for (const [name, message, reason] of [
    ['an oversized block', blockMsg(new Uint8Array(32769)), 'a block of 32769 bytes'],
    ['an undecodable block', blockMsg(new Uint8Array([2, 9, 9])), 'invalid block'],
    ['a block of unknown version', blockMsg(new Uint8Array([2, 1]), 7 as BlockVersion), 'unknown version'],
    ['an empty message', { kind: undefined }, 'empty message'],
    [
      'a request with a wrong-length ID',
      {
        kind: { $case: 'blockRequest', value: { version: BlockVersion.BLOCK_VERSION_V2, blockId: new Uint8Array(31) } },
      },
      '31-byte ID',
    ],
    ['a second handshake', new TestPeer().hello(NETWORK), 'a second handshake'],
  ] as [string, PeerMessage, string][]) {
    it(`disconnects and bans a peer sending ${name}; the other peers go on`, async () => {
      h = await harness();
      const honest = await h.connect();
      const rogue = await h.connect();
      rogue.deliver(message);
      await until('dropped', () => rogue.closed);
      expect(h.logger.lines.filter((l) => l.startsWith('WARN') && l.includes('dropped')).join('\n')).to.contain(reason);
      expect(honest.closed).to.equal(false);
      expect(h.manager.connectedPeers()).to.equal(1);
      const blk = tagged([h.sep], 5);
      honest.deliver(blockMsg(blk.bytes));
      await until('honest block stored', () => h.store.hasBlock(blk.id));
    });
  }

  it('a node ID banned on a stream this node dialed is refused when it comes back, and its address is not redialed at once', async () => {
    const links: MemLink[] = [];
    h = await harness({
      peers: ['127.0.0.1:7'],
      dial: (address) => links[links.push(new MemLink(address, false)) - 1]!,
    });
    await until('dialed', () => links.length === 1);
    const rogue = new TestPeer();
    const link = links[0]!;
    link.deliver(rogue.hello(NETWORK));
    link.deliver(rogue.proof(NETWORK, link.of('handshake')[0]!));
    link.deliver(blockMsg(new Uint8Array(40000)));
    await until('dropped', () => link.closed);
    const again = new MemLink('rogue-again', true);
    h.manager.accept(again);
    again.deliver(rogue.hello(NETWORK));
    expect(again.closed).to.equal(true);
    expect(h.logger.lines.join('\n')).to.contain('dropped: banned');
    await new Promise((r) => setTimeout(r, 300));
    expect(links).to.have.length(1); // the static address waits out the ban
  });

  it("an inbound misbehaver is dropped but its node ID is not banned: the stream may relay another node's proven identity", async () => {
    h = await harness();
    const link = new MemLink('rogue', true);
    h.manager.accept(link);
    const rogue = new TestPeer();
    link.deliver(rogue.hello(NETWORK));
    link.deliver(rogue.proof(NETWORK, link.of('handshake')[0]!));
    link.deliver(blockMsg(new Uint8Array(40000)));
    await until('dropped', () => link.closed);
    const again = new MemLink('rogue-again', true);
    h.manager.accept(again);
    again.deliver(rogue.hello(NETWORK));
    again.deliver(rogue.proof(NETWORK, again.of('handshake')[0]!));
    await until('connected again', () => h.manager.connectedPeers() === 1);
    expect(again.closed).to.equal(false);
  });

  it('takes at most maxInboundPerHost inbound streams from one host', async () => {
    h = await harness({ maxInboundPerHost: 2 });
    const links = [1, 2, 3].map((i) => new MemLink(`ipv4:10.0.0.9:${4000 + i}`, true));
    for (const l of links) h.manager.accept(l);
    const other = new MemLink('ipv4:10.0.0.10:4000', true);
    h.manager.accept(other);
    expect(links.map((l) => l.closed)).to.deep.equal([false, false, true]);
    expect(other.closed).to.equal(false);
    expect(h.logger.lines.join('\n')).to.contain('from ipv4:10.0.0.9 open already (at most 2 per host)');
  });

  it('drops a peer over its message rate', async () => {
    h = await harness({ messageRate: 5, messageBurst: 5 });
    const p = await h.connect(); // handshake + proof + heartbeat = 3 tokens
    const heartbeat: PeerMessage = {
      kind: {
        $case: 'heartbeat',
        value: {
          latestMilestoneIndex: 0,
          confirmedMilestoneIndex: 0,
          pruningIndex: 0,
          connectedPeers: 1,
          syncedPeers: 0,
        },
      },
    };
    for (let i = 0; i < 2; i++) p.deliver(heartbeat);
    expect(p.closed).to.equal(false);
    p.deliver(heartbeat);
    expect(p.closed).to.equal(true);
    expect(h.logger.lines.join('\n')).to.contain('more than 5 messages/s');
  });

  it('drops a peer sending an unrequested block below the minimum PoW score, and does not store the block', async () => {
    h = await harness({}, 5000);
    const rogue = await h.connect();
    const lazy = tagged([h.sep], 6);
    rogue.deliver(blockMsg(lazy.bytes));
    await until('dropped', () => rogue.closed);
    expect(h.logger.lines.join('\n')).to.contain('PoW score');
    expect(await h.store.hasBlock(lazy.id)).to.equal(false);
  });

  it('is not synced while a peer knows milestones above its ledger: SubmitBlock answers NODE_NOT_SYNCED', async () => {
    h = await harness();
    expect(h.manager.synced).to.equal(true);
    const p = await h.connect();
    p.deliver({
      kind: {
        $case: 'heartbeat',
        value: {
          latestMilestoneIndex: 5,
          confirmedMilestoneIndex: 5,
          pruningIndex: 0,
          connectedPeers: 1,
          syncedPeers: 0,
        },
      },
    });
    expect(h.manager.synced).to.equal(false);
    const err = await h.service.submitBlock({ block: { $case: 'raw', value: tagged([h.sep], 7).bytes } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(NodeError);
    expect((err as NodeError).code).to.equal('NODE_NOT_SYNCED');
    expect((err as Error).message).to.contain('node is not synced');
    // it asks the peer for the milestones it lacks, by index
    await until('milestone request', () => p.of('milestoneRequest').length > 0);
    expect((p.of('milestoneRequest')[0]!.kind as { value: { index: number } }).value.index).to.equal(1);
    expect((await h.service.getInfo()).status?.isHealthy).to.equal(false);
  });

  it('up to 2 milestones behind a peer it is not synced but almost: submissions still go through', async () => {
    h = await harness();
    const p = await h.connect();
    const beat = (latest: number): void =>
      p.deliver({
        kind: {
          $case: 'heartbeat',
          value: {
            latestMilestoneIndex: latest,
            confirmedMilestoneIndex: latest,
            pruningIndex: 0,
            connectedPeers: 1,
            syncedPeers: 0,
          },
        },
      });
    beat(2);
    expect([h.manager.synced, h.manager.almostSynced]).to.deep.equal([false, true]);
    const ok = await h.service.submitBlock({ block: { $case: 'raw', value: tagged([h.sep], 8).bytes } });
    expect(ok.blockId).to.have.length(32);
    beat(3);
    expect([h.manager.synced, h.manager.almostSynced]).to.deep.equal([false, false]);
    beat(0);
    expect([h.manager.synced, h.manager.almostSynced]).to.deep.equal([true, true]);
  });

  it('redials a static peer with growing delays, and not at all when it turns out to be itself', async () => {
    const dials: number[] = [];
    const self: MemLink[] = [];
    h = await harness({
      peers: ['127.0.0.1:1', '127.0.0.1:2'],
      backoffBaseMs: 20,
      backoffMaxMs: 160,
      dial: (address) => {
        const link = new MemLink(address, false);
        if (address.endsWith(':1')) {
          dials.push(Date.now());
          setTimeout(() => link.end('connection refused'), 0);
        } else self.push(link);
        return link;
      },
    });
    // the second "peer" answers with our own node ID
    self[0]!.deliver(new TestPeer(h.manager.identity).hello(NETWORK));
    await until('5 dials', () => dials.length >= 5, 5000);
    const gaps = dials.slice(1).map((t, i) => t - dials[i]!);
    expect(gaps[0]!).to.be.at.least(14);
    expect(gaps[3]!).to.be.greaterThan(gaps[0]!);
    expect(self).to.have.length(1);
    expect(h.logger.lines.join('\n')).to.contain('is this node itself');
  });
});
