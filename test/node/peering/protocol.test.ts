/**
 * The peer stream protocol (src/node/peering) over in-memory links: handshake rules, per-peer bounds (rate, sizes,
 * IDs, invalid blocks -> disconnect and ban), duplicate suppression, requests for missing parents, reconnect backoff.
 * The sync state is sync.test.ts, the limits' building blocks limits.test.ts.
 */
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import { BlockVersion, type PeerMessage } from '../../../src/grpc/gen/peer.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { until } from '../support.ts';
import { blockMsg, heartbeat, MemLink, peeringHarness, tagged, type PeeringHarness } from './support.ts';

const NETWORK = 'peering-test';
const harness = (options: Partial<PeeringOptions> = {}, minPowScore = 0): Promise<PeeringHarness> =>
  peeringHarness(NETWORK, { requestTimeoutMs: 100, ...options }, minPowScore);
const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A peer on `link` that shakes hands, then sends a block over the size limit, and is dropped for it. */
async function misbehaves(link: MemLink, rogue: TestPeer): Promise<void> {
  link.deliver(rogue.hello(NETWORK));
  link.deliver(rogue.proof(NETWORK, link.first('handshake')));
  link.deliver(blockMsg(new Uint8Array(40000)));
  await until('dropped', () => link.closed);
}

describe('peering: stream protocol', function () {
  this.timeout(10000);
  let h: PeeringHarness;
  afterEach(async () => {
    await h?.close();
  });

  it('answers a handshake with its own and a heartbeat; drops early messages and other networks', async () => {
    h = await harness();
    const good = await h.connect();
    expect(good.of('handshake')[0]!.kind).to.deep.include({ $case: 'handshake' });
    expect(good.of('heartbeat').length).to.be.at.least(1);
    expect(h.peering.connectedPeers()).to.equal(1);
    const early = new MemLink('early', true);
    h.peering.accept(early);
    early.deliver({ kind: { $case: 'milestoneRequest', value: { index: 1 } } });
    expect(early.closed).to.equal(true);
    const other = new MemLink('other', true);
    h.peering.accept(other);
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
    expect(h.peering.stats.duplicates).to.equal(1);
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
      expect(h.peering.connectedPeers()).to.equal(1);
      const blk = tagged([h.sep], 5);
      honest.deliver(blockMsg(blk.bytes));
      await until('honest block stored', () => h.store.hasBlock(blk.id));
    });
  }

  it('bans a node ID met on a stream it dialed: refused when back, its address not redialed at once', async () => {
    const links: MemLink[] = [];
    h = await harness({
      peers: ['127.0.0.1:7'],
      dial: (address) => links[links.push(new MemLink(address, false)) - 1]!,
    });
    await until('dialed', () => links.length === 1);
    const rogue = new TestPeer();
    const link = links[0]!;
    await misbehaves(link, rogue);
    const again = new MemLink('rogue-again', true);
    h.peering.accept(again);
    again.deliver(rogue.hello(NETWORK));
    expect(again.closed).to.equal(true);
    expect(h.logger.lines.join('\n')).to.contain('dropped: banned');
    await new Promise((r) => setTimeout(r, 300));
    expect(links).to.have.length(1); // the static address waits out the ban
  });

  it("drops an inbound misbehaver without banning its node ID (the stream may relay another's identity)", async () => {
    h = await harness();
    const link = new MemLink('rogue', true);
    h.peering.accept(link);
    const rogue = new TestPeer();
    await misbehaves(link, rogue);
    const again = new MemLink('rogue-again', true);
    h.peering.accept(again);
    again.deliver(rogue.hello(NETWORK));
    again.deliver(rogue.proof(NETWORK, again.of('handshake')[0]!));
    await until('connected again', () => h.peering.connectedPeers() === 1);
    expect(again.closed).to.equal(false);
  });

  it('takes at most maxInboundPerHost inbound streams from one host', async () => {
    h = await harness({ maxInboundPerHost: 2 });
    const links = [1, 2, 3].map((i) => new MemLink(`ipv4:10.0.0.9:${4000 + i}`, true));
    for (const l of links) h.peering.accept(l);
    const other = new MemLink('ipv4:10.0.0.10:4000', true);
    h.peering.accept(other);
    expect(links.map((l) => l.closed)).to.deep.equal([false, false, true]);
    expect(other.closed).to.equal(false);
    expect(h.logger.lines.join('\n')).to.contain('from ipv4:10.0.0.9 open already (at most 2 per host)');
  });

  it('drops a peer over its message rate', async () => {
    h = await harness({ messageRate: 5, messageBurst: 5 });
    const p = await h.connect(); // handshake + proof + heartbeat = 3 tokens
    for (let i = 0; i < 2; i++) p.deliver(heartbeat());
    expect(p.closed).to.equal(false);
    p.deliver(heartbeat());
    expect(p.closed).to.equal(true);
    expect(h.logger.lines.join('\n')).to.contain('more than 5 messages/s');
  });

  it('drops a peer sending an unrequested block below the minimum PoW score; the block is not stored', async () => {
    h = await harness({}, 5000);
    const rogue = await h.connect();
    const lazy = tagged([h.sep], 6);
    rogue.deliver(blockMsg(lazy.bytes));
    await until('dropped', () => rogue.closed);
    expect(h.logger.lines.join('\n')).to.contain('PoW score');
    expect(await h.store.hasBlock(lazy.id)).to.equal(false);
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
    self[0]!.deliver(new TestPeer(h.peering.identity).hello(NETWORK));
    await until('5 dials', () => dials.length >= 5, 5000);
    const gaps = dials.slice(1).map((t, i) => t - dials[i]!);
    expect(gaps[0]!).to.be.at.least(14);
    expect(gaps[3]!).to.be.greaterThan(gaps[0]!);
    expect(self).to.have.length(1);
    expect(h.logger.lines.join('\n')).to.contain('is this node itself');
  });
});
