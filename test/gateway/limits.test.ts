/**
 * Abuse limits of the gateway against a fake node: body limit at the exact boundary (413), per-client rate limit
 * (429 + Retry-After, loopback exempt by default), the JSON body guard (400 for prototype-polluting keys and deep
 * nesting, before the node is called), node deadlines (503 "node did not answer in time"), and the limit flags.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { parseGatewayArgs } from '../../gateway/cli.ts';
import { DEFAULT_MAX_JSON_DEPTH, isLoopback, jsonGuardProblem, RateLimiter } from '../../gateway/index.ts';
import { describeOverTransports, startFakeNode, startTestGateway, type FakeNode, type TestGateway } from './harness.ts';
import { minimalInfo } from './support.ts';

type ErrorBody = { error: { code: number; message: string } };

function rawPost(
  url: string,
  headers: Record<string, string>,
  chunks: Uint8Array[],
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const postJson = (url: string, text: string): Promise<Response> =>
  fetch(`${url}/api/core/v2/blocks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

const INFO = minimalInfo();

describeOverTransports('gateway abuse limits', (transport) => {
  let node: FakeNode;
  const gateways: TestGateway[] = [];
  const gateway = async (options: Parameters<typeof startTestGateway>[1]): Promise<TestGateway> => {
    const gw = await startTestGateway(node, options);
    gateways.push(gw);
    return gw;
  };

  before(async () => {
    node = await startFakeNode(transport);
  });
  after(async () => {
    await node.stop();
  });
  beforeEach(() => {
    node.calls.length = 0;
    node.handlers = { getInfo: () => INFO, submitBlock: () => ({ blockId: new Uint8Array(32).fill(9) }) };
  });
  afterEach(async () => {
    for (const gw of gateways.splice(0)) await gw.close();
  });

  describe('body limit (413) at the exact boundary', () => {
    const LIMIT = 100;
    const binary = { 'content-type': 'application/vnd.iota.serializer-v1' };

    it('a body of exactly the limit reaches the node, one byte more is 413 (Content-Length and chunked)', async () => {
      const gw = await gateway({ bodyLimitBytes: LIMIT });
      const ok = await fetch(`${gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: binary,
        body: new Uint8Array(LIMIT),
      });
      expect(ok.status).to.equal(201);
      const chunkedOk = await rawPost(`${gw.url}/api/core/v2/blocks`, { ...binary, 'transfer-encoding': 'chunked' }, [
        new Uint8Array(60),
        new Uint8Array(40),
      ]);
      expect(chunkedOk.status).to.equal(201);
      expect(node.calls.map((c) => (c.request as { block: { value: Uint8Array } }).block.value.length)).to.deep.equal([
        LIMIT,
        LIMIT,
      ]);

      const over = await fetch(`${gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: binary,
        body: new Uint8Array(LIMIT + 1),
      });
      expect(over.status).to.equal(413);
      expect(await over.json()).to.deep.equal({
        error: { code: 413, message: `invalid data provided: request body exceeds the limit of ${LIMIT} bytes` },
      });
      const chunkedOver = await rawPost(`${gw.url}/api/core/v2/blocks`, { ...binary, 'transfer-encoding': 'chunked' }, [
        new Uint8Array(60),
        new Uint8Array(41),
      ]);
      expect(chunkedOver.status).to.equal(413);
      expect(node.calls).to.have.length(2);
    });

    it('a Content-Length that lies (claims more than the limit for a small body) is 413, never 5xx', async () => {
      const gw = await gateway({ bodyLimitBytes: LIMIT });
      const res = await rawPost(`${gw.url}/api/core/v2/blocks`, { ...binary, 'content-length': String(LIMIT + 1) }, [
        new Uint8Array(LIMIT + 1),
      ]);
      expect(res.status).to.equal(413);
    });
  });

  describe('rate limit (429)', () => {
    it('limits a client to its burst, then 429 with Retry-After and the JSON error, not calling the node', async () => {
      const gw = await gateway({ rateLimit: { requestsPerSecond: 0.5, burst: 3, limitLoopback: true } });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await fetch(`${gw.url}/api/core/v2/info`)).status);
      expect(statuses).to.deep.equal([200, 200, 200]);
      const res = await fetch(`${gw.url}/api/core/v2/info`);
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.equal('2'); // one token at 0.5/s
      const body = (await res.json()) as ErrorBody;
      expect(body.error.code).to.equal(429);
      expect(body.error.message).to.match(
        /^too many requests: rate limit of 0.5 requests per second \(burst 3\) exceeded, retry in 2 s$/,
      );
      expect(node.calls.filter((c) => c.method === 'getInfo')).to.have.length(3);
      // every route is limited, also unknown ones and POSTs (the limit runs before access checks and body reading)
      expect((await fetch(`${gw.url}/nowhere`)).status).to.equal(429);
      expect((await postJson(gw.url, '{}')).status).to.equal(429);
    });

    it('is off for loopback clients by default, even when configured', async () => {
      const gw = await gateway({ rateLimit: { requestsPerSecond: 1, burst: 1 } });
      for (let i = 0; i < 10; i++) expect((await fetch(`${gw.url}/api/core/v2/info`)).status).to.equal(200);
    });

    it('is off unless configured', async () => {
      const gw = await gateway({});
      const all = await Promise.all(
        Array.from({ length: 30 }, () => fetch(`${gw.url}/api/core/v2/info`).then((r) => r.status)),
      );
      expect(new Set(all)).to.deep.equal(new Set([200]));
    });

    it('RateLimiter: token buckets per client refill at the rate, up to the burst', () => {
      let t = 0;
      const rl = new RateLimiter({ requestsPerSecond: 2, burst: 2, now: () => t });
      expect([rl.take('a'), rl.take('a'), rl.take('a')]).to.deep.equal([0, 0, 1]);
      expect(rl.take('b')).to.equal(0); // another client has its own bucket
      t = 499;
      expect(rl.take('a')).to.equal(1);
      t = 500;
      expect(rl.take('a')).to.equal(0);
      t = 100_000; // refills to the burst, never beyond
      expect([rl.take('a'), rl.take('a'), rl.take('a')]).to.deep.equal([0, 0, 1]);
      const slow = new RateLimiter({ requestsPerSecond: 0.1, burst: 1, now: () => 0 });
      expect([slow.take('x'), slow.take('x')]).to.deep.equal([0, 10]);
      expect(new RateLimiter({ requestsPerSecond: 2.5 }).burst).to.equal(3);
    });

    it('RateLimiter: remembers at most maxClients, dropping idle buckets first', () => {
      let t = 0;
      const rl = new RateLimiter({ requestsPerSecond: 1, burst: 1, maxClients: 4, now: () => t });
      for (const c of ['a', 'b', 'c', 'd']) rl.take(c);
      expect(rl.clients).to.equal(4);
      t = 10_000; // all idle (full) again
      rl.take('e');
      expect(rl.clients).to.equal(1);
      for (const c of ['f', 'g', 'h']) rl.take(c);
      rl.take('i'); // none idle: the oldest half goes
      expect(rl.clients).to.be.at.most(4);
      expect(rl.take('i')).to.equal(1); // the newest client kept its empty bucket
    });

    it('RateLimiter: refuses bad options; isLoopback knows v4, v6 and mapped loopback', () => {
      for (const bad of [
        { requestsPerSecond: 0 },
        { requestsPerSecond: -1 },
        { requestsPerSecond: NaN },
        { requestsPerSecond: 1, burst: 0 },
        { requestsPerSecond: 1, burst: 1.5 },
      ]) {
        expect(() => new RateLimiter(bad), JSON.stringify(bad)).to.throw(RangeError);
      }
      expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).to.deep.equal([
        true,
        true,
        true,
        true,
      ]);
      expect(['10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', '128.0.0.1', undefined].map(isLoopback)).to.deep.equal([
        false,
        false,
        false,
        false,
        false,
      ]);
    });
  });

  describe('JSON body guard (400 before the node is called)', () => {
    const block = (extra: string): string =>
      `{"protocolVersion":2,"parents":[],"payload":{"type":5,"tag":"0x01","data":"0x02"${extra}},"nonce":"0"}`;

    for (const [name, text] of [
      ['a "__proto__" key', block(',"__proto__":{"polluted":true}')],
      ['a "constructor" key', `{"constructor":{"prototype":{"polluted":true}},"protocolVersion":2}`],
      ['a "prototype" key', block(',"prototype":1')],
      ['an escaped "__proto__" key', block(',"\\u005f_proto__":{"polluted":true}')],
      ['a "__proto__" key with whitespace before the colon', `{"protocolVersion":2, "__proto__" \n : 1}`],
    ] as const) {
      it(`refuses ${name}`, async () => {
        const gw = await gateway({});
        const res = await postJson(gw.url, text);
        expect(res.status).to.equal(400);
        expect(((await res.json()) as ErrorBody).error.message).to.match(
          /^invalid data provided: invalid block: forbidden key "(__proto__|constructor|prototype)" at offset \d+$/,
        );
        expect(node.calls).to.have.length(0);
        expect(({} as { polluted?: unknown }).polluted).to.equal(undefined);
      });
    }

    it('refuses nesting deeper than the limit and passes exactly the limit on to the node', async () => {
      const gw = await gateway({});
      const deep = (d: number): string => `{"protocolVersion":2,"x":${'['.repeat(d - 1)}${']'.repeat(d - 1)}}`;
      const over = await postJson(gw.url, deep(DEFAULT_MAX_JSON_DEPTH + 1));
      expect(over.status).to.equal(400);
      expect(((await over.json()) as ErrorBody).error.message).to.equal(
        'invalid data provided: invalid block: JSON nested deeper than 64 levels ' +
          `at offset ${DEFAULT_MAX_JSON_DEPTH + 24}`,
      );
      expect(node.calls).to.have.length(0);
      const at = await postJson(gw.url, deep(DEFAULT_MAX_JSON_DEPTH));
      expect(at.status).to.equal(201); // the fake node accepts anything: the guard let it through
      expect(node.calls).to.have.length(1);
      // a million brackets are refused at once, without parsing them
      const huge = await postJson(gw.url, '['.repeat(1_000_000));
      expect(huge.status).to.equal(400);
    });

    it('the depth limit is configurable', async () => {
      const gw = await gateway({ maxJsonDepth: 3 });
      expect((await postJson(gw.url, '{"a":{"b":{"c":1}}}')).status).to.equal(201);
      expect((await postJson(gw.url, '{"a":{"b":{"c":[]}}}')).status).to.equal(400);
    });

    it('jsonGuardProblem: looks only at keys and real brackets, never at string contents', () => {
      expect(jsonGuardProblem('{"tag":"__proto__","data":"constructor"}')).to.equal(undefined);
      expect(jsonGuardProblem(`{"a":"${'['.repeat(500)}"}`)).to.equal(undefined);
      expect(jsonGuardProblem('{"a\\"__proto__":1}')).to.equal(undefined); // the key is a"__proto__
      expect(jsonGuardProblem('{"a":"x\\\\","__proto__":1}')).to.equal('forbidden key "__proto__" at offset 11');
      expect(jsonGuardProblem('["__proto__" , "prototype"]')).to.equal(undefined); // array items are no keys
      expect(jsonGuardProblem('{"PROTOTYPE":1,"Constructor":2,"__proto":3}')).to.equal(undefined);
      expect(jsonGuardProblem('[[[]]]', 3)).to.equal(undefined);
      expect(jsonGuardProblem('[[[[]]]]', 3)).to.equal('JSON nested deeper than 3 levels at offset 3');
      expect(jsonGuardProblem('{"a":[{}],"c":[[]],"d":{"e":[]}}', 3)).to.equal(undefined); // depth goes down again
      expect(jsonGuardProblem('{"unterminated')).to.equal(undefined); // syntax is JSON.parse's job
      expect(jsonGuardProblem('{"\\uZZZZ":1}')).to.equal(undefined);
    });

    it('syntax errors after the guard are still 400 with the parser message', async () => {
      const gw = await gateway({});
      const res = await postJson(gw.url, '{"protocolVersion":2,');
      expect(res.status).to.equal(400);
      expect(((await res.json()) as ErrorBody).error.message).to.match(
        /^invalid data provided: invalid block: malformed JSON body: /,
      );
    });
  });

  describe('node deadlines (503)', () => {
    it('a read the node does not answer within timeoutMs is 503 "node did not answer in time"', async () => {
      node.handlers.getInfo = () => new Promise((resolve) => setTimeout(() => resolve(INFO), 1500));
      const gw = await gateway({ timeoutMs: 150 });
      const t0 = Date.now();
      const res = await fetch(`${gw.url}/api/core/v2/info`);
      expect(res.status).to.equal(503);
      expect(await res.json()).to.deep.equal({
        error: { code: 503, message: 'service unavailable: node did not answer in time' },
      });
      expect(Date.now() - t0).to.be.below(1200);
    });

    it('a submission uses submitTimeoutMs, not the read deadline', async () => {
      node.handlers.submitBlock = () =>
        new Promise((resolve) => setTimeout(() => resolve({ blockId: new Uint8Array(32).fill(9) }), 300));
      const patient = await gateway({ timeoutMs: 50, submitTimeoutMs: 5000 });
      expect((await postJson(patient.url, '{"protocolVersion":2}')).status).to.equal(201);
      const hasty = await gateway({ timeoutMs: 5000, submitTimeoutMs: 50 });
      const res = await postJson(hasty.url, '{"protocolVersion":2}');
      expect(res.status).to.equal(503);
      expect(((await res.json()) as ErrorBody).error.message).to.equal(
        'service unavailable: node did not answer in time',
      );
    });
  });

  describe('limit flags of `ledger-node gateway`', () => {
    const base = ['--node', '127.0.0.1:1'];
    it('parses --rate-limit, --rate-burst, --rate-limit-loopback and --max-json-depth', () => {
      expect(parseGatewayArgs(base).rateLimit).to.equal(undefined);
      expect(parseGatewayArgs([...base, '--rate-limit', '20']).rateLimit).to.deep.equal({ requestsPerSecond: 20 });
      expect(
        parseGatewayArgs([...base, '--rate-limit=0.5', '--rate-burst', '4', '--rate-limit-loopback']).rateLimit,
      ).to.deep.equal({
        requestsPerSecond: 0.5,
        burst: 4,
        limitLoopback: true,
      });
      expect(parseGatewayArgs([...base, '--rate-limit', '5', '--rate-limit-loopback=false']).rateLimit).to.deep.equal({
        requestsPerSecond: 5,
        limitLoopback: false,
      });
      expect(parseGatewayArgs([...base, '--max-json-depth', '16']).maxJsonDepth).to.equal(16);
    });
    for (const bad of [
      ['--rate-limit', '0'],
      ['--rate-limit', '-1'],
      ['--rate-limit', 'fast'],
      ['--rate-burst', '3'],
      ['--rate-limit-loopback'],
      ['--rate-limit', '5', '--rate-burst', '0'],
      ['--rate-limit', '5', '--rate-limit-loopback=yes'],
      ['--max-json-depth', '0'],
      ['--max-json-depth', 'deep'],
    ]) {
      it(`refuses ${bad.join(' ')}`, () => {
        expect(() => parseGatewayArgs([...base, ...bad])).to.throw(Error, /--rate-limit|--rate-burst|--max-json-depth/);
      });
    }
  });
});
