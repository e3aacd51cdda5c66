/**
 * Dead links (src/node/peering/liveness.ts): a link on which nothing came from the peer for `linkTimeoutMs` is closed
 * on the accepting and on the dialing side alike (and a static peer redialed), a link whose peer keeps talking stays,
 * a stall of this node's own event loop closes nothing, and a timeout under two heartbeats is refused.
 */
import { expect } from 'chai';
import { CollectingLogger } from '../../../harness/node.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import { settingsOf, type PeeringContext } from '../../../src/node/peering/context.ts';
import { LinkWatch, sweepEveryMs } from '../../../src/node/peering/liveness.ts';
import type { Peer } from '../../../src/node/peering/peers.ts';
import { until } from '../support.ts';
import { heartbeat, MemLink, peeringHarness, type PeeringHarness } from './support.ts';

const NETWORK = 'liveness-test';
const TIMEOUT = 300;

describe('peering: dead links are closed on both sides', function () {
  this.timeout(10000);
  let h: PeeringHarness | undefined;
  const timers: ReturnType<typeof setInterval>[] = [];
  afterEach(async () => {
    for (const t of timers.splice(0)) clearInterval(t);
    await h?.close();
    h = undefined;
  });

  it('closes a silent inbound and a silent dialed link after the timeout, redials; a talking link stays', async () => {
    const dialed: MemLink[] = [];
    h = await peeringHarness(NETWORK, {
      linkTimeoutMs: TIMEOUT,
      backoffBaseMs: 20,
      peers: ['127.0.0.1:1'],
      dial: (address) => dialed[dialed.push(new MemLink(address, false)) - 1]!,
    });
    await until('dialed', () => dialed.length === 1);
    const out = dialed[0]!;
    const remote = new TestPeer();
    out.deliver(remote.hello(NETWORK));
    out.deliver(remote.proof(NETWORK, out.first('handshake')));
    const quiet = await h.connect();
    const talking = await h.connect();
    timers.push(setInterval(() => talking.deliver(heartbeat()), 50));
    const t0 = Date.now();
    expect(h.peering.connectedPeers()).to.equal(3);

    await until('both silent links closed', () => quiet.closed && out.closed, 3000);
    const closedAfter = Date.now() - t0;
    expect(closedAfter).to.be.at.least(TIMEOUT - 20);
    expect(closedAfter).to.be.below(TIMEOUT + sweepEveryMs(TIMEOUT) + 300);
    expect(h.logger.lines.join('\n')).to.match(/dropped: nothing came from it for \d+ ms \(the link timeout is 300/);
    await until('the static peer redialed', () => dialed.length === 2, 3000);

    await new Promise((r) => setTimeout(r, 2 * TIMEOUT));
    expect(talking.closed).to.equal(false);
  });

  it('a stall of its own event loop gives every link the whole timeout again instead of closing it', () => {
    let now = 0;
    const ctx: PeeringContext = {
      settings: settingsOf({ peers: [], logger: new CollectingLogger(), heartbeatMs: 100, linkTimeoutMs: 1000 }),
      log: new CollectingLogger(),
      now: () => now,
      stats: { received: 0, duplicates: 0, gossiped: 0, requested: 0, dropped: 0, offered: 0 },
      traffic: undefined as never,
      running: () => true,
    };
    const peer = { closed: false, lastHeard: 0 } as Peer;
    const dropped: string[] = [];
    const watch = new LinkWatch(ctx, {
      all: () => [peer][Symbol.iterator](),
      drop: (_p: Peer, reason: string) => void dropped.push(reason),
    });
    for (now = 0; now <= 900; now += 100) watch.sweep();
    now = 1900; // a sweep 1 s late: this node was stuck, the peer's heartbeats may be waiting unread
    watch.sweep();
    expect(dropped).to.deep.equal([]);
    expect(peer.lastHeard).to.equal(1900);
    for (now = 2000; now <= 2900; now += 100) watch.sweep();
    expect(dropped).to.deep.equal([]);
    now = 3000;
    watch.sweep();
    expect(dropped).to.have.length(1);
    expect(dropped[0]).to.contain('nothing came from it for 1100 ms');
  });

  it('refuses a link timeout under two heartbeats', () => {
    const logger = new CollectingLogger();
    expect(() => settingsOf({ peers: [], logger, heartbeatMs: 1000, linkTimeoutMs: 1500 })).to.throw(
      /link timeout of 1500 ms is under twice the heartbeat/,
    );
    expect(settingsOf({ peers: [], logger }).linkTimeoutMs).to.equal(3000);
  });
});
