/**
 * The v3 read routes of issue 24 against a fake NodeService: which RPC each route calls with which request (IDs
 * parsed from the path, the view by Accept where bytes are offered), the node's JSON text passed through, 400 for a
 * malformed ID before any call, and every route public by default.
 */
import { expect } from 'chai';
import { BlockView } from '../../src/grpc/gen/node.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { describeOverTransports, hex, ID36 } from './harness.ts';
import { fakeNodeGateway, V2, type Handlers } from './support.ts';

/** One route: its path under /api/core/v3, the RPC it calls and the request fields it must send (hex for bytes). */
interface Case {
  path: string;
  method: keyof Handlers;
  request: Record<string, unknown>;
}

const JSON_ANSWER = '{"answer":true}';
const J = () => ({ json: JSON_ANSWER });
const UNSPECIFIED = BlockView.BLOCK_VIEW_UNSPECIFIED;

const OID = `${ID36}0100`;

const CASES: Case[] = [
  { path: `/blocks/${ID36}/full`, method: 'getBlockWithMetadataV3', request: { blockId: ID36, view: UNSPECIFIED } },
  {
    path: `/transactions/${ID36}/metadata`,
    method: 'getTransactionMetadataV3',
    request: { transactionId: ID36, view: UNSPECIFIED },
  },
  {
    path: `/transactions/${ID36}/included-block/metadata`,
    method: 'getIncludedBlockMetadataV3',
    request: { transactionId: ID36, view: UNSPECIFIED },
  },
  { path: `/outputs/${OID}/metadata`, method: 'getOutputMetadataV3', request: { outputId: OID, view: UNSPECIFIED } },
  { path: `/outputs/${OID}/full`, method: 'getOutputWithMetadataV3', request: { outputId: OID, view: UNSPECIFIED } },
];

/** The request as the test compares it: bytes as 0x hex. */
function shown(request: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(request as Record<string, unknown>))
    out[k] = v instanceof Uint8Array ? hex(v) : v;
  return out;
}

describeOverTransports('gateway v3 read routes (against a fake NodeService)', (transport) => {
  const t = fakeNodeGateway(transport, {}, () => Object.fromEntries(CASES.map((c) => [c.method, J])) as Handlers);
  const v3 = (path: string): string => `${t.gw.url}/api/core/v3${path}`;

  for (const c of CASES) {
    it(`GET ${c.path.replace(OID, '{id}').replace(ID36, '{id}')}: ${c.method}, the node's JSON text`, async () => {
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

  it('GET /outputs/{id}: JSON view by default, serializer-v2 bytes when Accept asks', async () => {
    t.node.handlers = {
      getOutputV3: (req: { view: BlockView }) => ({
        raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(0, 1, 2) : new Uint8Array(0),
        json: req.view === BlockView.BLOCK_VIEW_JSON ? JSON_ANSWER : '',
      }),
    };
    const json = await fetch(v3(`/outputs/${OID}`));
    expect([json.status, await json.text()]).to.deep.equal([200, JSON_ANSWER]);
    const raw = await fetch(v3(`/outputs/${OID}`), { headers: { accept: V2 } });
    expect([raw.status, raw.headers.get('content-type')]).to.deep.equal([200, V2]);
    expect([...new Uint8Array(await raw.arrayBuffer())]).to.deep.equal([0, 1, 2]);
    expect(t.node.calls.map((c) => shown(c.request))).to.deep.equal([
      { outputId: OID, view: BlockView.BLOCK_VIEW_JSON },
      { outputId: OID, view: BlockView.BLOCK_VIEW_RAW },
    ]);
  });

  it('GET /commitments/{id} and /commitments/by-slot/{slot}: by ID or slot, JSON or bytes', async () => {
    t.node.handlers = {
      getCommitmentV3: (req: { view: BlockView }) => ({
        raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(9) : new Uint8Array(0),
        json: req.view === BlockView.BLOCK_VIEW_JSON ? JSON_ANSWER : '',
      }),
    };
    expect(await (await fetch(v3(`/commitments/${ID36}`))).text()).to.equal(JSON_ANSWER);
    const raw = await fetch(v3('/commitments/by-slot/17'), { headers: { accept: V2 } });
    expect([raw.status, [...new Uint8Array(await raw.arrayBuffer())]]).to.deep.equal([200, [9]]);
    const keys = t.node.calls.map((c) => (c.request as { key: { $case: string; value: unknown } }).key);
    expect(keys.map((k) => [k.$case, k.value instanceof Uint8Array ? hex(k.value) : k.value])).to.deep.equal([
      ['commitmentId', ID36],
      ['slot', 17],
    ]);
    expect((await fetch(v3('/commitments/by-slot/x'))).status).to.equal(400);
    expect((await fetch(v3('/commitments/0x12'))).status).to.equal(400);
  });

  it('a malformed ID is 400 before any call', async () => {
    for (const c of CASES) {
      const res = await fetch(v3(c.path.replace(OID, '0x1234').replace(ID36, '0x1234')));
      expect(res.status, c.path).to.equal(400);
    }
    expect(t.node.calls).to.have.length(0);
  });

  it("the node's NOT_FOUND is 404", async () => {
    t.node.handlers = {
      getTransactionMetadataV3: () => {
        throw new NodeError('NOT_FOUND', 'transaction not found');
      },
    };
    expect((await fetch(v3(`/transactions/${ID36}/metadata`))).status).to.equal(404);
  });
});
