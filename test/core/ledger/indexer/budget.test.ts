/**
 * The scan budget and the abort signal of a list query: a query over many outputs that do not match stops after its
 * budget of index entries with a short (even empty) page and a cursor at the next entry to examine; following the
 * cursors gives exactly the unbudgeted answer; an aborted signal stops the scan between store reads.
 */
import { expect } from 'chai';
import { compareBytes, toHex0x } from '../../../../src/core/bytes.ts';
import {
  MIN_SCAN_BUDGET,
  parseOutputQuery,
  positionOf,
  queryOutputs,
  scanBudget,
  scanOutputQuery,
  type IndexableOutput,
} from '../../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, NodeStore, type Entry, type RangeOptions } from '../../../../src/core/store/index.ts';
import { alias, allPages, basic, bech, book, booked, ed, HRP, inIndexOrder, nft, tagHex } from './support.ts';

const A = ed('budget A');
const B = ed('budget B');

/** A memory store that counts range reads and can run a hook before each. */
class CountingStore extends MemoryKeyValueStore {
  ranges = 0;
  beforeRange: (() => void) | undefined;
  override entries(range?: RangeOptions): AsyncIterableIterator<Entry> {
    this.ranges++;
    this.beforeRange?.();
    return super.entries(range);
  }
}

/** `n` basic outputs of A without a tag over a few timestamps, then tagged ones of B at the end. */
function fixture(n: number, tagged: number): IndexableOutput[] {
  const out: IndexableOutput[] = [];
  for (let i = 0; i < n; i++) out.push(booked(`plain ${i}`, 1000 + (i % 5), basic({ address: A })));
  for (let i = 0; i < tagged; i++) out.push(booked(`tagged ${i}`, 2000 + i, basic({ address: B }, { tag: 'needle' })));
  return out;
}

