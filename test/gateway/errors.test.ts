import { expect } from 'chai';
import { GrpcStatus, statusError } from '../../src/grpc/status.ts';
import { ProtocolError } from '../../src/core/errors.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { HttpProblem, NodeCallError, toRestAnswer } from '../../gateway/errors.ts';
import { describeOverTransports, ID32, ID36, startTestGateway, unreachableNode, type TestGateway } from './harness.ts';
import { fakeNodeGateway } from './support.ts';

interface ErrorBody {
  error: { code: number; message: string };
}

async function errorOf(res: Response): Promise<ErrorBody['error']> {
  expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  const body = (await res.json()) as ErrorBody;
  expect(Object.keys(body)).to.deep.equal(['error']);
  expect(body.error.code).to.equal(res.status);
  return body.error;
}

describeOverTransports('gateway errors', (transport) => {
  const t = fakeNodeGateway(transport);

  describe('path IDs are parsed strictly before any gRPC call (400)', () => {
    const bad: [string, string, RegExp][] = [
      [
        'v2 block, short',
        `/api/core/v2/blocks/0x${'ab'.repeat(31)}`,
        /invalid block ID: 0xab.*, expected 32 bytes, got 31$/,
      ],
      ['v2 block, long', `/api/core/v2/blocks/0x${'ab'.repeat(33)}`, /expected 32 bytes, got 33$/],
      ['v2 block, no 0x', `/api/core/v2/blocks/${'ab'.repeat(32)}`, /hex string without 0x prefix$/],
      ['v2 block, 0X', `/api/core/v2/blocks/0X${'ab'.repeat(32)}`, /hex string without 0x prefix$/],
      ['v2 block, bad hex', `/api/core/v2/blocks/0x${'zz'.repeat(32)}`, /invalid hex character "z" at position 2$/],
      ['v2 block, odd length', `/api/core/v2/blocks/0x${'a'.repeat(63)}`, /hex string of odd length$/],
      ['v2 block, 0x alone', '/api/core/v2/blocks/0x', /expected 32 bytes, got 0$/],
      ['v2 block, undecodable percent escape', '/api/core/v2/blocks/0x%zz', /invalid hex character "%" at position 2$/],
      [
        'v2 block, whitespace',
        `/api/core/v2/blocks/0x${'ab'.repeat(31)}%20a`,
        /invalid hex character " " at position 64$/,
      ],
      [
        'v2 metadata, short',
        `/api/core/v2/blocks/0x${'ab'.repeat(2)}/metadata`,
        /invalid block ID: 0xabab, expected 32 bytes, got 2$/,
      ],
      [
        'v2 tx, 36 bytes',
        `/api/core/v2/transactions/${ID36}/included-block`,
        /invalid transaction ID: .*expected 32 bytes, got 36$/,
      ],
      [
        'v2 tx metadata, bad hex',
        `/api/core/v2/transactions/0x${'g'.repeat(64)}/included-block/metadata`,
        /invalid transaction ID: .*invalid hex character "g"/,
      ],
      [
        'v3 tx, 32 bytes',
        `/api/core/v3/transactions/${ID32}/included-block`,
        /invalid transaction ID: .*expected 36 bytes, got 32$/,
      ],
      ['v3 tx, 37 bytes', `/api/core/v3/transactions/${ID36}ff/included-block`, /expected 36 bytes, got 37$/],
    ];
    for (const [name, path, message] of bad) {
      it(name, async () => {
        const res = await fetch(t.gw.url + path);
        expect(res.status).to.equal(400);
        const err = await errorOf(res);
        expect(err.message).to.match(/^invalid data provided: invalid (block|transaction) ID: /);
        expect(err.message).to.match(message);
        expect(t.node.calls).to.have.length(0);
      });
    }
  });

  describe('gRPC status -> HTTP', () => {
    it('NOT_FOUND -> 404 could not find data', async () => {
      t.node.handlers.getBlock = () => {
        throw new NodeError('NOT_FOUND', `block not found: ${ID32}`);
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}`);
      expect(res.status).to.equal(404);
      expect((await errorOf(res)).message).to.equal(`could not find data: block not found: ${ID32}`);
    });

    it('PRUNED -> 404 naming the pruning index', async () => {
      t.node.handlers.getIncludedBlock = () => {
        throw new NodeError('PRUNED', 'block was pruned: below pruning index 1200');
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/transactions/${ID32}/included-block`);
      expect(res.status).to.equal(404);
      expect((await errorOf(res)).message).to.equal('could not find data: block was pruned: below pruning index 1200');
    });

    it('INVALID_ARGUMENT (a core ProtocolError) -> 400 invalid data provided', async () => {
      t.node.handlers.submitBlock = () => {
        throw new ProtocolError('UNKNOWN_TYPE', 'Cannot decode block: unknown payload type 9 at offset 67');
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"protocolVersion":2}',
      });
      expect(res.status).to.equal(400);
      expect((await errorOf(res)).message).to.equal(
        'invalid data provided: Cannot decode block: unknown payload type 9 at offset 67',
      );
    });

    it('UNAVAILABLE -> 503, passing the no-PoW phrase through for the SDK fallback', async () => {
      t.node.handlers.submitBlock = () => {
        throw new NodeError('POW_UNAVAILABLE', 'failed to attach block: proof of work is not available on this node');
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal(null);
      const err = await errorOf(res);
      expect(err.message).to.equal(
        'service unavailable: failed to attach block: proof of work is not available on this node',
      );
      expect(err.message).to.contain('proof of work is not available on this node');
    });

    it('UNAVAILABLE (no tips) on GET tips -> 503', async () => {
      t.node.handlers.getTips = () => {
        throw new NodeError('NO_TIPS', 'no tips available');
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/tips`);
      expect(res.status).to.equal(503);
      expect((await errorOf(res)).message).to.equal('service unavailable: no tips available');
    });

    it('RESOURCE_EXHAUSTED -> 503 with the Retry-After the node gave', async () => {
      t.node.handlers.submitBlock = () => {
        throw new NodeError('POW_QUEUE_FULL', 'proof of work queue is full', { retryAfterSeconds: 7 });
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.iota.serializer-v1' },
        body: Uint8Array.of(2, 0),
      });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('7');
      expect((await errorOf(res)).message).to.equal('service unavailable: proof of work queue is full');
    });

    it('RESOURCE_EXHAUSTED without details -> 503 with a default Retry-After', async () => {
      t.node.handlers.getInfo = () =>
        Promise.reject(
          statusError(GrpcStatus.RESOURCE_EXHAUSTED, { code: 'RATE_LIMITED', message: 'too many requests' }),
        );
      const res = await fetch(`${t.gw.url}/api/core/v2/info`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
    });

    it('PERMISSION_DENIED -> 403 not available for public use', async () => {
      t.node.handlers.getBlock = () => {
        throw new NodeError('FORBIDDEN', 'not allowed');
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}`);
      expect(res.status).to.equal(403);
      expect((await errorOf(res)).message).to.equal('not available for public use: not allowed');
    });

    it('INTERNAL -> 500 with the first line only, never a stack', async () => {
      t.node.handlers.getBlockMetadata = () => {
        const err = new Error('storage read failed');
        err.message =
          'storage read failed\n    at readBlock (/srv/node/src/storage/level.ts:10:5)\n    at async Promise.all';
        throw err;
      };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}/metadata`);
      expect(res.status).to.equal(500);
      const err = await errorOf(res);
      expect(err.message).to.equal('internal server error: storage read failed');
      expect(JSON.stringify(err)).not.to.match(/ at |\.ts:|\/srv/);
    });

    it('a status without rich details (UNIMPLEMENTED) -> 500', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/tips`);
      expect(res.status).to.equal(500);
      expect((await errorOf(res)).message).to.match(/^internal server error: /);
    });

    it('a node answer without the requested block bytes -> 500', async () => {
      t.node.handlers.getBlock = () => ({ blockId: new Uint8Array(32), raw: new Uint8Array(0), json: '' });
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}`, {
        headers: { accept: 'application/vnd.iota.serializer-v1' },
      });
      expect(res.status).to.equal(500);
      expect((await errorOf(res)).message).to.equal('internal server error: the node answered without the block bytes');
    });
  });

  it('unknown path under a public pattern -> 404 JSON', async () => {
    const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}/children`);
    expect(res.status).to.equal(404);
    expect((await errorOf(res)).message).to.equal(
      `could not find data: no route GET /api/core/v2/blocks/${ID32}/children`,
    );
  });

  it('a method the route does not offer -> 405 JSON with Allow', async () => {
    const res = await fetch(`${t.gw.url}/api/core/v2/info`, { method: 'DELETE' });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.match(/GET/);
    expect((await errorOf(res)).message).to.equal(
      'invalid data provided: method DELETE is not allowed on /api/core/v2/info',
    );
  });

  describe('node unreachable', () => {
    let down: TestGateway;
    before(async () => {
      down = await startTestGateway(await unreachableNode(transport));
    });
    after(async () => {
      await down.close();
    });

    for (const [method, path] of [
      ['GET', '/api/core/v2/info'],
      ['GET', `/api/core/v2/blocks/${ID32}`],
      ['POST', '/api/core/v2/blocks'],
    ] as const) {
      it(`${method} ${path.replace(ID32, ':id')} -> 503 service unavailable: node unreachable`, async () => {
        const init: RequestInit =
          method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: '{}' } : {};
        const res = await fetch(down.url + path, init);
        expect(res.status).to.equal(503);
        expect((await errorOf(res)).message).to.equal('service unavailable: node unreachable');
      });
    }

    it('/health -> 503 without a body', async () => {
      const res = await fetch(`${down.url}/health`);
      expect(res.status).to.equal(503);
      expect(await res.text()).to.equal('');
    });
  });

  describe('toRestAnswer', () => {
    it('an unexpected gateway error is a bare 500 that says nothing about it', () => {
      const a = toRestAnswer(new TypeError("Cannot read properties of undefined (reading 'x')"));
      expect(a).to.deep.equal({
        status: 500,
        headers: {},
        body: { error: { code: 500, message: 'internal server error' } },
      });
    });

    it('HttpProblem keeps status, reason and headers; 413/415 use the 400 prefix', () => {
      expect(toRestAnswer(new HttpProblem(413, 'too big')).body.error.message).to.equal(
        'invalid data provided: too big',
      );
      expect(toRestAnswer(new HttpProblem(503, 'x', { 'retry-after': '2' })).headers).to.deep.equal({
        'retry-after': '2',
      });
    });

    it('DEADLINE_EXCEEDED -> 503', () => {
      const a = toRestAnswer(new NodeCallError('GetInfo', GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      expect(a.status).to.equal(503);
      expect(a.body.error.message).to.equal('service unavailable: node did not answer in time');
    });
  });
});
