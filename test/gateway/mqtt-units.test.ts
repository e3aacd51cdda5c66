/**
 * Units of the gateway's event API: the TIP-28 topic grammar a subscription must meet (topics.ts), and the follower of
 * the node's events port reopening its stream with backoff when it breaks (node-events.ts), over a fake port.
 */
import { Readable } from 'node:stream';
import { expect } from 'chai';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import { cancelledCall, NodeCallError, SUBSCRIBE, type EventsPort } from '../../src/grpc/port.ts';
import { GrpcStatus } from '../../src/grpc/status.ts';
import { followEvents } from '../../gateway/mqtt/node-events.ts';
import { checkTopic } from '../../gateway/mqtt/topics.ts';

const hex = (bytes: number, byte = 'ab'): string => `0x${byte.repeat(bytes)}`;
const ed = bech32EncodeAddress('rms', { type: 0, pubKeyHash: new Uint8Array(32).fill(1) });
const nft = bech32EncodeAddress('rms', { type: 16, nftId: new Uint8Array(32).fill(2) });

describe('gateway mqtt: the TIP-28 topic grammar', () => {
  const accepted = [
    'milestone-info/latest',
    'milestone-info/confirmed',
    'milestones',
    'blocks',
    'blocks/transaction',
    'blocks/transaction/tagged-data',
    `blocks/transaction/tagged-data/${hex(1)}`,
    'blocks/tagged-data',
    `blocks/tagged-data/${hex(64)}`,
    `block-metadata/${hex(32)}`,
    'block-metadata/referenced',
    `transactions/${hex(32)}/included-block`,
    `outputs/${hex(32)}7f00`,
    `outputs/alias/${hex(32)}`,
    `outputs/nft/${hex(32)}`,
    `outputs/foundry/${hex(38)}`,
    ...['address', 'storage-return', 'expiration', 'state-controller', 'governor', 'immutable-alias', '+'].flatMap(
      (c) => [`outputs/unlock/${c}/${ed}`, `outputs/unlock/${c}/${nft}/spent`],
    ),
    'receipts',
  ];
  const refused = [
    '',
    '#',
    '+',
    'blocks/#',
    'milestone-info/+',
    'milestone-info',
    `blocks/tagged-data/${hex(65)}`,
    'blocks/tagged-data/0xabc',
    'blocks/tagged-data/abcd',
    `block-metadata/${hex(31)}`,
    `block-metadata/${hex(32, 'AB')}`,
    `transactions/${hex(32)}`,
    `transactions/${hex(32)}/included-block/metadata`,
    `outputs/${hex(32)}8000`,
    `outputs/${hex(34)}`,
    `outputs/alias/${hex(33)}`,
    `outputs/foundry/${hex(32)}`,
    `outputs/unlock/sender/${ed}`,
    `outputs/unlock/address/${ed.toUpperCase()}`,
    `outputs/unlock/address/${ed.slice(0, -1)}q`,
    `outputs/unlock/address/${bech32EncodeAddress('smr', { type: 0, pubKeyHash: new Uint8Array(32) })}`,
    `outputs/unlock/address/${ed}/spent/x`,
    `outputs/unlock/address/${ed}/unspent`,
    '$SYS/broker',
  ];

  it('accepts every TIP-28 topic with well-formed parameters', () => {
    for (const t of accepted) expect(checkTopic(t, 'rms'), t).to.have.property('ok', true);
  });

  it('refuses wildcards, unknown topics and malformed parameters, saying why', () => {
    for (const t of refused) {
      const r = checkTopic(t, 'rms');
      expect(r, t).to.have.property('ok', false);
      expect(r.ok ? '' : r.reason, t).to.be.a('string').that.is.not.empty;
    }
  });

  it('asks for the current state where inx-mqtt sends it', () => {
    expect(checkTopic('milestone-info/latest', 'rms')).to.deep.equal({
      ok: true,
      request: { kind: 'milestone-info', which: 'latest' },
    });
    expect(checkTopic(`outputs/${hex(32)}0100`, 'rms')).to.deep.equal({
      ok: true,
      request: { kind: 'output', outputId: `${hex(32)}0100` },
    });
    expect(checkTopic('blocks', 'rms')).to.deep.equal({ ok: true, request: { kind: 'events' } });
  });
});

/**
 * A fake events port: each subscription a stream the test feeds, ends or fails (`openedAt`: when it was made); its
 * signal fails it CANCELLED.
 */
function fakePort(): { port: EventsPort; streams: Readable[]; openedAt: number[] } {
  const streams: Readable[] = [];
  const openedAt: number[] = [];
  const port: EventsPort = {
    subscribe: (_request, options = {}) => {
      const s = new Readable({ objectMode: true, read: () => undefined });
      options.signal?.addEventListener('abort', () => s.destroy(cancelledCall(SUBSCRIBE)));
      streams.push(s);
      openedAt.push(Date.now());
      return s;
    },
  };
  return { port, streams, openedAt };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !ok(); i++) await sleep(5);
  expect(ok()).to.equal(true);
};

describe('gateway mqtt: following the node events', () => {
  it('reopens a broken stream with backoff and goes on delivering', async () => {
    const { port, streams } = fakePort();
    const got: number[] = [];
    let opened = 0;
    const following = followEvents(port, {
      onBatch: (b) => got.push(b.events.length),
      onOpen: () => opened++,
      log: () => undefined,
      minBackoffMs: 10,
      maxBackoffMs: 40,
    });
    streams[0]!.push({ events: [{}] });
    await sleep(5);
    streams[0]!.destroy(new NodeCallError(SUBSCRIBE, GrpcStatus.UNAVAILABLE, 'connection refused'));
    await sleep(60);
    expect(streams).to.have.length(2);
    streams[1]!.push(null);
    await sleep(60);
    expect(streams).to.have.length(3);
    streams[2]!.push({ events: [{}, {}] });
    await sleep(5);
    expect(got).to.deep.equal([1, 2]);
    expect([opened, following.reconnects, following.open]).to.deep.equal([3, 2, true]);
    following.close();
    expect(streams[2]!.destroyed).to.equal(true);
    expect(following.open).to.equal(false);
    await sleep(60);
    expect(streams).to.have.length(3);
  });

  it('asks a node without the service (UNIMPLEMENTED) again at the longest interval; logs a failure once', async () => {
    const { port, streams, openedAt } = fakePort();
    const logged: string[] = [];
    const following = followEvents(port, {
      onBatch: () => undefined,
      log: (m) => logged.push(m),
      minBackoffMs: 10,
      maxBackoffMs: 200,
    });
    const unimplemented = new NodeCallError(SUBSCRIBE, GrpcStatus.UNIMPLEMENTED, 'Subscribe is not implemented');
    for (const n of [1, 2]) {
      const failedAt = Date.now();
      streams[n - 1]!.destroy(unimplemented);
      await until(() => streams.length > n);
      // the jitter waits half to all of the longest interval, never the shortest
      expect(openedAt[n]! - failedAt).to.be.at.least(95);
    }
    expect(logged).to.have.length(1);
    expect(logged[0]).to.match(/^node events stream failed \(UNIMPLEMENTED: Subscribe is not implemented\); reopening/);
    following.close();
  });
});
