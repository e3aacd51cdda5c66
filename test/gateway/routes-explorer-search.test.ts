/**
 * The explorer's search route (`GET /api/explorer/v2/search/{text}`, gateway/routes-explorer.ts) against a fake
 * NodeService whose ExplorerSearch is the node's real one over a memory store (a genesis at milestone 10, a transfer
 * confirmed by 11, milestone 12): the text goes to the node as the client wrote it (URL-decoded), and the answer is
 * what it names, of each kind; text that is no ID is 400, an ID the node does not hold is 404, both with the JSON
 * error body; the route is public by default.
 */
import { expect } from 'chai';
import { toHex0x } from '../../src/core/bytes.ts';
import { bech32EncodeAddress, outputId, transactionIdOf } from '../../src/core/ids/index.ts';
import type { TransactionPayload } from '../../src/core/model/index.ts';
import { MemoryKeyValueStore } from '../../src/core/store/index.ts';
import { ExplorerService } from '../../src/node/grpc/service-explorer.ts';
import { ExplorerReader } from '../../src/node/ledger/explorer-reads.ts';
import { basicOutput, TestNetwork, transfer, Wallet } from '../../harness/fixtures/ledger.ts';
import { confirmNext } from '../core/ledger/history/support.ts';
import { describeOverTransports, ID32, startTestGateway } from './harness.ts';
import { fakeNodeGateway } from './support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const HRP = 'smr';
const BOB = bech32EncodeAddress(HRP, bob.address);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function network() {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }]);
  const tx = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(5_000_000n, bob.address)]));
  const { c, ms } = await confirmNext(net);
  await net.add();
  await confirmNext(net);
  const txId = transactionIdOf(tx.block.payload as TransactionPayload);
  return {
    explorer: new ExplorerService(new ExplorerReader(net.store, () => HRP)),
    block: toHex0x(tx.id),
    txId: toHex0x(txId),
    output: toHex0x(outputId(txId, 0)),
    m11: { id: toHex0x(c.milestoneId), blockId: toHex0x(ms.id), timestamp: c.milestoneTimestamp },
  };
}

describeOverTransports('gateway explorer search route (the node search behind a fake node)', (transport) => {
  let s: Awaited<ReturnType<typeof network>>;
  before(async () => {
    s = await network();
  });
  const t = fakeNodeGateway(transport, {}, () => ({ explorerSearch: (req) => s.explorer.search(req) }));
  const get = async (text: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${t.gw.url}/api/explorer/v2/search/${text}`);
    return { status: res.status, body: await res.json() };
  };

  it('a milestone by index and by ID: the same answer, with its block and neighbours', async () => {
    const byIndex = await get('11');
    expect(byIndex).to.deep.equal({
      status: 200,
      body: {
        kind: 'milestone',
        id: s.m11.id,
        index: 11,
        timestamp: s.m11.timestamp,
        blockId: s.m11.blockId,
        history: true,
        previousIndex: 10,
        nextIndex: 12,
      },
    });
    expect(await get(s.m11.id)).to.deep.equal(byIndex);
    expect(t.node.calls.map((c) => (c.request as Json).subject)).to.deep.equal([
      { $case: 'text', value: '11' },
      { $case: 'text', value: s.m11.id },
    ]);
  });

  it('a block, a transaction, an output and an address', async () => {
    expect((await get(s.block)).body).to.deep.equal({ kind: 'block', id: s.block, transactionId: s.txId });
    expect((await get(s.txId)).body).to.deep.equal({
      kind: 'transaction',
      id: s.txId,
      blockId: s.block,
      included: true,
    });
    expect((await get(s.output)).body).to.deep.equal({ kind: 'output', id: s.output });
    expect((await get(BOB)).body).to.deep.equal({ kind: 'address', id: BOB });
  });

  it('the text arrives URL-decoded, as the client wrote it', async () => {
    expect((await get(encodeURIComponent(` ${BOB} `))).body).to.deep.equal({ kind: 'address', id: BOB });
    expect((t.node.calls[0]!.request as Json).subject).to.deep.equal({ $case: 'text', value: ` ${BOB} ` });
  });

  const BAD: [string, RegExp][] = [
    ['hello', /^invalid data provided: search: "hello" is neither a milestone index, a block, transaction or/],
    [encodeURIComponent('<script>'), /^invalid data provided: search: "<script>" is neither/],
    ['0x12', /is neither/],
    ['99999999999', /^invalid data provided: search: milestone index 99999999999 is above 4294967295$/],
    [BOB.replace(/.$/, 'q'), /^invalid data provided: Invalid address: .*invalid checksum/],
    [bech32EncodeAddress('rms', bob.address), /human-readable part "rms" is not "smr"/],
    [`${ID32}ff00`, /output index 255 is outside 0..127/],
    ['11?pageSize=1', /pageSize: this route takes no parameters/],
  ];
  for (const [text, message] of BAD)
    it(`"${decodeURIComponent(text).slice(0, 24)}": 400 with the JSON error`, async () => {
      expect(await get(text)).to.deep.include({ status: 400 });
      const r = await get(text);
      expect(r.body.error.code).to.equal(400);
      expect(r.body.error.message).to.match(message);
    });

  it('what the node does not hold is 404 with the JSON error', async () => {
    expect(await get(ID32)).to.deep.equal({
      status: 404,
      body: {
        error: {
          code: 404,
          message:
            `could not find data: nothing known by ${ID32}: no block, transaction or milestone ` +
            '(unknown, or not seen by this node yet)',
        },
      },
    });
    const later = await get('13');
    expect([later.status, later.body.error.message]).to.deep.equal([
      404,
      'could not find data: milestone 13 is not confirmed yet: the confirmed milestone is 12',
    ]);
    expect((await get(`${ID32}0000`)).status).to.equal(404);
  });

  it('is public by default, with the rest of the explorer API', async () => {
    const open = await startTestGateway(t.node);
    try {
      const res = await fetch(`${open.url}/api/explorer/v2/search/11`);
      expect(res.status).to.equal(200);
    } finally {
      await open.close();
    }
  });
});
