/**
 * The v3 UTXO changes routes (gateway/routes-v3-utxo.ts) against a fake NodeService: each of the four paths calls
 * GetUtxoChangesV3 with its key (commitment ID or slot) and `full`, in the view Accept asks for (the node's JSON text,
 * or serializer-v2 bytes); a malformed ID or slot is 400 before any call; the node's NOT_FOUND is 404; public by
 * default.
 */
import { expect } from 'chai';
import { BlockView } from '../../src/grpc/gen/node.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { describeOverTransports, hex, ID36 } from './harness.ts';
import { fakeNodeGateway, V2 } from './support.ts';

const JSON_ANSWER = '{"commitmentId":"0x","createdOutputs":[],"consumedOutputs":[]}';

interface Call {
  key: { $case: string; value: unknown };
  full: boolean;
  view: BlockView;
}

const CASES = [
  { path: `/commitments/${ID36}/utxo-changes`, key: ['commitmentId', ID36], full: false },
  { path: `/commitments/${ID36}/utxo-changes/full`, key: ['commitmentId', ID36], full: true },
  { path: '/commitments/by-slot/17/utxo-changes', key: ['slot', 17], full: false },
  { path: '/commitments/by-slot/0017/utxo-changes/full', key: ['slot', 17], full: true },
];

describeOverTransports('gateway v3 UTXO changes routes (against a fake NodeService)', (transport) => {
  const answer = (req: Call) => ({
    raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(4, 2) : new Uint8Array(0),
    json: req.view === BlockView.BLOCK_VIEW_JSON ? JSON_ANSWER : '',
  });
  const t = fakeNodeGateway(transport, {}, () => ({ getUtxoChangesV3: answer }));
  const v3 = (path: string): string => `${t.gw.url}/api/core/v3${path}`;
  const calls = () =>
    t.node.calls.map((c) => {
      const r = c.request as Call;
      const value = r.key.value instanceof Uint8Array ? hex(r.key.value) : r.key.value;
      return { method: c.method, key: [r.key.$case, value], full: r.full, view: r.view };
    });

  for (const c of CASES) {
    it(`GET ${c.path.replace(ID36, '{id}')}: GetUtxoChangesV3, JSON by default, bytes when Accept asks`, async () => {
      const json = await fetch(v3(c.path));
      expect([json.status, json.headers.get('content-type'), await json.text()]).to.deep.equal([
        200,
        'application/json; charset=utf-8',
        JSON_ANSWER,
      ]);
      const raw = await fetch(v3(c.path), { headers: { accept: V2 } });
      expect([raw.status, raw.headers.get('content-type')]).to.deep.equal([200, V2]);
      expect([...new Uint8Array(await raw.arrayBuffer())]).to.deep.equal([4, 2]);
      const method = 'getUtxoChangesV3';
      expect(calls()).to.deep.equal([
        { method, key: c.key, full: c.full, view: BlockView.BLOCK_VIEW_JSON },
        { method, key: c.key, full: c.full, view: BlockView.BLOCK_VIEW_RAW },
      ]);
    });
  }

  it('a malformed commitment ID or slot, or a slot beyond u32, is 400 before any call', async () => {
    for (const path of [
      '/commitments/0x1234/utxo-changes',
      `/commitments/${ID36.slice(2)}/utxo-changes/full`,
      '/commitments/by-slot/x/utxo-changes',
      '/commitments/by-slot/-1/utxo-changes/full',
      '/commitments/by-slot/4294967296/utxo-changes',
    ]) {
      const res = await fetch(v3(path));
      expect(res.status, path).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message, path).to.match(
        /invalid (commitment ID|slot)/,
      );
    }
    expect(t.node.calls).to.have.length(0);
  });

  it("the node's NOT_FOUND is 404 and INVALID_REQUEST 400, with the node's message", async () => {
    t.node.handlers = {
      getUtxoChangesV3: (req: Call) => {
        if (req.key.$case === 'slot' && req.key.value === 0)
          throw new NodeError('INVALID_REQUEST', 'invalid slot: 0 is before the genesis slot 5');
        throw new NodeError('NOT_FOUND', 'slot 99 is not committed yet (the latest committed slot is 20)');
      },
    };
    const missing = await fetch(v3('/commitments/by-slot/99/utxo-changes'));
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.contain('slot 99 is not committed yet');
    expect((await fetch(v3('/commitments/by-slot/0/utxo-changes'))).status).to.equal(400);
  });
});
