/**
 * The v3 network and account routes of TIP-48 against a fake NodeService: which RPC each route calls with which
 * request (query parameters parsed, the bech32 address and the cursor passed as written, the view by Accept), the
 * node's JSON text or bytes passed through, 400 for a malformed parameter before any call, the node's refusals as
 * 400 / 404 JSON errors, and every route public by default.
 */
import { expect } from 'chai';
import { BlockView } from '../../src/grpc/gen/node.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { describeOverTransports, hex, ID36 } from './harness.ts';
import { fakeNodeGateway, V2, type Handlers } from './support.ts';

const JSON_ANSWER = '{"answer":true}';
const JSON_VIEW = BlockView.BLOCK_VIEW_JSON;
const OID = `${ID36}0100`;
const ADDRESS = 'rms1pp20mvuxsat5cwfmqj8r3us68ctf05yph4lr0jtp6z36ypzj7749gz74fmm';

/** A fake node's answer: JSON for the JSON view, three bytes for the raw one. */
const answer = (req: { view: BlockView }) => ({
  raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(1, 2, 3) : new Uint8Array(0),
  json: req.view === BlockView.BLOCK_VIEW_JSON ? JSON_ANSWER : '',
});

const METHODS = [
  'getCommitteeV3',
  'getValidatorsV3',
  'getValidatorV3',
  'getAccountCongestionV3',
  'getOutputManaRewardsV3',
  'getNetworkMetricsV3',
] as const;

/** A route: its path and query under /api/core/v3, the RPC it calls, the request fields it must send. */
const CASES: { path: string; method: (typeof METHODS)[number]; request: Record<string, unknown> }[] = [
  { path: '/committee', method: 'getCommitteeV3', request: { view: JSON_VIEW } },
  { path: '/committee?epoch=12', method: 'getCommitteeV3', request: { epoch: 12 } },
  { path: '/validators', method: 'getValidatorsV3', request: { pageSize: 0, cursor: '' } },
  { path: '/validators?pageSize=5&cursor=3,10', method: 'getValidatorsV3', request: { pageSize: 5, cursor: '3,10' } },
  { path: `/validators/${ADDRESS}`, method: 'getValidatorV3', request: { bech32Address: ADDRESS } },
  {
    path: `/accounts/${ADDRESS}/congestion`,
    method: 'getAccountCongestionV3',
    request: { bech32Address: ADDRESS, workScore: 0, commitmentId: '0x' },
  },
  {
    path: `/accounts/${ADDRESS}/congestion?workScore=80&commitmentId=${ID36}`,
    method: 'getAccountCongestionV3',
    request: { bech32Address: ADDRESS, workScore: 80, commitmentId: ID36 },
  },
  { path: `/rewards/${OID}`, method: 'getOutputManaRewardsV3', request: { outputId: OID } },
  { path: `/rewards/${OID}?slot=77`, method: 'getOutputManaRewardsV3', request: { outputId: OID, slot: 77 } },
  { path: `/rewards/${OID}?slotIndex=78`, method: 'getOutputManaRewardsV3', request: { slot: 78 } },
  { path: `/rewards/${OID}?slot=9&slotIndex=9`, method: 'getOutputManaRewardsV3', request: { slot: 9 } },
  { path: '/network/metrics', method: 'getNetworkMetricsV3', request: { view: JSON_VIEW } },
];

/** Requests that are 400 before any call. */
const BAD = [
  '/committee?epoch=abc',
  '/committee?epoch=-1',
  '/committee?epoch=4294967296',
  '/committee?epoch=1&epoch=2',
  '/validators?pageSize=x',
  '/validators?pageSize=1.5',
  `/accounts/${ADDRESS}/congestion?workScore=-3`,
  `/accounts/${ADDRESS}/congestion?commitmentId=0x12`,
  `/accounts/${ADDRESS}/congestion?commitmentId=${ID36.slice(2)}`,
  '/rewards/0x1234',
  `/rewards/${ID36}`,
  `/rewards/${OID}?slot=x`,
  `/rewards/${OID}?slot=1&slotIndex=2`,
];

/** The request as the test compares it: bytes as 0x hex. */
function shown(request: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(request as Record<string, unknown>))
    out[k] = v instanceof Uint8Array ? hex(v) : v;
  return out;
}

describeOverTransports('gateway v3 network and account routes (against a fake NodeService)', (transport) => {
  const t = fakeNodeGateway(transport, {}, () => Object.fromEntries(METHODS.map((m) => [m, answer])) as Handlers);
  const v3 = (path: string): string => `${t.gw.url}/api/core/v3${path}`;

  for (const c of CASES) {
    it(`GET ${c.path.replace(OID, '{outputId}').replace(ADDRESS, '{address}')}: ${c.method}`, async () => {
      const res = await fetch(v3(c.path));
      expect([res.status, res.headers.get('content-type'), await res.text()]).to.deep.equal([
        200,
        'application/json; charset=utf-8',
        JSON_ANSWER,
      ]);
      expect(t.node.calls.map((x) => x.method)).to.deep.equal([c.method]);
      expect(shown(t.node.calls[0]!.request)).to.deep.include(c.request);
    });
  }

  it('an absent epoch or slot is absent in the request (the node takes the current one)', async () => {
    await fetch(v3('/committee'));
    await fetch(v3(`/rewards/${OID}?slot=`));
    expect(
      t.node.calls.map((c) => [c.method, (c.request as { epoch?: number; slot?: number }).epoch ?? 'none']),
    ).to.deep.equal([
      ['getCommitteeV3', 'none'],
      ['getOutputManaRewardsV3', 'none'],
    ]);
    expect((t.node.calls[1]!.request as { slot?: number }).slot).to.equal(undefined);
  });

  it('serializer-v2 bytes when Accept asks, for every route', async () => {
    for (const path of ['/committee', '/validators', `/validators/${ADDRESS}`, '/network/metrics'].concat([
      `/accounts/${ADDRESS}/congestion`,
      `/rewards/${OID}`,
    ])) {
      const res = await fetch(v3(path), { headers: { accept: V2 } });
      expect([res.status, res.headers.get('content-type')], path).to.deep.equal([200, V2]);
      expect([...new Uint8Array(await res.arrayBuffer())], path).to.deep.equal([1, 2, 3]);
    }
    expect(t.node.calls.every((c) => (c.request as { view: BlockView }).view === BlockView.BLOCK_VIEW_RAW)).to.equal(
      true,
    );
  });

  it('a malformed query parameter or output ID is 400 before any call', async () => {
    for (const path of BAD) {
      const res = await fetch(v3(path));
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect([res.status, body.error.code], path).to.deep.equal([400, 400]);
      expect(body.error.message, path).to.be.a('string').and.not.equal('');
    }
    expect(t.node.calls).to.have.length(0);
  });

  it("the node's INVALID_ARGUMENT is 400 and NOT_FOUND 404, as JSON errors", async () => {
    t.node.handlers = {
      getValidatorV3: () => {
        throw new NodeError('INVALID_REQUEST', 'address rms1x is not an account address');
      },
      getAccountCongestionV3: () => {
        throw new NodeError('NOT_FOUND', 'account 0x01 not found');
      },
    };
    const bad = await fetch(v3('/validators/rms1x'));
    expect([bad.status, await bad.json()]).to.deep.equal([
      400,
      { error: { code: 400, message: 'invalid data provided: address rms1x is not an account address' } },
    ]);
    const missing = await fetch(v3(`/accounts/${ADDRESS}/congestion`));
    expect(missing.status).to.equal(404);
  });
});
