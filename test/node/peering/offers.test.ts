/**
 * What a peer missed (src/node/peering/offers.ts): once a node whose link was lost shakes hands again, it is offered
 * the blocks gossiped since shortly before the loss (those written into the link just before it died included), oldest
 * first, without those it sent itself or older ones, at most `offerMaxBlocks`; while a second link to that node is
 * still open, that link gets the offer at once.
 */
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import type { PeerMessage } from '../../../src/grpc/gen/peer.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import { until } from '../support.ts';
import { blockMsg, heartbeat, peeringHarness, tagged, type MemLink, type PeeringHarness } from './support.ts';

const NETWORK = 'offers-test';
const TIMEOUT = 400;
const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The hex IDs of the blocks the node sent on `link`, in order. */
const blocksOn = (link: MemLink): string[] =>
  link.of('block').map((m: PeerMessage) => (m.kind?.$case === 'block' ? toHex(blockIdOf(m.kind.value.data)) : ''));

describe('peering: blocks offered to a peer whose link came back', function () {
  this.timeout(10000);
  let h: PeeringHarness | undefined;
  const timers: ReturnType<typeof setInterval>[] = [];
  afterEach(async () => {
    for (const t of timers.splice(0)) clearInterval(t);
    await h?.close();
    h = undefined;
  });

  async function start(options: Partial<PeeringOptions> = {}): Promise<PeeringHarness> {
    h = await peeringHarness(NETWORK, { linkTimeoutMs: TIMEOUT, ...options });
    return h;
  }

  /** A link that keeps talking (a heartbeat every 50 ms) until it closes. */
  function alive(link: MemLink): MemLink {
    const t = setInterval(() => (link.closed ? clearInterval(t) : link.deliver(heartbeat())), 50);
    timers.push(t);
    return link;
  }

  /** `from` gossips a new block; resolves once the node stored it. */
  async function gossip(from: MemLink, n: number): Promise<string> {
    const b = tagged([h!.sep], n);
    from.deliver(blockMsg(b.bytes));
    await until(`block ${n} stored`, () => h!.store.hasBlock(b.id));
    return toHex(b.id);
  }

  it('offers what was gossiped since shortly before the loss, oldest first, not its own nor older blocks', async () => {
    await start();
    const a = new TestPeer();
    const a1 = alive(await h!.connect(a));
    const other = alive(await h!.connect());
    const old = await gossip(other, 1);
    await pause(TIMEOUT + 300);
    const fromA = await gossip(a1, 2);
    const justBefore = await gossip(other, 3); // written into a1 just before it dies: maybe never arrived
    await until('sent to a1', () => blocksOn(a1).includes(justBefore));
    a1.end('the stream failed');
    const during1 = await gossip(other, 4);
    const during2 = await gossip(other, 5);
    expect(blocksOn(a1)).to.not.include(during1);

    const a2 = await h!.connect(a);
    await until('three blocks offered', () => blocksOn(a2).length >= 3);
    await pause(100);
    expect(blocksOn(a2)).to.deep.equal([justBefore, during1, during2]);
    expect(blocksOn(a2)).to.not.include.members([old, fromA]);
    expect(h!.peering.stats.offered).to.equal(3);
    expect(h!.logger.lines.join('\n')).to.contain('offered 3 blocks');

    // the offer is made once: a further link of the same node gets nothing
    const a3 = await h!.connect(a);
    await pause(100);
    expect(blocksOn(a3)).to.deep.equal([]);
  });

  it('offers the newest offerMaxBlocks; a node new to this one is offered nothing', async () => {
    await start({ offerMaxBlocks: 2 });
    const a = new TestPeer();
    const a1 = alive(await h!.connect(a));
    const other = alive(await h!.connect());
    a1.end('the stream failed');
    const ids: string[] = [];
    for (let n = 10; n < 13; n++) ids.push(await gossip(other, n));
    const stranger = await h!.connect();
    const a2 = await h!.connect(a);
    await until('two blocks offered', () => blocksOn(a2).length >= 2);
    await pause(100);
    expect(blocksOn(a2)).to.deep.equal(ids.slice(1));
    expect(blocksOn(stranger)).to.deep.equal([]);
  });

  it('while another link to the same node is open, that link gets the offer when one closes', async () => {
    await start();
    const a = new TestPeer();
    const first = alive(await h!.connect(a));
    const second = alive(await h!.connect(a));
    const other = alive(await h!.connect());
    const id = await gossip(other, 20);
    await until('sent on both', () => blocksOn(first).includes(id) && blocksOn(second).includes(id));
    first.end('the stream failed');
    await until('offered again on the other link', () => blocksOn(second).length === 2);
    expect(blocksOn(second)).to.deep.equal([id, id]);
  });
});
