/**
 * Issue 16 at the gateway, against a fake node: the peers routes answer Hornet's PeerResponse and need the JWT; the
 * dashboard's files are served from the repository and from uPlot's npm package, its data route is public to loopback
 * clients and protected for anyone else; the REST latency histogram is labelled by route pattern and status.
 */
import { expect } from 'chai';
import type { Context } from 'koa';
import { Registry } from 'prom-client';
import { accessControl } from '../../gateway/access.ts';
import { parseGatewayArgs } from '../../gateway/cli.ts';
import { signJwtHs256 } from '../../gateway/index.ts';
import type { Peer } from '../../src/grpc/gen/node.ts';
import { parseScrape } from '../support/prometheus.ts';
import { fakeNodeGateway } from './support.ts';

const SECRET = 'dashboard secret';
const AUTH = { authorization: `Bearer ${signJwtHs256({ sub: 'operator' }, SECRET)}` };

const PEER: Peer = {
  id: 'ab'.repeat(16),
  multiAddresses: ['/ip4/127.0.0.1/tcp/15600'],
  alias: 'a',
  relation: 'known',
  connected: true,
  address: '127.0.0.1:15600',
  gossip: {
    heartbeat: {
      solidMilestoneIndex: 5,
      prunedMilestoneIndex: 0,
      latestMilestoneIndex: 6,
      connectedPeers: 1,
      syncedPeers: 1,
    },
    metrics: {
      newBlocks: 1,
      knownBlocks: 2,
      receivedBlocks: 3,
      receivedBlockRequests: 4,
      receivedMilestoneRequests: 5,
      receivedHeartbeats: 6,
      sentBlocks: 7,
      sentBlockRequests: 8,
      sentMilestoneRequests: 9,
      sentHeartbeats: 10,
      droppedPackets: 11,
    },
  },
};

