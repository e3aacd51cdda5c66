/**
 * The gateway's route groups (gateway/route-groups.ts) and the header helpers of its hot path (gateway/media.ts):
 * grouping must not change what a request reaches, 404 or 405 (with Allow), case-insensitive paths and trailing
 * slashes included.
 */
import { expect } from 'chai';
import Koa from 'koa';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addVary, isJsonType } from '../../gateway/media.ts';
import { groupKey, RouteGroups } from '../../gateway/route-groups.ts';

describe('route groups', () => {
  it('groups /api paths by their first three segments and others by their first, lower-cased', () => {
    expect(groupKey('/api/core/v2/blocks/:blockId')).to.equal('/api/core/v2');
    expect(groupKey('/API/Core/V2/info/')).to.equal('/api/core/v2');
    expect(groupKey('/api/routes')).to.equal('/api/routes');
    expect(groupKey('/api/routes/')).to.equal('/api/routes');
    expect(groupKey('/health')).to.equal('/health');
    expect(groupKey('/dashboard/:file')).to.equal('/dashboard');
    expect(groupKey('/')).to.equal(undefined);
    expect(groupKey('')).to.equal(undefined);
    expect(groupKey('no-slash')).to.equal(undefined);
  });

  it('refuses a route whose group part holds a parameter', () => {
    expect(() => new RouteGroups().get('/api/:version/x', () => undefined)).to.throw(/group part/);
  });

  describe('served', () => {
    let server: Server;
    let base: string;
    before(async () => {
      const routes = new RouteGroups()
        .get('/health', (ctx) => {
          ctx.body = 'ok';
        })
        .get('/api/core/v2/blocks/:blockId', (ctx) => {
          ctx.body = `v2 ${ctx.params['blockId']}`;
        })
        .post('/api/core/v2/blocks', (ctx) => {
          ctx.status = 201;
        })
        .get('/api/core/v3/blocks/:blockId', (ctx) => {
          ctx.body = `v3 ${ctx.params['blockId']}`;
        })
        .delete('/api/core/v2/peers/:peerId', (ctx) => {
          ctx.status = 204;
        });
      const app = new Koa();
      app.use(routes.middleware());
      server = createServer(app.callback());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reaches each route in its group, case-insensitively and with a trailing slash', async () => {
      expect(await (await fetch(`${base}/api/core/v2/blocks/0xab`)).text()).to.equal('v2 0xab');
      expect(await (await fetch(`${base}/API/CORE/V2/blocks/0xab/`)).text()).to.equal('v2 0xab');
      expect(await (await fetch(`${base}/api/core/v3/blocks/0xcd`)).text()).to.equal('v3 0xcd');
      expect((await fetch(`${base}/api/core/v2/blocks`, { method: 'POST' })).status).to.equal(201);
      expect((await fetch(`${base}/api/core/v2/peers/x`, { method: 'DELETE' })).status).to.equal(204);
      expect(await (await fetch(`${base}/health`)).text()).to.equal('ok');
    });

    it('answers 405 with Allow within a group and 404 outside every route', async () => {
      const put = await fetch(`${base}/api/core/v2/blocks/0xab`, { method: 'PUT' });
      expect(put.status).to.equal(405);
      expect(put.headers.get('allow')).to.equal('HEAD, GET');
      const get = await fetch(`${base}/api/core/v2/blocks`);
      expect(get.status).to.equal(405);
      expect(get.headers.get('allow')).to.equal('POST');
      for (const path of ['/api/core/v2/nothing', '/api/core/v9/blocks/0xab', '/nothing', '/'])
        expect((await fetch(`${base}${path}`)).status, path).to.equal(404);
    });
  });
});

describe('media header helpers', () => {
  it('isJsonType: application/json and +json types, parameters and case aside', () => {
    expect(isJsonType('application/json; charset=utf-8')).to.equal(true);
    expect(isJsonType('Application/JSON')).to.equal(true);
    expect(isJsonType('application/problem+json')).to.equal(true);
    expect(isJsonType('application/vnd.iota.serializer-v1')).to.equal(false);
    expect(isJsonType('text/html')).to.equal(false);
    expect(isJsonType(undefined)).to.equal(false);
  });

  it('addVary appends a field once, whatever its case, and leaves * alone', () => {
    const headers = new Map<string, string>();
    const ctx = {
      headerSent: false,
      response: { get: (k: string) => headers.get(k.toLowerCase()) },
      set: (k: string, v: string) => headers.set(k.toLowerCase(), v),
    } as unknown as Koa.Context;
    addVary(ctx, 'Origin');
    addVary(ctx, 'Accept');
    addVary(ctx, 'accept');
    addVary(ctx, 'Accept-Encoding');
    expect(headers.get('vary')).to.equal('Origin, Accept, Accept-Encoding');
    headers.set('vary', '*');
    addVary(ctx, 'Accept');
    expect(headers.get('vary')).to.equal('*');
  });
});
