/**
 * Cursor paging: pages concatenate to the full ordered answer with no duplicate and no gap, on one kind, on the merged
 * combined route and with filters that decode outputs; a cursor survives outputs spent or booked between pages; the
 * cursor's text is inx-indexer's (`<createdAt 8 hex><output ID 68 hex>.<pageSize>`).
 */
import { expect } from 'chai';
import { toHex, toHex0x } from '../../../../src/core/bytes.ts';
import { queryOutputs, type IndexableOutput } from '../../../../src/core/ledger/index.ts';
import type { NodeStore } from '../../../../src/core/store/index.ts';
import {
  alias,
  aliasAddress,
  allPages,
  basic,
  bech,
  book,
  booked,
  bytes32,
  ed,
  foundry,
  HRP,
  inIndexOrder,
  newStore,
  nft,
} from './support.ts';

const P = ed('pager');
const X_ID = bytes32('pager alias');
const X = aliasAddress(X_ID);

/** 61 basic outputs of P over three timestamps (many equal), and a few of every kind for X. */
function outputs(): IndexableOutput[] {
  const out: IndexableOutput[] = [];
  for (let i = 0; i < 61; i++)
    out.push(
      booked(`p${i % 7}`, 1000 + (i % 3), basic({ address: P }, i % 4 === 0 ? { tag: 'even' } : {}), Math.floor(i / 7)),
    );
  for (let i = 0; i < 5; i++) {
    out.push(booked(`x basic ${i}`, 1000 + i, basic({ address: X })));
    out.push(booked(`x alias ${i}`, 1000 + i, alias(X, P, {}, bytes32(`pager alias ${i}`))));
    out.push(booked(`x nft ${i}`, 1002 - i, nft({ address: P, expiration: { address: X, time: 5 } })));
    out.push(booked(`x foundry ${i}`, 1001, foundry(X_ID, i + 1)));
  }
  return out;
}

describe('indexer: paging', () => {
  let store: NodeStore;
  const all = outputs();
  before(async () => {
    store = await newStore();
    await book(store, all);
  });

  it('pages of every size concatenate to the whole ordered answer, without duplicates', async () => {
    const expected = inIndexOrder(
      all.filter((o) => o.output.type === 3 && (o.output.unlockConditions[0] as { address: unknown }).address === P),
    );
    expect(expected).to.have.length(61);
    for (const size of [1, 2, 7, 60, 61, 62, 1000]) {
      const { items, pages } = await allPages(store, 'basic', { address: bech(P) }, size);
      expect(items, `page size ${size}`).to.deep.equal(expected);
      expect(pages.length).to.equal(Math.ceil(61 / size));
      expect(new Set(items).size).to.equal(items.length);
    }
  });

  it('pages the combined route merged across kinds, and filters that need the output', async () => {
    const forX = inIndexOrder(
      all.filter(
        (o) =>
          o.outputId &&
          JSON.stringify(o.output, (_, v) =>
            v instanceof Uint8Array ? toHex(v) : typeof v === 'bigint' ? String(v) : v,
          ).includes(toHex(X_ID)),
      ),
    );
    expect(forX).to.have.length(20);
    for (const size of [1, 3, 20])
      expect((await allPages(store, 'outputs', { unlockableByAddress: bech(X) }, size)).items).to.deep.equal(forX);
    expect((await allPages(store, 'outputs', {}, 9)).items).to.deep.equal(inIndexOrder(all));
    const tagged = inIndexOrder(all.filter((o) => o.output.type === 3 && o.output.features.some((f) => f.type === 3)));
    expect(tagged).to.have.length(16);
    for (const size of [1, 5, 16])
      expect(
        (await allPages(store, 'basic', { tag: '0x' + toHex(new TextEncoder().encode('even')) }, size)).items,
      ).to.deep.equal(tagged);
    const nfts = inIndexOrder(all.filter((o) => o.output.type === 6 && o.milestoneTimestampBooked > 999));
    expect(nfts).to.have.length(3);
    expect(
      (await allPages(store, 'nft', { expirationReturnAddress: bech(X), createdAfter: '999' }, 2)).items,
    ).to.deep.equal(nfts);
  });

  it("writes inx-indexer's cursor: 8 hex digits of createdAt, the output ID, a dot and the page size", async () => {
    const page = await queryOutputs(store, 'basic', { address: bech(P), pageSize: '10' }, 3, HRP);
    const expected = inIndexOrder(
      all.filter((o) => o.output.type === 3 && (o.output.unlockConditions[0] as { address: unknown }).address === P),
    );
    const next = all.find((o) => toHex0x(o.outputId) === expected[10])!;
    expect(page.cursor).to.equal(
      `${next.milestoneTimestampBooked.toString(16).padStart(8, '0')}${toHex(next.outputId)}.10`,
    );
    // The cursor's page size wins over pageSize (TIP-26); upper-case hex is read too.
    const second = await queryOutputs(
      store,
      'basic',
      { address: bech(P), pageSize: '3', cursor: page.cursor!.toUpperCase() },
      3,
      HRP,
    );
    expect(second.pageSize).to.equal(10);
    expect(second.items).to.deep.equal(expected.slice(10, 20));
  });

  it('a cursor survives outputs spent or booked between pages: no gap for outputs that stay unspent', async () => {
    const s = await newStore();
    const os = all.filter(
      (o) => o.output.type === 3 && (o.output.unlockConditions[0] as { address: unknown }).address === P,
    );
    await book(s, os);
    const expected = inIndexOrder(os);
    const first = await queryOutputs(s, 'basic', { address: bech(P), pageSize: '10' }, 1, HRP);
    expect(first.items).to.deep.equal(expected.slice(0, 10));
    // Spend one output of the first page, the cursor's own output and one further on; book a later one.
    const byId = new Map(os.map((o) => [toHex0x(o.outputId), o]));
    const gone = [expected[3]!, expected[10]!, expected[30]!];
    const late = booked('late', 5000, basic({ address: P }));
    await book(
      s,
      [late],
      gone.map((id) => byId.get(id)!),
    );
    const rest: string[] = [];
    let cursor = first.cursor;
    while (cursor !== undefined) {
      const page = await queryOutputs(s, 'basic', { address: bech(P), cursor }, 1, HRP);
      rest.push(...page.items);
      cursor = page.cursor;
    }
    expect(rest).to.deep.equal([...expected.slice(10).filter((id) => !gone.includes(id)), toHex0x(late.outputId)]);
  });

  it('an exhausted range answers an empty page without cursor', async () => {
    const last = inIndexOrder(all).at(-1)!;
    const o = all.find((x) => toHex0x(x.outputId) === last)!;
    const beyond = `${(o.milestoneTimestampBooked + 1).toString(16).padStart(8, '0')}${'00'.repeat(34)}.5`;
    expect(await queryOutputs(store, 'outputs', { cursor: beyond }, 8, HRP)).to.deep.equal({
      ledgerIndex: 8,
      pageSize: 5,
      items: [],
    });
  });
});
