import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { signJwtHs256 } from '../../gateway/index.ts';
import { describeOverTransports, ID32, startTestGateway } from './harness.ts';
import { fakeNodeGateway, minimalInfo } from './support.ts';

const SECRET = 'correct horse battery staple';
const now = (): number => Math.floor(Date.now() / 1000);
const b64 = (text: string): string => Buffer.from(text).toString('base64url');

async function message(res: Response): Promise<string> {
  const body = (await res.json()) as { error: { code: number; message: string } };
  expect(body.error.code).to.equal(res.status);
  return body.error.message;
}

/** A raw HTTP exchange (fetch would decompress and always frame the body). */
function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; chunks?: Uint8Array[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    for (const c of init.chunks ?? []) req.write(c);
    req.end();
  });
}

describeOverTransports('gateway access, CORS, body limit, gzip', (transport) => {
  const t = fakeNodeGateway(
    transport,
    {
      jwtSecret: SECRET,
      publicRoutes: [
        '/health',
        '/api/routes',
        '/api/core/v2/info',
        '/api/core/v2/blocks*',
        '/api/core/v2/transactions*',
        '/api/core/v3/transactions*',
      ],
      protectedRoutes: ['/api/core/v2/tips', '/api/*'],
    },
    () => ({
      getTips: () => ({ tips: [new Uint8Array(32).fill(1)] }),
      getInfo: minimalInfo,
      submitBlock: () => ({ blockId: new Uint8Array(32).fill(9) }),
    }),
  );

  describe('403', () => {
    for (const path of ['/', '/metrics', '/dashboard/index.html', '/healthz', '/health/x']) {
      it(`a path in neither list (${path}) -> 403 without calling the node`, async () => {
        const res = await fetch(t.gw.url + path);
        expect(res.status).to.equal(403);
        expect(await message(res)).to.equal(`not available for public use: route ${path} is not exposed`);
        expect(t.node.calls).to.have.length(0);
      });
    }

    it('matches patterns on the path only: a query string never moves a public route', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/info?x=1&y=/api/secret`);
      expect(res.status).to.equal(200);
    });

    it('patterns are anchored: a public pattern does not match a longer path', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/infoo`); // protected by /api/*, no token
      expect(res.status).to.equal(403);
      const res2 = await fetch(`${t.gw.url}/x/api/core/v2/info`); // neither list
      expect(res2.status).to.equal(403);
    });

    const badTokens: [string, Record<string, string>, RegExp][] = [
      ['no Authorization header', {}, /missing or malformed bearer token$/],
      ['a Basic header', { authorization: 'Basic dXNlcjpwYXNz' }, /missing or malformed bearer token$/],
      ['garbage token', { authorization: 'Bearer not-a-jwt' }, /malformed token$/],
      [
        'wrong secret',
        { authorization: `Bearer ${signJwtHs256({ sub: 'x' }, 'other secret')}` },
        /invalid token signature$/,
      ],
      ['expired', { authorization: `Bearer ${signJwtHs256({ sub: 'x', exp: now() - 10 }, SECRET)}` }, /token expired$/],
      [
        'not yet valid',
        { authorization: `Bearer ${signJwtHs256({ nbf: now() + 600 }, SECRET)}` },
        /token not valid yet$/,
      ],
      [
        'alg none',
        {
          authorization: `Bearer ${b64('{"alg":"none","typ":"JWT"}')}.${b64('{"sub":"x"}')}.`,
        },
        /unsupported token algorithm "none"$/,
      ],
    ];
    for (const [name, headers, reason] of badTokens) {
      it(`a protected route with ${name} -> 403`, async () => {
        const res = await fetch(`${t.gw.url}/api/core/v2/tips`, { headers });
        expect(res.status).to.equal(403);
        const msg = await message(res);
        expect(msg).to.match(/^not available for public use: route \/api\/core\/v2\/tips is protected: /);
        expect(msg).to.match(reason);
        expect(t.node.calls).to.have.length(0);
      });
    }

    it('a protected route with a valid token (with and without exp) is served', async () => {
      for (const claims of [{ sub: 'ops' }, { sub: 'ops', exp: now() + 600 }]) {
        const res = await fetch(`${t.gw.url}/api/core/v2/tips`, {
          headers: { authorization: `Bearer ${signJwtHs256(claims, SECRET)}` },
        });
        expect(res.status).to.equal(200);
        expect(await res.json()).to.deep.equal({ tips: [`0x${'01'.repeat(32)}`] });
      }
    });

    it('an unknown path under a protected pattern: 403 without a token, 404 with one', async () => {
      expect((await fetch(`${t.gw.url}/api/peers`)).status).to.equal(403);
      const res = await fetch(`${t.gw.url}/api/peers`, {
        headers: { authorization: `Bearer ${signJwtHs256({}, SECRET)}` },
      });
      expect(res.status).to.equal(404);
      expect(await message(res)).to.equal('could not find data: no route GET /api/peers');
    });

    it('without a configured secret every protected route is closed', async () => {
      const closed = await startTestGateway(t.node, { protectedRoutes: ['/api/*'], publicRoutes: ['/health'] });
      try {
        const res = await fetch(`${closed.url}/api/core/v2/info`, {
          headers: { authorization: `Bearer ${signJwtHs256({}, '')}` },
        });
        expect(res.status).to.equal(403);
        expect(await message(res)).to.match(/accepts no tokens$/);
      } finally {
        await closed.close();
      }
    });

    it('by default every served route is public', async () => {
      const open = await startTestGateway(t.node);
      try {
        t.node.handlers.explorerSearch = () => ({ json: '{"kind":"milestone"}' });
        // the explorer page reads public routes only, its search too
        for (const path of [
          '/health',
          '/api/routes',
          '/api/core/v2/info',
          '/api/core/v2/tips',
          '/api/explorer/v2/search/1',
          '/dashboard/explorer',
          '/dashboard/explorer.js',
        ]) {
          expect((await fetch(open.url + path)).status, path).to.equal(200);
        }
        const post = await fetch(`${open.url}/api/core/v2/blocks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(post.status).to.equal(201);
        // under the default protected /api/*
        expect((await fetch(`${open.url}/api/core/v2/peers`)).status).to.equal(403);
        expect((await fetch(`${open.url}/metrics`)).status).to.equal(403);
      } finally {
        await open.close();
      }
    });
  });

  describe('CORS', () => {
    it('answers a preflight with 204 and the allowed methods and headers, even for a protected route', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/tips`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://wallet.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, authorization',
        },
      });
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-allow-methods')).to.contain('POST');
      expect(res.headers.get('access-control-allow-headers')).to.equal('content-type, authorization');
      expect(t.node.calls).to.have.length(0);
    });

    it('puts Allow-Origin and the exposed headers on answers and on errors', async () => {
      const ok = await fetch(`${t.gw.url}/api/core/v2/info`, { headers: { origin: 'https://wallet.example' } });
      expect(ok.headers.get('access-control-allow-origin')).to.equal('*');
      expect(ok.headers.get('access-control-expose-headers')).to.contain('Location');
      const bad = await fetch(`${t.gw.url}/api/core/v2/blocks/0x12`);
      expect(bad.status).to.equal(400);
      expect(bad.headers.get('access-control-allow-origin')).to.equal('*');
    });

    it('can be turned off or given an origin', async () => {
      const off = await startTestGateway(t.node, { cors: false });
      const own = await startTestGateway(t.node, { cors: { origin: 'https://explorer.example' } });
      try {
        expect((await fetch(`${off.url}/api/routes`)).headers.get('access-control-allow-origin')).to.equal(null);
        expect((await fetch(`${own.url}/api/routes`)).headers.get('access-control-allow-origin')).to.equal(
          'https://explorer.example',
        );
      } finally {
        await off.close();
        await own.close();
      }
    });
  });

  describe('body limit (413)', () => {
    it('rejects a body over the default 1 MiB by Content-Length, without calling the node', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.iota.serializer-v1' },
        body: new Uint8Array(1024 * 1024 + 1),
      });
      expect(res.status).to.equal(413);
      expect(await message(res)).to.equal('invalid data provided: request body exceeds the limit of 1048576 bytes');
      expect(t.node.calls).to.have.length(0);
    });

    it('accepts a body of exactly the limit', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.iota.serializer-v1' },
        body: new Uint8Array(1024 * 1024),
      });
      expect(res.status).to.equal(201);
      expect((t.node.calls[0]!.request as { block: { value: Uint8Array } }).block.value.length).to.equal(1024 * 1024);
    });

    it('rejects a chunked body (no Content-Length) as soon as it passes a configured limit', async () => {
      const small = await startTestGateway(t.node, { bodyLimitBytes: 100 });
      try {
        const res = await rawRequest(`${small.url}/api/core/v2/blocks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          chunks: [Buffer.from('{"protocolVersion":2,"payload":"'), Buffer.alloc(200, 0x61), Buffer.from('"}')],
        });
        expect(res.status).to.equal(413);
        expect(JSON.parse(res.body.toString())).to.deep.equal({
          error: { code: 413, message: 'invalid data provided: request body exceeds the limit of 100 bytes' },
        });
        expect(t.node.calls).to.have.length(0);
      } finally {
        await small.close();
      }
    });
  });

  describe('gzip', () => {
    it('compresses a large JSON answer when the client accepts gzip', async () => {
      t.node.handlers.getIncludedBlock = () => ({
        blockId: new Uint8Array(32),
        raw: new Uint8Array(0),
        json: JSON.stringify({ payload: { data: `0x${'00'.repeat(4000)}` } }),
      });
      const res = await rawRequest(`${t.gw.url}/api/core/v2/transactions/${ID32}/included-block`, {
        headers: { 'accept-encoding': 'br;q=1, gzip;q=0.8' },
      });
      expect(res.status).to.equal(200);
      expect(res.headers['content-encoding']).to.equal('gzip');
      expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
      expect(res.headers.vary).to.match(/accept-encoding/i);
      expect(res.body.length).to.be.below(1000);
      expect(JSON.parse(gunzipSync(res.body).toString('utf8')).payload.data).to.have.length(8002);
    });

    it('fetch sees the same JSON through the compression', async () => {
      t.node.handlers.getTips = () => ({ tips: Array.from({ length: 40 }, (_, i) => new Uint8Array(32).fill(i)) });
      const res = await fetch(`${t.gw.url}/api/core/v2/tips`, {
        headers: { authorization: `Bearer ${signJwtHs256({}, SECRET)}`, 'accept-encoding': 'gzip' },
      });
      expect(res.headers.get('content-encoding')).to.equal('gzip');
      expect(((await res.json()) as { tips: string[] }).tips).to.have.length(40);
    });

    it('leaves small answers, clients without gzip, and binary bodies alone', async () => {
      const small = await rawRequest(`${t.gw.url}/api/routes`, { headers: { 'accept-encoding': 'gzip' } });
      expect(small.headers['content-encoding']).to.equal(undefined);
      expect(JSON.parse(small.body.toString())).to.deep.equal({
        routes: ['core/v2', 'core/v3', 'indexer/v1', 'explorer/v2', 'faucet/v1'],
      });
      t.node.handlers.getBlock = () => ({
        blockId: new Uint8Array(32),
        raw: new Uint8Array(5000),
        json: JSON.stringify({ x: 'y'.repeat(5000) }),
      });
      const noGzip = await rawRequest(`${t.gw.url}/api/core/v2/blocks/${ID32}`, {
        headers: { 'accept-encoding': 'gzip;q=0, identity' },
      });
      expect(noGzip.headers['content-encoding']).to.equal(undefined);
      expect(noGzip.body.length).to.be.above(5000);
      const binary = await rawRequest(`${t.gw.url}/api/core/v2/blocks/${ID32}`, {
        headers: { 'accept-encoding': 'gzip', accept: 'application/vnd.iota.serializer-v1' },
      });
      expect(binary.headers['content-encoding']).to.equal(undefined);
      expect(binary.body.length).to.equal(5000);
    });
  });
});
