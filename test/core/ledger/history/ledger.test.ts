/**
 * The history travels with the ledger: initLedger writes the genesis milestone, the genesis outputs' ledger updates
 * and the aggregates; confirmMilestone's one batch carries the milestone, its blocks in White-Flag order, their child
 * edges, the ledger updates of what it booked and spent (an expired output's spend under its return address) and
 * the aggregate changes. Then a rebuild gives the same tables, verifyHistory finds corruption, and the history's own
 * retention drops old milestones while block data stays.
 */
import { expect } from 'chai';
import { toHex, toHex0x } from '../../../../src/core/bytes.ts';
import {
  addressUpdates,
  AGGREGATE_TABLES,
  blockChildren,
  clearHistory,
  ensureHistory,
  HISTORY_META,
  HISTORY_TABLES,
  type HistoryMissing,
  milestoneBlocks,
  milestonesPage,
  milestoneUpdates,
  pruneHistory,
  resumeHistoryPruning,
  richestAddresses,
  tokenDistribution,
  verifyHistory,
} from '../../../../src/core/ledger/index.ts';
import type { BasicOutput } from '../../../../src/core/model/index.ts';
import { MemoryKeyValueStore, prefixRange, TABLES } from '../../../../src/core/store/index.ts';
import { pruneTo } from '../../../../src/core/pruning/index.ts';
import {
  basicOutput,
  GENESIS_INDEX,
  GENESIS_TIMESTAMP,
  outputsOf,
  TestNetwork,
  transfer,
  Wallet,
} from '../../../../harness/fixtures/ledger.ts';
import { addressKey, allPages, confirmNext, rangeOf } from './support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const carol = new Wallet('carol');
const EXPIRES = GENESIS_TIMESTAMP + 5;

const page = { pageSize: 100, sort: 'oldest' as const };
const updatesOf = async (net: TestNetwork, w: Wallet, sort: 'oldest' | 'newest' = 'oldest') =>
  (await addressUpdates(net.store, await rangeOf(net.store), addressKey(w.address), { ...page, sort })).items.map(
    (u) => `${u.milestoneIndex}:${toHex(u.outputId).slice(0, 8)}:${u.spent ? 'spent' : 'booked'}`,
  );
const short = (id: Uint8Array): string => toHex(id).slice(0, 8);

/** Every key and value of the history and aggregate tables, as hex lines. */
async function historyDump(net: TestNetwork): Promise<string[]> {
  const out: string[] = [];
  for (const t of [...Object.values(HISTORY_TABLES), ...Object.values(AGGREGATE_TABLES)])
    for await (const [k, v] of net.store.kv.entries(prefixRange(Uint8Array.of(t.prefix))))
      out.push(`${toHex(k)}=${toHex(v)}`);
  return out;
}

/**
 * What the history says, whatever its parts: every update by milestone and by address, every block with its place,
 * and the other tables as they are.
 */
async function historyView(net: TestNetwork): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, part] of net.store.entries(HISTORY_TABLES.byMilestone))
    for (const u of part) out.push(`m ${k.milestoneIndex} ${toHex(u.outputId)} ${u.spent} ${toHex(u.address)}`);
  for await (const [k, g] of net.store.entries(HISTORY_TABLES.byAddress))
    for (const e of g.entries)
      out.push(`a ${toHex(k.address)} ${k.milestoneIndex} ${g.timestamp} ${toHex(e.outputId)} ${e.spent}`);
  for await (const [k, part] of net.store.entries(HISTORY_TABLES.milestoneBlocks))
    part.forEach((b, i) => {
      out.push(`b ${k.milestoneIndex} ${k.firstWhiteFlagIndex + i} ${toHex(b.blockId)} ${b.payloadType}`);
    });
  const parted = [HISTORY_TABLES.byMilestone, HISTORY_TABLES.byAddress, HISTORY_TABLES.milestoneBlocks];
  for (const t of [...Object.values(HISTORY_TABLES), ...Object.values(AGGREGATE_TABLES)])
    if (!parted.some((p) => p.prefix === t.prefix))
      for await (const [k, v] of net.store.kv.entries(prefixRange(Uint8Array.of(t.prefix))))
        out.push(`${toHex(k)}=${toHex(v)}`);
  return out.sort();
}

