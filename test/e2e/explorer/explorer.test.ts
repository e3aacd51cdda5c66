/**
 * The explorer API end to end, after real signed transfers (iota.js 2.0.0-rc.4 `sendAdvanced`, as test/e2e/ledger):
 * every answer is checked against what the node's other APIs say on their own:
 *   - the balance of an address is the sum of its unspent outputs found by the indexer (`/api/indexer/v1`);
 *   - its ledger updates are exactly its outputs created and consumed in the milestones' UTXO changes
 *     (`/api/core/v2/milestones/by-index/{i}/utxo-changes`) and in the genesis, with the milestones' timestamps;
 *   - a milestone's blocks are exactly those whose metadata names it (`referencedByMilestoneIndex`), in white-flag
 *     order, with their payload types; the children of each block agree with the parents of the stored blocks;
 *   - paging (pageSize 1 to 3, both orders) returns every item once; richest addresses and distribution add up.
 * The pruned node's history: pruned.test.ts.
 */
import { sendAdvanced, type SingleNodeClient } from '@iota/iota.js';
import { expect } from 'chai';
import { addressHex, created, genesisWallet, randomSeed, referenced, spend, startIotaJsNode } from '../ledger/iota.ts';
import type { LedgerTestNode } from '../ledger/support.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import { fromHex0x } from '../../../src/core/bytes.ts';
import { coneOf, explorerPages, ownerOf, restOf, type Json } from './support.ts';

const key = (u: Json): string => `${u.milestoneIndex}.${u.outputId}.${u.isSpent}`;
const sortedKeys = (us: Json[]): string[] => us.map(key).sort();