describe('indexer: the scan budget and the abort signal', function () {
  this.timeout(60000);
  let kv: CountingStore;
  let store: NodeStore;
  const all = [
    ...fixture(3000, 3),
    booked('an alias', 1500, alias(A, B)),
    booked('an nft', 2500, nft({ address: B }, { tag: 'needle' })),
  ];
  const needles = inIndexOrder(all.filter((o) => o.output.type === 3 && o.output.features.some((f) => f.type === 3)));
  before(async () => {
    kv = new CountingStore();
    store = await NodeStore.open(kv);
    await book(store, all);
  });

  it('defaults to 10 entries per item of the page, at least 10,000', () => {
    expect([scanBudget(1), scanBudget(100), scanBudget(1000), scanBudget(5000)]).to.deep.equal([
      MIN_SCAN_BUDGET,
      10_000,
      10_000,
      50_000,
    ]);
  });

  it('out of budget before a match: an empty page whose cursor is the next entry to examine', async () => {
    const q = parseOutputQuery('basic', { tag: tagHex('needle'), pageSize: '2' }, HRP);
    const first = await scanOutputQuery(store, q, 7, { budget: 500 });
    expect(first.examined).to.equal(500);
    expect(first.exhausted).to.equal(true);
    expect(first.answer.items).to.deep.equal([]);
    // The 501st basic output in (createdAt, output ID) order, with the page size.
    const basics = all.filter((o) => o.output.type === 3);
    const next = [...basics].sort((a, b) =>
      compareBytes(
        positionOf(a.milestoneTimestampBooked, a.outputId),
        positionOf(b.milestoneTimestampBooked, b.outputId),
      ),
    )[500]!;
    expect(first.answer.cursor).to.equal(
      `${toHex0x(positionOf(next.milestoneTimestampBooked, next.outputId)).slice(2)}.2`,
    );
  });

  it('following the cursors reaches the matches: the pages concatenate to the unbudgeted answer', async () => {
    for (const [size, budget] of [
      [1, 400],
      [2, 1000],
      [5, 3100],
    ] as const) {
      const { items, pages } = await allPages(store, 'basic', { tag: tagHex('needle') }, size, { budget });
      expect(items, `page size ${size}, budget ${budget}`).to.deep.equal(needles);
      expect(pages.length).to.be.at.least(Math.ceil(3004 / budget));
    }
    // The combined route merges its groups; the cursor is the smallest head among them.
    const unbudgeted = (await allPages(store, 'outputs', {}, 1000)).items;
    expect(unbudgeted).to.deep.equal(inIndexOrder(all));
    expect((await allPages(store, 'outputs', {}, 7, { budget: 97 })).items).to.deep.equal(unbudgeted);
    expect(
      (await allPages(store, 'outputs', { hasNativeTokens: 'false', createdAfter: '1001' }, 50, { budget: 333 })).items,
    ).to.deep.equal(inIndexOrder(all.filter((o) => o.milestoneTimestampBooked > 1001)));
  });

  it('counts the entries of an address too, whether or not they need the output', async () => {
    const byFlags = await scanOutputQuery(
      store,
      parseOutputQuery('basic', { address: bech(A), hasTimelock: 'true' }, HRP),
      1,
      { budget: 100 },
    );
    expect([byFlags.examined, byFlags.exhausted, byFlags.answer.items.length]).to.deep.equal([100, true, 0]);
    const decoded = await scanOutputQuery(
      store,
      parseOutputQuery('basic', { address: bech(A), tag: tagHex('needle') }, HRP),
      1,
      { budget: 100 },
    );
    expect([decoded.examined, decoded.exhausted, decoded.answer.items.length]).to.deep.equal([100, true, 0]);
    // A full page within the budget is the usual page: its cursor is the next match.
    const full = await scanOutputQuery(store, parseOutputQuery('basic', { address: bech(A), pageSize: '10' }, HRP), 1, {
      budget: 100,
    });
    expect([full.examined, full.exhausted, full.answer.items.length]).to.deep.equal([11, false, 10]);
    // The budget running out exactly at the end of the range gives no cursor: nothing is left to examine.
    const exact = await scanOutputQuery(store, parseOutputQuery('alias', { sender: bech(B) }, HRP), 1, { budget: 1 });
    expect([exact.examined, exact.exhausted, exact.answer]).to.deep.equal([
      1,
      false,
      { ledgerIndex: 1, pageSize: 1000, items: [] },
    ]);
  });

  it('with the default budget a query over more than 10,000 outputs answers a page with a cursor', async () => {
    const big = await NodeStore.open(new MemoryKeyValueStore());
    await book(big, fixture(10_050, 1));
    const q = parseOutputQuery('basic', { tag: tagHex('needle') }, HRP);
    const first = await scanOutputQuery(big, q, 1);
    expect([first.examined, first.exhausted, first.answer.items.length, first.answer.pageSize]).to.deep.equal([
      10_000,
      true,
      0,
      1000,
    ]);
    const second = await queryOutputs(big, 'basic', { tag: tagHex('needle'), cursor: first.answer.cursor! }, 1, HRP);
    expect(second.items).to.have.length(1);
    expect(second.cursor).to.equal(undefined);
  });

  it('an aborted signal stops the scan before the next store read', async () => {
    const q = parseOutputQuery('basic', { tag: tagHex('needle') }, HRP);
    const done = new AbortController();
    done.abort(new Error('gone'));
    kv.ranges = 0;
    const early = await scanOutputQuery(store, q, 1, { signal: done.signal }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((early as Error).message).to.equal('gone');
    expect(kv.ranges).to.equal(0);

    // Aborted while scanning: after the second range read, no further read.
    const ac = new AbortController();
    kv.ranges = 0;
    kv.beforeRange = () => {
      if (kv.ranges === 2) ac.abort(new Error('the client cancelled the call'));
    };
    try {
      const err = await scanOutputQuery(store, q, 1, { signal: ac.signal }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((err as Error).message).to.equal('the client cancelled the call');
      expect(kv.ranges).to.equal(2);
    } finally {
      kv.beforeRange = undefined;
    }
    // Without a reason the signal's own reason (an AbortError) is thrown.
    const plain = new AbortController();
    plain.abort();
    expect(
      await scanOutputQuery(store, q, 1, { signal: plain.signal }).then(
        () => 'answered',
        (e: unknown) => (e as Error).name,
      ),
    ).to.equal('AbortError');
  });

  it('refuses a budget that is not a positive integer', async () => {
    const q = parseOutputQuery('basic', {}, HRP);
    for (const budget of [0, -1, 1.5, Number.NaN]) {
      const e = await scanOutputQuery(store, q, 1, { budget }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e, String(budget)).to.be.instanceOf(RangeError);
    }
  });
});
