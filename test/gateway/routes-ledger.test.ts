/**
 * The ledger routes of the gateway (outputs, milestones, receipts, treasury) against a fake NodeService: which RPC each
 * route calls with which request (view by Accept, the milestone by ID or index, migratedAt), the node's JSON text and
 * bytes passed through, path checks before any call, and the routes public by default.
 */
import { expect } from 'chai';
import { BlockView } from '../../src/grpc/gen/node.ts';
import { describeOverTransports, hex, ID32 } from './harness.ts';
import { fakeNodeGateway } from './support.ts';

const V1 = 'application/vnd.iota.serializer-v1';
const OUTPUT_ID = `0x${'ab'.repeat(32)}0100`;
const OUTPUT_JSON = '{"metadata":{"blockId":"0x00"},"output":{"type":3}}';
const MILESTONE_JSON = '{"type":7,"index":5}';

describeOverTransports('gateway ledger routes (against a fake NodeService)', (transport) => {
  const t = fakeNodeGateway(transport, {}, () => ({
    getOutput: (req: { outputId: Uint8Array; view: BlockView }) => ({
      outputId: req.outputId,
      raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(3, 1, 2) : new Uint8Array(0),
      json: req.view === BlockView.BLOCK_VIEW_JSON ? OUTPUT_JSON : '',
    }),
    getOutputMetadata: () => ({ json: '{"isSpent":false}' }),
    getMilestone: (req: { view: BlockView }) => ({
      index: 5,
      milestoneId: new Uint8Array(32),
      raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(7, 5) : new Uint8Array(0),
      json: req.view === BlockView.BLOCK_VIEW_JSON ? MILESTONE_JSON : '',
    }),
    getMilestoneUtxoChanges: () => ({ json: '{"index":5,"createdOutputs":[],"consumedOutputs":[]}' }),
    getReceipts: () => ({ json: '{"receipts":[]}' }),
    getTreasury: () => ({ json: '{"milestoneId":"0x00","amount":"1"}' }),
  }));
  const v2 = (path: string): string => `${t.gw.url}/api/core/v2${path}`;
  const request = (i = 0): Record<string, unknown> => t.node.calls[i]!.request as Record<string, unknown>;

  it('GET outputs/{id}: the node JSON text (JSON view), or its bytes as serializer-v1 when Accept asks', async () => {
    const res = await fetch(v2(`/outputs/${OUTPUT_ID}`));
    expect([res.status, res.headers.get('content-type'), await res.text()]).to.deep.equal([
      200,
      'application/json; charset=utf-8',
      OUTPUT_JSON,
    ]);
    expect([hex(request().outputId as Uint8Array), request().view]).to.deep.equal([
      OUTPUT_ID,
      BlockView.BLOCK_VIEW_JSON,
    ]);
    const bin = await fetch(v2(`/outputs/${OUTPUT_ID.toUpperCase().replace('0X', '0x')}`), { headers: { accept: V1 } });
    expect([bin.status, bin.headers.get('content-type')]).to.deep.equal([200, V1]);
    expect(new Uint8Array(await bin.arrayBuffer())).to.deep.equal(Uint8Array.of(3, 1, 2));
    expect([hex(request(1).outputId as Uint8Array), request(1).view]).to.deep.equal([
      OUTPUT_ID,
      BlockView.BLOCK_VIEW_RAW,
    ]);
  });

  it('GET outputs/{id}/metadata: GetOutputMetadata, the node JSON text', async () => {
    const res = await fetch(v2(`/outputs/${OUTPUT_ID}/metadata`));
    expect([res.status, await res.text()]).to.deep.equal([200, '{"isSpent":false}']);
    expect(t.node.calls.map((c) => c.method)).to.deep.equal(['getOutputMetadata']);
  });

  it('GET milestones by index and ID (JSON, bytes) and their utxo-changes ask for that milestone', async () => {
    expect(await (await fetch(v2('/milestones/by-index/5'))).text()).to.equal(MILESTONE_JSON);
    expect(request().milestone).to.deep.equal({ $case: 'index', value: 5 });
    const bin = await fetch(v2(`/milestones/${ID32}`), { headers: { accept: V1 } });
    expect([bin.headers.get('content-type'), Array.from(new Uint8Array(await bin.arrayBuffer()))]).to.deep.equal([
      V1,
      [7, 5],
    ]);
    expect([(request(1).milestone as { $case: string }).$case, request(1).view]).to.deep.equal([
      'milestoneId',
      BlockView.BLOCK_VIEW_RAW,
    ]);
    expect(hex((request(1).milestone as { value: Uint8Array }).value)).to.equal(ID32);
    expect((await fetch(v2('/milestones/by-index/4294967295/utxo-changes'))).status).to.equal(200);
    expect(request(2).milestone).to.deep.equal({ $case: 'index', value: 4294967295 });
    expect((await fetch(v2(`/milestones/${ID32}/utxo-changes`))).status).to.equal(200);
    expect(t.node.calls.map((c) => c.method)).to.deep.equal([
      'getMilestone',
      'getMilestone',
      'getMilestoneUtxoChanges',
      'getMilestoneUtxoChanges',
    ]);
  });

  it('GET receipts (all, or of one migratedAt) and treasury', async () => {
    expect(await (await fetch(v2('/receipts'))).text()).to.equal('{"receipts":[]}');
    expect(await (await fetch(v2('/receipts/7'))).text()).to.equal('{"receipts":[]}');
    expect(await (await fetch(v2('/treasury'))).text()).to.equal('{"milestoneId":"0x00","amount":"1"}');
    expect(t.node.calls.map((c) => [c.method, (c.request as { migratedAt?: number }).migratedAt])).to.deep.equal([
      ['getReceipts', undefined],
      ['getReceipts', 7],
      ['getTreasury', undefined],
    ]);
  });

  it('bad path parameters are 400 before any node call', async () => {
    for (const path of [
      `/outputs/${ID32}`,
      '/outputs/0x1/metadata',
      '/milestones/by-index/x',
      '/milestones/by-index/99999999999',
      '/milestones/by-index/+1',
      `/milestones/${OUTPUT_ID}/utxo-changes`,
      '/receipts/-3',
    ]) {
      const res = await fetch(v2(path));
      expect(res.status, path).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(
        /^invalid data provided: invalid (output ID|milestone index|milestone ID|migratedAt index): /,
      );
    }
    expect(t.node.calls).to.deep.equal([]);
  });

  it('a node answer without the asked-for bytes is a 500 naming what is missing', async () => {
    t.node.handlers.getMilestone = () => ({
      index: 5,
      milestoneId: new Uint8Array(32),
      raw: new Uint8Array(0),
      json: '',
    });
    const res = await fetch(v2('/milestones/by-index/5'), { headers: { accept: V1 } });
    expect(res.status).to.equal(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).to.equal(
      'internal server error: the node answered without the milestone bytes',
    );
  });
});
