/**
 * The explorer routes (gateway/routes-explorer.ts) against a fake NodeService whose explorer methods are the node's
 * real ones (ExplorerService over a memory store holding a genesis and two confirmed milestones): each path calls its
 * RPC with what the path names and the query parameters as given, and answers inx-chronicle's JSON; a malformed block
 * ID, milestone ID or index is 400 before any call; a bad address, cursor, pageSize, sort or an unknown parameter is
 * 400 naming it; what the history does not hold is 404; the routes are public by default and /api/routes lists them.
 */
import { expect } from 'chai';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import { MemoryKeyValueStore } from '../../src/core/store/index.ts';
import { ExplorerReader } from '../../src/node/ledger/explorer-reads.ts';
import { ExplorerService } from '../../src/node/grpc/service-explorer.ts';
import { basicOutput, TestNetwork, transfer, Wallet } from '../../harness/fixtures/ledger.ts';
import { confirmNext } from '../core/ledger/history/support.ts';
import { describeOverTransports, hex, ID32 } from './harness.ts';
import { fakeNodeGateway, type Handlers } from './support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const HRP = 'smr';
const ALICE = bech32EncodeAddress(HRP, alice.address);
const BOB = bech32EncodeAddress(HRP, bob.address);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function network(): Promise<{ explorer: ExplorerService; net: TestNetwork; tx: Uint8Array; m11: string }> {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }]);
  const tx = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(5_000_000n, bob.address)]));
  const { c } = await confirmNext(net);
  await net.add();
  await confirmNext(net);
  return {
    explorer: new ExplorerService(new ExplorerReader(net.store, () => HRP)),
    net,
    tx: tx.id,
    m11: hex(c.milestoneId),
  };
}