/** Genesis (alice 5 Mi, bob 2 Mi); 11: alice pays bob 1 Mi, plus a block without payload; 12: bob pays carol 1 Mi
 * expiring back to him; 13 (after the expiration): bob takes it back. */
async function scenario() {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), [
    { wallet: alice, amount: 5_000_000n },
    { wallet: bob, amount: 2_000_000n },
  ]);
  const [ga, gb] = net.genesisOutputs;
  const tx1 = transfer(alice, [ga!], [basicOutput(1_000_000n, bob.address), basicOutput(4_000_000n, alice.address)]);
  const b1 = await net.add(tx1);
  const empty = await net.add();
  const m11 = await confirmNext(net);
  const expiring: BasicOutput = {
    ...basicOutput(1_000_000n, carol.address),
    unlockConditions: [
      { type: 0, address: carol.address },
      { type: 3, returnAddress: bob.address, unixTime: EXPIRES },
    ],
  };
  const tx2 = transfer(bob, [gb!], [expiring, basicOutput(1_000_000n, bob.address)]);
  const b2 = await net.add(tx2);
  const m12 = await confirmNext(net);
  const tx3 = transfer(bob, [outputsOf(tx2)[0]!], [basicOutput(1_000_000n, bob.address)]);
  const b3 = await net.add(tx3);
  const m13 = await confirmNext(net, { timestamp: EXPIRES + 1 });
  return { net, tx1, tx2, tx3, b1, b2, b3, empty, m11, m12, m13 };
}