describe('e2e explorer: /api/explorer/v2 after signed transfers', function () {
  this.timeout(180000);
  let n: LedgerTestNode;
  let client: SingleNodeClient;
  let genesis: Json;
  let get: ReturnType<typeof restOf>;
  let hrp: string;
  let ledgerIndex: number;
  const wallet2 = randomSeed();
  const wallet3 = randomSeed();
  const addresses: string[] = [];
  const txBlocks: string[] = [];

  before(async () => {
    ({ n, client, genesis } = await startIotaJsNode());
    get = restOf(`http://127.0.0.1:${n.node.restPort}`);
    hrp = (await get('/api/core/v2/info')).body.protocol.bech32Hrp;
    const start = genesisWallet(genesis);
    const bech = (seedHex: string): string => bech32EncodeAddress(hrp, { type: 0, pubKeyHash: fromHex0x(seedHex) });
    addresses.push(bech(addressHex(start.seed)), bech(addressHex(wallet2)), bech(addressHex(wallet3)));
    const total = BigInt(start.output.amount);
    const first = await sendAdvanced(
      client,
      [spend(start)],
      [
        { address: addressHex(wallet2), addressType: 0, amount: 3_000_000n },
        { address: addressHex(start.seed), addressType: 0, amount: total - 3_000_000n },
      ],
    );
    await referenced(client, first.blockId);
    const mine = created(first.block, [start.seed, wallet2]);
    const second = await sendAdvanced(
      client,
      [spend(mine[0]!)],
      [
        { address: addressHex(wallet3), addressType: 0, amount: 1_000_000n },
        { address: addressHex(wallet2), addressType: 0, amount: 2_000_000n },
      ],
    );
    await referenced(client, second.blockId);
    // two at once (one milestone may take both), spending what the second created
    const [to3, to2] = created(second.block, [wallet3, wallet2]);
    const [third, fourth] = await Promise.all([
      sendAdvanced(client, [spend(to3!)], [{ address: addressHex(start.seed), addressType: 0, amount: 1_000_000n }]),
      sendAdvanced(client, [spend(to2!)], [{ address: addressHex(wallet3), addressType: 0, amount: 2_000_000n }]),
    ]);
    await Promise.all([referenced(client, third.blockId), referenced(client, fourth.blockId)]);
    txBlocks.push(first.blockId, second.blockId, third.blockId, fourth.blockId);
    ledgerIndex = (await get('/api/core/v2/info')).body.status.confirmedMilestone.index;
  });
  after(async () => {
    await n?.close();
  });

  it('the balance of an address is the sum of its unspent outputs the indexer finds', async () => {
    for (const address of addresses) {
      let sum = 0n;
      let cursor: string | undefined;
      do {
        const page = await get(`/api/indexer/v1/outputs/basic?address=${address}${cursor ? `&cursor=${cursor}` : ''}`);
        for (const id of page.body.items) sum += BigInt((await get(`/api/core/v2/outputs/${id}`)).body.output.amount);
        cursor = page.body.cursor;
      } while (cursor !== undefined);
      const balance = await get(`/api/explorer/v2/balance/${address}`);
      expect(balance.status).to.equal(200);
      expect([balance.body.totalBalance, balance.body.availableBalance]).to.deep.equal([String(sum), String(sum)]);
      expect(balance.body.ledgerIndex).to.be.at.least(ledgerIndex);
    }
  });

  it("ledger updates by address are its outputs in the genesis and the milestones' UTXO changes", async () => {
    const expected = new Map<string, string[]>(addresses.map((a) => [a, []]));
    for (const o of genesis.outputs) expected.get(ownerOf(o.output, hrp))?.push(`0.${o.outputId}.false`);
    const timestamps = new Map<number, number>();
    for (let i = 1; i <= ledgerIndex; i++) {
      const changes = await get(`/api/core/v2/milestones/by-index/${i}/utxo-changes`);
      timestamps.set(i, (await get(`/api/core/v2/milestones/by-index/${i}`)).body.timestamp);
      for (const [list, spent] of [
        [changes.body.createdOutputs, false],
        [changes.body.consumedOutputs, true],
      ] as const)
        for (const id of list) {
          const owner = ownerOf((await get(`/api/core/v2/outputs/${id}`)).body.output, hrp);
          expected.get(owner)?.push(`${i}.${id}.${spent}`);
        }
    }
    for (const address of addresses) {
      const path = `/ledger/updates/by-address/${address}`;
      const { items, pages } = await explorerPages(get, path, { sort: 'oldest', pageSize: '1' });
      expect(sortedKeys(items.filter((u) => u.milestoneIndex <= ledgerIndex))).to.deep.equal(
        expected.get(address)!.sort(),
      );
      expect(pages).to.be.at.least(items.length);
      for (const u of items.filter((x) => x.milestoneIndex > 0))
        expect(u.milestoneTimestamp).to.equal(timestamps.get(u.milestoneIndex));
      // both orders, every item once
      const newest = await explorerPages(get, path, { pageSize: '2' });
      expect(newest.items.map(key)).to.deep.equal([...items].reverse().map(key));
      expect(new Set(items.map(key)).size).to.equal(items.length);
    }
  });

  it("a milestone's blocks are those whose metadata names it, in white-flag order; children, parents", async () => {
    const withTransfers = new Set<number>();
    for (const id of txBlocks)
      withTransfers.add((await get(`/api/core/v2/blocks/${id}/metadata`)).body.referencedByMilestoneIndex);
    expect(withTransfers.size).to.be.above(0);
    let blocksSeen = 0;
    for (let i = 1; i <= ledgerIndex; i++) {
      const cone = await coneOf(get, i);
      const { items } = await explorerPages(
        get,
        `/milestones/by-index/${i}/blocks`,
        { sort: 'oldest', pageSize: '1' },
        'blocks',
      );
      expect(items.map((b) => b.blockId).sort(), `milestone ${i}`).to.deep.equal([...cone.keys()].sort());
      if (withTransfers.has(i)) expect(items.some((b) => txBlocks.includes(b.blockId))).to.equal(true);
      for (const [w, b] of items.entries()) {
        const md = cone.get(b.blockId);
        expect(md.whiteFlagIndex).to.equal(w);
        const block = (await get(`/api/core/v2/blocks/${b.blockId}`)).body;
        expect(b.payloadType).to.equal(block.payload?.type ?? null);
        // every parent lists this block among its children; every child listed names the parent
        for (const parent of block.parents) {
          const children = await get(`/api/explorer/v2/blocks/${parent}/children?pageSize=1000`);
          if (children.status === 404) {
            expect((await get(`/api/core/v2/blocks/${parent}/metadata`)).body?.referencedByMilestoneIndex).to.equal(
              undefined,
            );
            continue;
          }
          expect(children.body.children).to.include(b.blockId);
          expect(children.body.count).to.equal(children.body.children.length);
          for (const child of children.body.children)
            expect((await get(`/api/core/v2/blocks/${child}`)).body.parents).to.include(parent);
        }
        blocksSeen++;
      }
    }
    expect(blocksSeen).to.be.above(ledgerIndex);
  });

  it('milestones page every milestone once in both orders; richest addresses and distribution add up', async () => {
    const oldest = await explorerPages(get, '/milestones', { sort: 'oldest', pageSize: '3' });
    const newest = await explorerPages(get, '/milestones', { pageSize: '3' });
    const indexes = oldest.items.map((m) => m.index);
    expect(indexes.slice(0, ledgerIndex + 1)).to.deep.equal([...Array(ledgerIndex + 1).keys()]);
    expect(
      newest.items
        .map((m) => m.index)
        .reverse()
        .slice(0, indexes.length),
    ).to.deep.equal(indexes.slice(0, newest.items.length));
    for (const m of oldest.items.slice(1, ledgerIndex + 1)) {
      const updates = await get(`/api/explorer/v2/ledger/updates/by-milestone/${m.milestoneId}`);
      const changes = (await get(`/api/core/v2/milestones/by-index/${m.index}/utxo-changes`)).body;
      expect([updates.status, updates.body.milestoneIndex]).to.deep.equal([200, m.index]);
      expect(updates.body.items.map((u: Json) => `${u.outputId}.${u.isSpent}`).sort()).to.deep.equal(
        [
          ...changes.createdOutputs.map((id: string) => `${id}.false`),
          ...changes.consumedOutputs.map((id: string) => `${id}.true`),
        ].sort(),
      );
      const byId = await get(`/api/explorer/v2/milestones/${m.milestoneId}/blocks`);
      expect(byId.body).to.deep.equal((await get(`/api/explorer/v2/milestones/by-index/${m.index}/blocks`)).body);
    }
    const rich = (await get('/api/explorer/v2/ledger/richest-addresses?top=10')).body;
    for (const address of addresses) {
      const balance = (await get(`/api/explorer/v2/balance/${address}`)).body.totalBalance;
      // an address holding nothing is not among them
      expect(rich.top.find((r: Json) => r.address === address)?.balance ?? '0').to.equal(balance);
    }
    const distribution = (await get('/api/explorer/v2/ledger/token-distribution')).body.distribution;
    const supply = genesis.outputs.reduce((s: bigint, o: Json) => s + BigInt(o.output.amount), 0n);
    expect(distribution.reduce((s: bigint, d: Json) => s + BigInt(d.totalBalance), 0n)).to.equal(supply);
    expect(distribution.reduce((s: number, d: Json) => s + Number(d.addressCount), 0)).to.equal(rich.top.length);
  });
});