describeOverTransports('gateway explorer routes (the node explorer service behind a fake node)', (transport) => {
  let s: Awaited<ReturnType<typeof network>>;
  before(async () => {
    s = await network();
  });
  const handlers = (): Handlers => ({
    getExplorerBalance: (req) => s.explorer.balance(req),
    getLedgerUpdatesByAddress: (req) => s.explorer.updatesByAddress(req),
    getLedgerUpdatesByMilestone: (req) => s.explorer.updatesByMilestone(req),
    getExplorerMilestones: (req) => s.explorer.milestones(req),
    getMilestoneBlocks: (req) => s.explorer.milestoneBlocks(req),
    getBlockChildren: (req) => s.explorer.children(req),
    getRichestAddresses: (req) => s.explorer.richest(req),
    getTokenDistribution: (req) => s.explorer.distribution(req),
  });
  const t = fakeNodeGateway(transport, {}, handlers);
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${t.gw.url}/api/explorer/v2${path}`);
    return { status: res.status, body: await res.json() };
  };

  it('GET balance/{address}: chronicle strings for the amounts, the ledger index', async () => {
    expect(await get(`/balance/${BOB}`)).to.deep.equal({
      status: 200,
      body: { totalBalance: '5000000', availableBalance: '5000000', ledgerIndex: 12 },
    });
    expect((await get(`/balance/${ALICE}`)).body.totalBalance).to.equal('0');
    expect(t.node.calls.map((c) => [c.method, (c.request as Json).subject])).to.deep.equal([
      ['getExplorerBalance', { $case: 'address', value: BOB }],
      ['getExplorerBalance', { $case: 'address', value: ALICE }],
    ]);
  });

  it("GET balance/{address} ignores a query string, as chronicle's balance (it reads none)", async () => {
    const plain = await get(`/balance/${BOB}`);
    expect(await get(`/balance/${BOB}?_=1700000000&pageSize=1&_=2`)).to.deep.equal(plain);
    expect(t.node.calls.map((c) => (c.request as Json).parameters)).to.deep.equal([[], []]);
    // the node ignores parameters an RPC client sends it
    const direct = await s.explorer.balance({
      subject: { $case: 'address', value: BOB },
      parameters: [
        { name: 'x', value: '1' },
        { name: 'x', value: '2' },
      ],
    });
    expect(JSON.parse(direct.json)).to.deep.equal(plain.body);
  });

  it('GET ledger/updates/by-address/{address}: items, a cursor to follow, null on the last page', async () => {
    const first = await get(`/ledger/updates/by-address/${ALICE}?pageSize=1&sort=oldest`);
    expect(first.status).to.equal(200);
    expect(Object.keys(first.body)).to.deep.equal(['address', 'items', 'cursor']);
    expect(first.body.items).to.deep.equal([
      {
        outputId: hex(s.net.genesisOutputs[0]!.outputId),
        isSpent: false,
        milestoneIndex: 10,
        milestoneTimestamp: 1_700_000_000,
      },
    ]);
    expect(first.body.cursor).to.equal(`11.${hex(s.net.genesisOutputs[0]!.outputId)}.true.1`);
    const last = await get(`/ledger/updates/by-address/${ALICE}?sort=oldest&cursor=${first.body.cursor}`);
    expect([last.body.items.map((i: Json) => i.isSpent), last.body.cursor]).to.deep.equal([[true], null]);
    expect((t.node.calls[1]!.request as Json).parameters).to.deep.equal([
      { name: 'sort', value: 'oldest' },
      { name: 'cursor', value: first.body.cursor },
    ]);
  });

  it('GET ledger/updates/by-milestone/{milestoneId}, milestones, blocks by ID and by index, children', async () => {
    const updates = await get(`/ledger/updates/by-milestone/${s.m11}`);
    expect(updates.body.milestoneIndex).to.equal(11);
    const pairs = (xs: Json[]) => xs.map((i: Json) => `${i.address} ${i.isSpent}`).sort();
    expect(pairs(updates.body.items)).to.deep.equal(
      pairs([
        { address: ALICE, isSpent: true },
        { address: BOB, isSpent: false },
      ]),
    );
    const milestones = await get('/milestones?sort=oldest&pageSize=2');
    expect(milestones.body.items.map((m: Json) => m.index)).to.deep.equal([10, 11]);
    expect([milestones.body.items[1].milestoneId, milestones.body.cursor]).to.deep.equal([s.m11, '12.2']);
    const byId = await get(`/milestones/${s.m11}/blocks?sort=oldest`);
    const byIndex = await get('/milestones/by-index/11/blocks?sort=oldest');
    expect(byId).to.deep.equal(byIndex);
    expect(byId.body).to.deep.equal({ blocks: [{ blockId: hex(s.tx), payloadType: 6 }], cursor: null });
    const blocks12 = await get('/milestones/by-index/12/blocks?sort=oldest');
    expect(blocks12.body.blocks.map((b: Json) => b.payloadType)).to.deep.equal([7, null]);
    const children = await get(`/blocks/${hex(s.tx)}/children`);
    expect(children.body).to.deep.equal({
      blockId: hex(s.tx),
      maxResults: 100,
      count: 1,
      children: [blocks12.body.blocks[0].blockId],
    });
  });

  it('GET ledger/richest-addresses and ledger/token-distribution: from the aggregates', async () => {
    expect((await get('/ledger/richest-addresses?top=5')).body).to.deep.equal({
      top: [{ address: BOB, balance: '5000000' }],
      ledgerIndex: 12,
    });
    expect((await get('/ledger/token-distribution')).body).to.deep.equal({
      distribution: [{ range: { start: 1_000_000, end: 10_000_000 }, addressCount: '1', totalBalance: '5000000' }],
      ledgerIndex: 12,
    });
    expect((await get('/ledger/richest-addresses?ledger_index=12')).status).to.equal(200);
    const old = await get('/ledger/token-distribution?ledgerIndex=11');
    expect([old.status, old.body.error.message]).to.deep.equal([
      404,
      'could not find data: ledger index 11 is not kept: the aggregates are kept for the ledger now (index 12) only',
    ]);
  });

  const BAD: [string, RegExp][] = [
    [`/balance/${ALICE.replace('smr', 'rms')}`, /Invalid address/],
    ['/balance/not-an-address', /Invalid address/],
    [`/ledger/updates/by-address/${ALICE}?pageSize=0`, /pageSize: a page holds at least 1 item/],
    [`/ledger/updates/by-address/${ALICE}?pageSize=abc`, /pageSize: "abc" is not an unsigned integer/],
    [`/ledger/updates/by-address/${ALICE}?sort=up`, /sort: expected newest or oldest/],
    [`/ledger/updates/by-address/${ALICE}?cursor=1.2.3`, /cursor: expected milestoneIndex.0xoutputId/],
    [`/ledger/updates/by-milestone/${ID32}?cursor=0x00.true.1`, /cursor: an output ID is 0x and 68 hex digits/],
    ['/milestones?cursor=x.1', /cursor: "x" is not an unsigned integer/],
    ['/milestones?startTimestamp=9&endTimestamp=3', /endTimestamp: invalid time range/],
    ['/milestones/by-index/11/blocks?pageSize=1001', /pageSize: 1001 is above the maximum 1000/],
    ['/ledger/richest-addresses?top=x', /top/],
    ['/ledger/token-distribution?top=3', /top: unknown here/],
    ['/milestones?sort=oldest&sort=newest', /query parameter sort is given 2 times/],
  ];
  const shown = (path: string): string => path.replace(/smr1\w+|rms1\w+/, '{address}').replace(ID32, '{id}');
  for (const [path, message] of BAD)
    it(`GET ${shown(path)}: 400 naming what is wrong`, async () => {
      const r = await get(path);
      expect(r.status).to.equal(400);
      expect(r.body.error.code).to.equal(400);
      expect(r.body.error.message).to.match(message);
    });

  it('a malformed ID or index in the path is 400 before any call', async () => {
    for (const path of [
      '/blocks/0x12/children',
      '/milestones/0xzz/blocks',
      '/milestones/by-index/4294967296/blocks',
      '/ledger/updates/by-milestone/12',
    ])
      expect((await get(path)).status, path).to.equal(400);
    expect(t.node.calls).to.have.length(0);
  });

  it('what the history does not hold is 404, saying which milestones it keeps', async () => {
    const unknown = await get(`/blocks/${ID32}/children`);
    expect([unknown.status, unknown.body.error.message]).to.match(/block 0x[0-9a-f]{64} is not in the history/);
    const later = await get('/milestones/by-index/13/blocks');
    expect([later.status, later.body.error.message]).to.deep.equal([
      404,
      'could not find data: milestone 13 is not confirmed yet: this node keeps the history of milestones 10 to 12',
    ]);
    expect((await get('/milestones/by-index/9/blocks')).status).to.equal(404);
    expect((await get(`/ledger/updates/by-milestone/${ID32}`)).status).to.equal(404);
  });
});