describe('history: written with the ledger', () => {
  it('records the genesis: its milestone, the booked updates of its outputs and the aggregates', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [
      { wallet: alice, amount: 5_000_000n },
      { wallet: bob, amount: 20_000_000n },
    ]);
    expect(await net.store.getMeta(HISTORY_META.start)).to.equal(GENESIS_INDEX);
    expect(await updatesOf(net, alice)).to.deep.equal([
      `${GENESIS_INDEX}:${short(net.genesisOutputs[0]!.outputId)}:booked`,
    ]);
    const rich = await richestAddresses(net.store, 10);
    expect(rich.map((r) => [toHex0x(r.address), r.amount])).to.deep.equal([
      [toHex0x(addressKey(bob.address)), 20_000_000n],
      [toHex0x(addressKey(alice.address)), 5_000_000n],
    ]);
    expect(await tokenDistribution(net.store)).to.deep.equal([
      { magnitude: 6, addresses: 1n, total: 5_000_000n },
      { magnitude: 7, addresses: 1n, total: 20_000_000n },
    ]);
    const r = await rangeOf(net.store);
    const ms = await milestonesPage(net.store, r, { pageSize: 10, sort: 'newest' });
    expect(ms.items.map((m) => m.index)).to.deep.equal([GENESIS_INDEX]);
    expect((await verifyHistory(net.store)).differences).to.deep.equal([]);
  });

  it('records each milestone: updates by address and milestone, blocks, children, aggregates', async () => {
    const s = await scenario();
    const { net } = s;
    const [ga, gb] = net.genesisOutputs.map((o) => short(o.outputId));
    const [o1a, o1b] = outputsOf(s.tx1).map((o) => short(o.outputId));
    const [o2a, o2b] = outputsOf(s.tx2).map((o) => short(o.outputId));
    const [o3] = outputsOf(s.tx3).map((o) => short(o.outputId));
    expect(await updatesOf(net, alice)).to.deep.equal([`10:${ga}:booked`, `11:${ga}:spent`, `11:${o1b}:booked`]);
    // the expired output went back to bob: its spend is his update, not carol's
    expect(await updatesOf(net, carol)).to.deep.equal([`12:${o2a}:booked`]);
    const bobs = [`10:${gb}:booked`, `11:${o1a}:booked`, `12:${gb}:spent`, `12:${o2b}:booked`, `13:${o2a}:spent`];
    bobs.push(`13:${o3}:booked`);
    const sorted = (xs: string[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(await updatesOf(net, bob)).to.deep.equal(sorted(bobs));
    expect(await updatesOf(net, bob, 'newest')).to.deep.equal(sorted(bobs).reverse());

    const r = await rangeOf(net.store);
    const at12 = await milestoneUpdates(net.store, r, 12, { pageSize: 10 });
    const want12 = [
      [gb, true, bob],
      [o2a, false, carol],
      [o2b, false, bob],
    ] as const;
    expect(at12.items.map((u) => [short(u.outputId), u.spent, toHex(u.address)])).to.deep.equal(
      [...want12]
        .sort((a, b) => (a[0] < b[0] ? -1 : 1))
        .map(([id, spent, w]) => [id, spent, toHex(addressKey(w.address))]),
    );

    const blocks11 = await milestoneBlocks(net.store, r, 11, { pageSize: 10, sort: 'oldest' });
    expect(blocks11.items.map((b) => [toHex(b.blockId), b.payloadType])).to.deep.equal([
      [toHex(s.b1.id), 6],
      [toHex(s.empty.id), undefined],
    ]);
    const blocks12 = await milestoneBlocks(net.store, r, 12, { pageSize: 10, sort: 'newest' });
    expect(blocks12.items.map((b) => [toHex(b.blockId), b.payloadType])).to.deep.equal([
      [toHex(s.b2.id), 6],
      [toHex(s.m11.ms.id), 7],
    ]);
    // children: the empty block names b1; m11's block names the empty one; b2 names m11's block
    expect((await blockChildren(net.store, r, s.b1.id, { pageSize: 10, page: 0 })).map(toHex)).to.deep.equal([
      toHex(s.empty.id),
    ]);
    expect((await blockChildren(net.store, r, s.m11.ms.id, { pageSize: 10, page: 0 })).map(toHex)).to.deep.equal([
      toHex(s.b2.id),
    ]);
    expect((await blockChildren(net.store, r, s.b3.id, { pageSize: 10, page: 0 })).map(toHex)).to.deep.equal([]);
    const err = await blockChildren(net.store, r, s.m13.ms.id, { pageSize: 10, page: 0 }).catch((e: unknown) => e);
    expect((err as HistoryMissing).reason).to.equal('NOT_FOUND');

    const rich = await richestAddresses(net.store, 10);
    expect(rich.map((x) => [toHex(x.address), x.amount])).to.deep.equal([
      [toHex(addressKey(alice.address)), 4_000_000n],
      [toHex(addressKey(bob.address)), 3_000_000n],
    ]);
    expect(await net.store.get(AGGREGATE_TABLES.balances, addressKey(carol.address))).to.equal(undefined);
    expect(await tokenDistribution(net.store)).to.deep.equal([{ magnitude: 6, addresses: 2n, total: 7_000_000n }]);
    expect((await verifyHistory(net.store)).differences).to.deep.equal([]);
  });

  it('pages every update of an address once, in both orders, with chronicle cursors', async () => {
    const { net } = await scenario();
    const r = await rangeOf(net.store);
    const key = addressKey(bob.address);
    const all = (await addressUpdates(net.store, r, key, { pageSize: 100, sort: 'oldest' })).items;
    for (const sort of ['oldest', 'newest'] as const) {
      const { items, cursors } = await allPages(async (cursor) => {
        const q = { pageSize: 2, sort, ...(cursor ? {} : {}) };
        if (cursor === undefined) return addressUpdates(net.store, r, key, q);
        const [ms, oid, spent] = cursor.split('.');
        const c = { milestoneIndex: Number(ms), outputId: Buffer.from(oid!.slice(2), 'hex'), spent: spent === 'true' };
        return addressUpdates(net.store, r, key, { ...q, cursor: c });
      }, 2);
      expect(items).to.deep.equal(sort === 'oldest' ? all : [...all].reverse());
      expect(cursors[0]).to.match(/^1[0-3]\.0x[0-9a-f]{68}\.(true|false)\.2$/);
    }
    // startMilestoneIndex / endMilestoneIndex bound the milestones (inclusive), in the order's direction
    const within = await addressUpdates(net.store, r, key, { pageSize: 100, sort: 'newest', start: 12, end: 11 });
    expect(within.items.map((u) => u.milestoneIndex)).to.deep.equal([12, 12, 11]);
    const later = await addressUpdates(net.store, r, key, { pageSize: 100, sort: 'oldest', start: 12 });
    expect(later.items.map((u) => u.milestoneIndex)).to.deep.equal([12, 12, 13, 13]);
  });

  it('confirming with history: false writes none of it (what the benchmark compares)', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }]);
    const before = await historyDump(net);
    await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(5_000_000n, bob.address)]));
    await confirmNext(net, { history: false });
    expect(await historyDump(net)).to.deep.equal(before);
    expect((await verifyHistory(net.store)).differences.length).to.be.above(0);
  });

  it('a rebuild gives the same tables; verifyHistory names what is missing or wrong', async () => {
    const { net } = await scenario();
    const before = await historyView(net);
    await clearHistory(net.store);
    expect((await verifyHistory(net.store)).differences[0]).to.match(/history.version is missing/);
    const lines: string[] = [];
    const build = await ensureHistory(net.store, (t) => lines.push(t));
    expect(build).to.include({ built: true, milestones: 4, blocks: 6, outputs: 4 });
    expect(lines.length).to.be.above(0);
    expect(await historyView(net)).to.deep.equal(before);
    expect((await ensureHistory(net.store)).built).to.equal(false);

    const bobKey = addressKey(bob.address);
    await net.store
      .batch()
      .put(AGGREGATE_TABLES.balances, bobKey, { amount: 1n, outputs: 1, special: 0, returns: 0 })
      .del(HISTORY_TABLES.milestoneBlocks, { milestoneIndex: 12, firstWhiteFlagIndex: 0 })
      .commit();
    const diffs = (await verifyHistory(net.store)).differences;
    expect(diffs.some((d) => d.startsWith(`addressBalances: ${toHex0x(bobKey)} holds amount 1`))).to.equal(true);
    expect(diffs.some((d) => d.startsWith('richestAddresses:'))).to.equal(true);
    expect(diffs.some((d) => d.startsWith('historyMilestoneBlocks: milestone 12 lists 0 blocks'))).to.equal(true);
  });

  it('a retention run stopped after a batch leaves pending entries that resumeHistoryPruning finishes', async () => {
    const { net } = await scenario();
    const before = await historyDump(net);
    let batches = 0;
    const stop = async (): Promise<void> => {
      if (++batches === 2) throw new Error('stopped');
    };
    const err = await pruneHistory(net.store, 12, { chunk: 1, afterBatch: stop }).catch((e: Error) => e);
    expect((err as Error).message).to.equal('stopped');
    expect(await rangeOf(net.store)).to.deep.equal({ start: 13, ledgerIndex: 13, prunedTo: 12 });
    const pending = await verifyHistory(net.store);
    expect([pending.differences, pending.pending > 0]).to.deep.equal([[], true]);
    expect(await resumeHistoryPruning(net.store)).to.not.equal(undefined);
    const done = await verifyHistory(net.store);
    expect([done.differences, done.pending]).to.deep.equal([[], 0]);
    expect((await historyDump(net)).length).to.be.below(before.length);
    expect(await resumeHistoryPruning(net.store)).to.equal(undefined);
  });

  it('block pruning leaves the history whole: children of pruned blocks, their milestone, to retention', async () => {
    const s = await scenario();
    const { net } = s;
    const r0 = await rangeOf(net.store);
    const children = async (id: Uint8Array): Promise<string[]> =>
      (await blockChildren(net.store, await rangeOf(net.store), id, { pageSize: 10, page: 0 })).map(toHex);
    const before = [await children(s.b1.id), await children(s.empty.id), await children(s.m11.ms.id)];
    const blocks = await milestoneBlocks(net.store, r0, 12, { pageSize: 10, sort: 'oldest' });
    await pruneTo(net.store, 12, { exclusive: (fn) => fn() });
    expect(await net.store.hasBlock(s.b1.id)).to.equal(false);
    expect(await net.store.hasBlock(s.b2.id)).to.equal(false);
    expect([await children(s.b1.id), await children(s.empty.id), await children(s.m11.ms.id)]).to.deep.equal(before);
    expect(await milestoneBlocks(net.store, r0, 12, { pageSize: 10, sort: 'oldest' })).to.deep.equal(blocks);
    expect(await net.store.get(HISTORY_TABLES.blocks, s.b2.id)).to.deep.equal({
      milestoneIndex: 12,
      parents: s.b2.block.parents,
    });
    expect((await verifyHistory(net.store)).differences).to.deep.equal([]);
    // its own retention then drops what block pruning kept
    await pruneHistory(net.store, 12);
    expect(await net.store.get(HISTORY_TABLES.blocks, s.b2.id)).to.equal(undefined);
    const gone = await blockChildren(net.store, await rangeOf(net.store), s.b2.id, { pageSize: 10, page: 0 }).catch(
      (e: unknown) => e,
    );
    expect((gone as HistoryMissing).reason).to.equal('NOT_FOUND');
    let edges = 0;
    for await (const _ of net.store.keys(HISTORY_TABLES.children)) edges++;
    expect(edges).to.equal(0);
    expect((await verifyHistory(net.store)).differences).to.deep.equal([]);
  });

  it('its retention drops old milestones (reads answer PRUNED) and keeps the blocks and the aggregates', async () => {
    const s = await scenario();
    const { net } = s;
    const rich = await richestAddresses(net.store, 10);
    const res = await pruneHistory(net.store, 11);
    expect(res).to.deep.equal({ milestones: 2, blocks: 2, updates: 5 });
    const r = await rangeOf(net.store);
    expect(r).to.deep.equal({ start: 12, ledgerIndex: 13, prunedTo: 11 });
    const err = await milestoneUpdates(net.store, r, 11, { pageSize: 10 }).catch((e: unknown) => e);
    expect([(err as HistoryMissing).reason, (err as Error).message]).to.deep.equal([
      'PRUNED',
      'milestone 11 is not in the history: this node keeps the history of milestones 12 to 13',
    ]);
    const gone = await addressUpdates(net.store, r, addressKey(bob.address), { ...page, start: 11 }).catch((e) => e);
    expect((gone as HistoryMissing).reason).to.equal('PRUNED');
    expect((await updatesOf(net, alice)).length).to.equal(0);
    expect((await updatesOf(net, bob)).map((u) => u.split(':')[0])).to.deep.equal(['12', '12', '13', '13']);
    const notKept = await blockChildren(net.store, r, s.b1.id, { pageSize: 10, page: 0 }).catch((e) => e);
    expect((notKept as HistoryMissing).reason).to.equal('NOT_FOUND');
    expect(await net.store.hasBlock(s.b1.id), 'the block itself stays').to.equal(true);
    expect(await richestAddresses(net.store, 10)).to.deep.equal(rich);
    expect(
      (await milestonesPage(net.store, r, { pageSize: 10, sort: 'oldest' })).items.map((m) => m.index),
    ).to.deep.equal([12, 13]);
    expect((await verifyHistory(net.store)).differences).to.deep.equal([]);
    // nothing of 10 and 11 is left in the history tables
    const indexes: number[] = [];
    for await (const k of net.store.keys(HISTORY_TABLES.byMilestone)) indexes.push(k.milestoneIndex);
    for await (const k of net.store.keys(HISTORY_TABLES.byAddress)) indexes.push(k.milestoneIndex);
    for await (const k of net.store.keys(HISTORY_TABLES.milestoneBlocks)) indexes.push(k.milestoneIndex);
    for await (const k of net.store.keys(HISTORY_TABLES.milestones)) indexes.push(k);
    expect(Math.min(...indexes)).to.equal(12);
    expect(await net.store.get(TABLES.milestones, 11)).to.not.equal(undefined);
  });
});