describe('gateway: peers routes, dashboard, REST metrics', () => {
  const registry = new Registry();
  const t = fakeNodeGateway('in-process', { jwtSecret: SECRET, metrics: registry }, () => ({
    getPeers: () => ({
      peers: [
        PEER,
        {
          id: '127.0.0.1:15601',
          multiAddresses: ['/ip4/127.0.0.1/tcp/15601'],
          relation: 'known',
          connected: false,
          address: '127.0.0.1:15601',
        },
      ],
    }),
    getPeer: () => PEER,
    addPeer: () => PEER,
    removePeer: () => ({}),
    getDashboard: () => ({ json: '{"synced":true}' }),
  }));

  it('GET /peers: 403 without a token; with one, Hornet PeerResponses (gossip only while connected)', async () => {
    expect((await fetch(`${t.gw.url}/api/core/v2/peers`)).status).to.equal(403);
    const res = await fetch(`${t.gw.url}/api/core/v2/peers`, { headers: AUTH });
    expect(res.status).to.equal(200);
    const body = (await res.json()) as Record<string, unknown>[];
    expect(Object.keys(body[0]!)).to.deep.equal(['id', 'multiAddresses', 'alias', 'relation', 'connected', 'gossip']);
    // Hornet's gossip: the heartbeat and the metrics under the node's own field names
    expect(body[0]!.gossip).to.deep.equal({ heartbeat: PEER.gossip!.heartbeat, metrics: PEER.gossip!.metrics });
    expect(body[1]).to.deep.equal({
      id: '127.0.0.1:15601',
      multiAddresses: ['/ip4/127.0.0.1/tcp/15601'],
      relation: 'known',
      connected: false,
    });
  });

  it('GET /peers/{id} passes the ID; DELETE answers 204', async () => {
    const res = await fetch(`${t.gw.url}/api/core/v2/peers/127.0.0.1:15600`, { headers: AUTH });
    expect(res.status).to.equal(200);
    expect(t.node.calls[0]).to.deep.equal({ method: 'getPeer', request: { peerId: '127.0.0.1:15600' } });
    const del = await fetch(`${t.gw.url}/api/core/v2/peers/${PEER.id}`, { method: 'DELETE', headers: AUTH });
    expect(del.status).to.equal(204);
    expect(t.node.calls[1]).to.deep.equal({ method: 'removePeer', request: { peerId: PEER.id } });
  });

  it('POST /peers takes {multiAddress, alias?}; a bad body is 400 or 415 before the node is asked', async () => {
    const post = (body: string, type = 'application/json'): Promise<Response> =>
      fetch(`${t.gw.url}/api/core/v2/peers`, { method: 'POST', headers: { ...AUTH, 'content-type': type }, body });
    const ok = await post(JSON.stringify({ multiAddress: '/ip4/127.0.0.1/tcp/15600', alias: 'a' }));
    expect(ok.status).to.equal(200);
    expect(((await ok.json()) as { id: string }).id).to.equal(PEER.id);
    expect(t.node.calls[0]).to.deep.equal({
      method: 'addPeer',
      request: { address: '/ip4/127.0.0.1/tcp/15600', alias: 'a' },
    });
    expect((await post('{"alias":"x"}')).status).to.equal(400);
    expect((await post('{"multiAddress":7}')).status).to.equal(400);
    expect((await post('[1]')).status).to.equal(400);
    expect((await post('{')).status).to.equal(400);
    expect((await post('{"multiAddress":"1.2.3.4:5"}', 'text/plain')).status).to.equal(415);
    expect(t.node.calls).to.have.length(1);
  });

  it('serves the dashboard page, its script and uPlot from its npm package; other names are 404', async () => {
    const page = await fetch(`${t.gw.url}/dashboard`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.match(/default-src 'self'/);
    expect(await page.text()).to.contain('/dashboard/app.js');
    const uplot = await fetch(`${t.gw.url}/dashboard/uplot.min.js`);
    expect(uplot.status).to.equal(200);
    expect(await uplot.text()).to.contain('uPlot');
    expect((await fetch(`${t.gw.url}/dashboard/app.js`)).headers.get('content-type')).to.match(/^text\/javascript/);
    expect((await fetch(`${t.gw.url}/dashboard/package.json`)).status).to.equal(404);
    expect((await fetch(`${t.gw.url}/dashboard/..%2F..%2Fpackage.json`)).status).to.equal(404);
  });

  it('the dashboard data route is public on loopback (this test connects over 127.0.0.1)', async () => {
    const res = await fetch(`${t.gw.url}/api/dashboard/v1/data`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ synced: true });
  });

  it('from any other address the dashboard data route needs the JWT', async () => {
    const check = accessControl({ jwtSecret: SECRET });
    const ctxFrom = (remoteAddress: string, headers: Record<string, string> = {}): Context =>
      ({
        path: '/api/dashboard/v1/data',
        req: { socket: { remoteAddress } },
        get: (h: string) => headers[h.toLowerCase()] ?? '',
      }) as unknown as Context;
    let passed = 0;
    const next = async (): Promise<void> => {
      passed++;
    };
    await check(ctxFrom('::ffff:127.0.0.1'), next);
    await check(ctxFrom('::1'), next);
    expect(passed).to.equal(2);
    let refused: unknown;
    await check(ctxFrom('10.1.2.3'), next).catch((e: unknown) => (refused = e));
    expect(String((refused as Error).message)).to.match(/protected: missing or malformed bearer token/);
    await check(ctxFrom('10.1.2.3', AUTH), next);
    expect(passed).to.equal(3);
  });

  it('ledger-node gateway: --metrics-port N [--metrics-host H], off without them', () => {
    expect(parseGatewayArgs(['--node', 'n:1'])).to.not.have.property('metricsPort');
    expect(parseGatewayArgs(['--node', 'n:1', '--metrics-port', '9312'])).to.include({ metricsPort: 9312 });
    expect(parseGatewayArgs(['--node', 'n:1', '--metrics-port=0', '--metrics-host', '0.0.0.0'])).to.include({
      metricsPort: 0,
      metricsHost: '0.0.0.0',
    });
    expect(() => parseGatewayArgs(['--node', 'n:1', '--metrics-host', '0.0.0.0'])).to.throw(
      /--metrics-host needs --metrics-port/,
    );
    expect(() => parseGatewayArgs(['--node', 'n:1', '--metrics-port', 'x'])).to.throw(/invalid --metrics-port/);
  });

  it('times every request by route pattern and status, never the raw URL', async () => {
    await fetch(`${t.gw.url}/api/core/v2/peers/${PEER.id}`, { headers: AUTH });
    await fetch(`${t.gw.url}/api/core/v2/nothing-here`, { headers: AUTH });
    const scrape = parseScrape(await registry.metrics());
    expect(scrape.types.get('ledger_rest_request_duration_seconds')).to.equal('HISTOGRAM');
    const routes = scrape
      .labelsOf('ledger_rest_request_duration_seconds_count')
      .map((l) => `${l.method} ${l.route} ${l.status}`);
    expect(routes).to.include('GET /api/core/v2/peers/:peerId 200');
    expect(routes).to.include('GET none 403'); // refused by the access check, before routing
    expect(routes).to.include('GET none 404');
    expect(routes.some((r) => r.includes(PEER.id))).to.equal(false);
  });
});
