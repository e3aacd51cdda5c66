/**
 * What keeps one client from locking the faucet: at most a few waiting requests per client (IP address, one IPv6 /64;
 * more for loopback), refused TOO_MANY_REQUESTS and answered 429 with Retry-After over REST; the refusals that pass
 * with time (not synced, not enough funds, queue full) are UNAVAILABLE with a Retry-After hint, 503 over REST.
 */
import { expect } from 'chai';
import { NodeError } from '../../../src/node/support/errors.ts';
import { faucetClientOf } from '../../../src/node/faucet/clients.ts';
import { FAUCET_BUSY_RETRY_SECONDS, type FaucetSettings } from '../../../src/node/faucet/faucet.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { inProcess, startFakeNode, startTestGateway } from '../../gateway/harness.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { faucetNode, faucetOn, freshAddress, refusal } from './support.ts';

const SETTINGS: Partial<FaucetSettings> = {
  amount: 1_000_000n,
  smallAmount: 100_000n,
  maxAddressBalance: 2_000_000n,
  batchTimeoutMs: 60_000,
};
const LIMITS = { perClient: 8, perLoopbackClient: 128 };

const genesis = devNetworkGenesis({ minPowScore: 0, timestamp: Math.floor(Date.now() / 1000) - 10 });

describe('faucet: waiting requests per client, and refusals that pass with time', function () {
  this.timeout(30000);

  it('a client is an IPv4 address (also IPv4-mapped) or an IPv6 /64; loopback has its limit; empty: none', () => {
    expect(faucetClientOf('203.0.113.5', LIMITS)).to.deep.equal({ key: '203.0.113.5', limit: 8 });
    expect(faucetClientOf('::FFFF:203.0.113.5', LIMITS)).to.deep.equal({ key: '203.0.113.5', limit: 8 });
    expect(faucetClientOf('127.0.0.1', LIMITS)).to.deep.equal({ key: '127.0.0.1', limit: 128 });
    expect(faucetClientOf('::ffff:127.0.0.1', LIMITS)).to.deep.equal({ key: '127.0.0.1', limit: 128 });
    expect(faucetClientOf('::1', LIMITS)).to.deep.equal({ key: '::1', limit: 128 });
    expect(faucetClientOf('0:0:0:0:0:0:0:1', LIMITS)).to.deep.equal({ key: '::1', limit: 128 });
    for (const a of [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:ffff:0:0:9',
      '2001:db8:1:2:a:b:c:d%eth0',
      '2001:db8:1:2::10.0.0.1',
    ]) {
      expect(faucetClientOf(a, LIMITS), a).to.deep.equal({ key: '2001:db8:1:2::/64', limit: 8 });
    }
    expect(faucetClientOf('fe80::1', LIMITS)).to.deep.equal({ key: 'fe80:0:0:0::/64', limit: 8 });
    expect(faucetClientOf('1::2::3', LIMITS)).to.deep.equal({ key: '1::2::3', limit: 8 });
    expect(faucetClientOf('', LIMITS)).to.equal(undefined);
  });

  it('maxWaitingPerClient per client; others and uncounted callers go on; a payout frees them', async () => {
    const node = await faucetNode(genesis, { ...SETTINGS, maxWaitingPerClient: 2, maxWaitingPerLoopbackClient: 3 });
    try {
      const faucet = node.testing.faucet!;
      await faucet.enqueue(freshAddress(), '203.0.113.5');
      await faucet.enqueue(freshAddress(), '::ffff:203.0.113.5');
      const e = await refusal(faucet.enqueue(freshAddress(), '203.0.113.5'));
      expect([e.code, e.message, e.retryAfterSeconds]).to.deep.equal([
        'TOO_MANY_REQUESTS',
        'Too many requests from your IP address are waiting (at most 2). Please try again later!',
        FAUCET_BUSY_RETRY_SECONDS,
      ]);
      await faucet.enqueue(freshAddress(), '2001:db8::1');
      await faucet.enqueue(freshAddress(), '2001:db8::2');
      expect((await refusal(faucet.enqueue(freshAddress(), '2001:db8::ffff:3'))).code).to.equal('TOO_MANY_REQUESTS');
      await faucet.enqueue(freshAddress(), '2001:db8:0:1::1'); // another /64
      for (let i = 0; i < 3; i++) await faucet.enqueue(freshAddress(), '127.0.0.1');
      expect((await refusal(faucet.enqueue(freshAddress(), '127.0.0.1'))).message).to.match(/at most 3\)/);
      for (let i = 0; i < 5; i++) await faucet.enqueue(freshAddress()); // not counted per client
      expect(faucet.state).to.deep.include({ waiting: 13 });

      // Paid and confirmed: the client's requests are done and it may ask again.
      await faucet.flush();
      await node.testing.coordinator!.issue();
      await faucet.idle();
      expect(faucet.state).to.deep.equal({ waiting: 0, queued: 0 });
      await faucet.enqueue(freshAddress(), '203.0.113.5');
      await faucet.enqueue(freshAddress(), '203.0.113.5');
      expect((await refusal(faucet.enqueue(freshAddress(), '203.0.113.5'))).code).to.equal('TOO_MANY_REQUESTS');
    } finally {
      await node.close();
    }
  });

  it("not synced: NODE_NOT_SYNCED (503) with a Retry-After hint, not inx-faucet's 500", async () => {
    const node = await faucetNode(genesis, SETTINGS);
    const faucet = faucetOn(
      node,
      genesis,
      {
        submit: () => Promise.reject(new Error('not used')),
        synced: () => false,
        onConfirmed: () => {},
        logger: new CollectingLogger(),
      },
      SETTINGS,
    );
    try {
      const e = await refusal(faucet.enqueue(freshAddress(), '203.0.113.9'));
      expect([e.code, e.message, e.retryAfterSeconds]).to.deep.equal([
        'NODE_NOT_SYNCED',
        'Faucet node is not synchronized/healthy. Please try again later!',
        FAUCET_BUSY_RETRY_SECONDS,
      ]);
    } finally {
      await faucet.stop();
      await node.close();
    }
  });

  it('cut off from its network: NODE_NOT_SYNCED with the reason and a Retry-After hint; info unhealthy', async () => {
    const node = await faucetNode(genesis, SETTINGS);
    let cutOff: Error | undefined = new Error('node is not synced: it is cut off from its network (no live peer)');
    const faucet = faucetOn(
      node,
      genesis,
      {
        submit: () => Promise.reject(new Error('not used')),
        synced: () => true,
        refusal: async () => cutOff,
        onConfirmed: () => {},
        logger: new CollectingLogger(),
      },
      SETTINGS,
    );
    try {
      const e = await refusal(faucet.enqueue(freshAddress(), '203.0.113.9'));
      expect([e.code, e.message, e.retryAfterSeconds]).to.deep.equal([
        'NODE_NOT_SYNCED',
        'Faucet node is not synchronized/healthy. Please try again later! ' +
          '(node is not synced: it is cut off from its network (no live peer))',
        FAUCET_BUSY_RETRY_SECONDS,
      ]);
      expect((await faucet.info()).isHealthy).to.equal(false);
      cutOff = undefined;
      expect((await faucet.info()).isHealthy).to.equal(true);
      expect((await faucet.enqueue(freshAddress(), '203.0.113.9')).waitingRequests).to.equal(1);
    } finally {
      await faucet.stop();
      await node.close();
    }
  });

  it('over REST: the gateway passes the client address; too many waiting is 429 with Retry-After', async () => {
    const node = await faucetNode(genesis, { ...SETTINGS, maxWaitingPerLoopbackClient: 2 });
    const gw = await startTestGateway(inProcess(node.service));
    try {
      const post = () =>
        fetch(`${gw.url}/api/faucet/v1/enqueue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ address: freshAddress() }),
        });
      expect((await post()).status).to.equal(202);
      expect((await post()).status).to.equal(202);
      const res = await post();
      expect([res.status, res.headers.get('retry-after'), await res.json()]).to.deep.equal([
        429,
        String(FAUCET_BUSY_RETRY_SECONDS),
        {
          error: {
            code: 429,
            message:
              'too many requests: Too many requests from your IP address are waiting (at most 2). ' +
              'Please try again later!',
          },
        },
      ]);
    } finally {
      await gw.close();
      await node.close();
    }
  });

  for (const transport of ['gRPC', 'in-process'] as const) {
    it(`over REST (${transport}): the client field crosses the wire; other refusals: 503, Retry-After`, async () => {
      const fake = await startFakeNode(transport);
      const gw = await startTestGateway(fake);
      try {
        fake.handlers.faucetEnqueue = () => {
          throw new NodeError('UNAVAILABLE', 'Faucet queue is full. Please try again later!', {
            retryAfterSeconds: 10,
          });
        };
        const address = freshAddress();
        const res = await fetch(`${gw.url}/api/faucet/v1/enqueue`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ address }),
        });
        expect([
          res.status,
          res.headers.get('retry-after'),
          ((await res.json()) as { error: { message: string } }).error.message,
        ]).to.deep.equal([503, '10', 'service unavailable: Faucet queue is full. Please try again later!']);
        const request = fake.calls.find((c) => c.method === 'faucetEnqueue')!.request as {
          address: string;
          client: string;
        };
        expect(request.address).to.equal(address);
        expect(request.client).to.match(/^(::ffff:)?127\.0\.0\.1$/);
      } finally {
        await gw.close();
        await fake.stop();
      }
    });
  }
});
