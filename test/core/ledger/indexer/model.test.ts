/**
 * Property: for random ledgers of random outputs (every kind, any unlock condition and feature) and random queries
 * built from the addresses, times and tags in them, paging through queryOutputs gives exactly what a plain filter over
 * the output list gives (written here against the model, independently of the indexer's facts), in (createdAt, output
 * ID) order. The outputs are then all spent and every query answers nothing.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { toHex } from '../../../../src/core/bytes.ts';
import { verifyOutputIndex, type IndexableOutput, type IndexerRoute } from '../../../../src/core/ledger/index.ts';
import type { NodeStore } from '../../../../src/core/store/index.ts';
import type { Address, CommonOutput } from '../../../../src/core/model/index.ts';
import { output as anyOutput } from '../../../support/arbitrary-model.ts';
import { allPages, bech, book, newStore, oid } from './support.ts';

interface Filter {
  name: string;
  text: string;
  test(o: CommonOutput, createdAt: number): boolean;
}

const uc = (o: CommonOutput, type: number): Record<string, unknown> | undefined =>
  o.unlockConditions.find((u) => u.type === type) as Record<string, unknown> | undefined;
const sameAddress = (a: unknown, b: Address): boolean => a !== undefined && bech(a as Address) === bech(b);
const ucAddress = (o: CommonOutput, type: number, field = 'address'): unknown => uc(o, type)?.[field];
const featureAddress = (fs: readonly { type: number }[], type: number): unknown =>
  (fs.find((f) => f.type === type) as { address?: Address } | undefined)?.address;

const ROUTE_TYPE: Record<IndexerRoute, number | undefined> = {
  outputs: undefined,
  basic: 3,
  alias: 4,
  foundry: 5,
  nft: 6,
};

/** One kind of filter of a route: its values to try and the filter for each, as the model reads it. */
interface FilterKind {
  values: readonly unknown[];
  make(v: unknown): Filter;
}

function kind<V>(
  name: string,
  values: readonly V[],
  text: (v: V) => string,
  test: (v: V, o: CommonOutput, createdAt: number) => boolean,
): FilterKind {
  return { values, make: (v) => ({ name, text: text(v as V), test: (o, c) => test(v as V, o, c) }) };
}

const time = (o: CommonOutput, type: number): number | undefined => uc(o, type)?.unixTime as number | undefined;
const before = (t: number | undefined, v: number): boolean => t !== undefined && t < v;
const after = (t: number | undefined, v: number): boolean => t !== undefined && t > v;

/** Every filter a route takes, with values from the pool the outputs are folded onto. */
function filterKinds(route: IndexerRoute): FilterKind[] {
  const addr = (
    name: string,
    read: (o: CommonOutput) => unknown,
    values: readonly Address[] = POOL.addresses,
  ): FilterKind => kind(name, values, bech, (a, o) => sameAddress(read(o), a));
  const flag = (name: string, type: number): FilterKind =>
    kind(name, [true, false], String, (v, o) => (uc(o, type) !== undefined) === v);
  const out: FilterKind[] = [
    kind('hasNativeTokens', [true, false], String, (v, o) => o.nativeTokens.length > 0 === v),
    kind('minNativeTokenCount', [0, 1, 2, 3], String, (v, o) => o.nativeTokens.length >= v),
    kind('maxNativeTokenCount', [0, 1, 2, 3], String, (v, o) => o.nativeTokens.length <= v),
    kind('createdBefore', POOL.times, String, (v, _, c) => c < v),
    kind('createdAfter', POOL.times, String, (v, _, c) => c > v),
  ];
  if (route !== 'foundry') {
    const unlocks = (o: CommonOutput): unknown[] => [
      ucAddress(o, 0),
      ucAddress(o, 1, 'returnAddress'),
      ucAddress(o, 3, 'returnAddress'),
      ucAddress(o, 4),
      ucAddress(o, 5),
      ucAddress(o, 6),
    ];
    out.push(kind('unlockableByAddress', POOL.addresses, bech, (a, o) => unlocks(o).some((x) => sameAddress(x, a))));
  }
  if (route === 'basic' || route === 'nft') {
    out.push(
      addr('address', (o) => ucAddress(o, 0)),
      flag('hasStorageDepositReturn', 1),
      addr('storageDepositReturnAddress', (o) => ucAddress(o, 1, 'returnAddress')),
      flag('hasExpiration', 3),
      addr('expirationReturnAddress', (o) => ucAddress(o, 3, 'returnAddress')),
      kind('expiresBefore', POOL.times, String, (v, o) => before(time(o, 3), v)),
      kind('expiresAfter', POOL.times, String, (v, o) => after(time(o, 3), v)),
      flag('hasTimelock', 2),
      kind('timelockedBefore', POOL.times, String, (v, o) => before(time(o, 2), v)),
      kind('timelockedAfter', POOL.times, String, (v, o) => after(time(o, 2), v)),
      kind(
        'tag',
        POOL.tags,
        (t) => `0x${toHex(t)}`,
        (t, o) => o.features.some((f) => f.type === 3 && toHex(f.tag) === toHex(t)),
      ),
    );
  }
  if (route === 'basic' || route === 'nft' || route === 'alias')
    out.push(addr('sender', (o) => featureAddress(o.features, 0)));
  if (route === 'nft' || route === 'alias')
    out.push(addr('issuer', (o) => (o.type === 3 ? undefined : featureAddress(o.immutableFeatures, 1))));
  if (route === 'alias')
    out.push(
      addr('stateController', (o) => ucAddress(o, 4)),
      addr('governor', (o) => ucAddress(o, 5)),
    );
  if (route === 'foundry')
    out.push(
      addr(
        'aliasAddress',
        (o) => ucAddress(o, 6),
        POOL.addresses.filter((a) => a.type === 8),
      ),
    );
  return out;
}

/** A few addresses and tags the outputs are folded onto (and one nobody uses), so that filters meet them often. */
const ADDRESSES: Address[] = [
  { type: 0, pubKeyHash: new Uint8Array(32).fill(1) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(2) },
  { type: 8, aliasId: new Uint8Array(32).fill(3) },
  { type: 8, aliasId: new Uint8Array(32).fill(4) },
  { type: 16, nftId: new Uint8Array(32).fill(5) },
  { type: 0, pubKeyHash: new Uint8Array(32).fill(6) },
];
const TAGS = [Uint8Array.of(1), Uint8Array.of(1, 2), Uint8Array.of(9)];
const POOL = { addresses: ADDRESSES, times: [0, 1, 2, 3, 4, 5, 6, 7], tags: TAGS };

function fold(a: Address): Address {
  if (a.type === 0) return ADDRESSES[a.pubKeyHash[0]! % 2]!;
  if (a.type === 8) return ADDRESSES[2 + (a.aliasId[0]! % 2)]!;
  return ADDRESSES[4]!;
}

/**
 * The generated output with its addresses, tags and Unix times (into 1..6) folded onto few values; a foundry gets
 * serial number `i`, so that no two foundries of a ledger share a foundry ID (the ledger never holds two outputs of one
 * chain).
 */
function folded(output: CommonOutput, i: number): CommonOutput {
  const copy = structuredClone(output);
  if (copy.type === 5) copy.serialNumber = i;
  for (const u of copy.unlockConditions) {
    if (u.type === 2 || u.type === 3) u.unixTime = (u.unixTime % 6) + 1;
    if (u.type === 0 || u.type === 4 || u.type === 5) u.address = fold(u.address);
    if (u.type === 1 || u.type === 3) u.returnAddress = fold(u.returnAddress);
    if (u.type === 6) u.address = fold(u.address) as typeof u.address;
  }
  for (const f of [...copy.features, ...(copy.type === 3 ? [] : copy.immutableFeatures)]) {
    if (f.type === 0 || f.type === 1) f.address = fold(f.address);
    if (f.type === 3) f.tag = TAGS[f.tag[0]! % 2]!;
  }
  return copy;
}

const ledgerArb = fc
  .array(fc.tuple(anyOutput, fc.integer({ min: 0, max: 4 })), { minLength: 1, maxLength: 30 })
  .map((xs) =>
    xs.map(
      ([output, createdAt], i): IndexableOutput => ({
        outputId: oid(`model ${i % 3}`, Math.floor(i / 3)),
        milestoneTimestampBooked: createdAt,
        output: folded(output, i),
      }),
    ),
  );

const caseArb = ledgerArb.chain((ledger) =>
  fc.constantFrom<IndexerRoute>('outputs', 'basic', 'alias', 'foundry', 'nft').chain((route) =>
    fc.record({
      ledger: fc.constant(ledger),
      route: fc.constant(route),
      filters: fc
        .subarray(filterKinds(route), { maxLength: 3 })
        .chain((kinds) =>
          kinds.length === 0
            ? fc.constant([] as Filter[])
            : fc.tuple(...kinds.map((k) => fc.constantFrom(...k.values).map(k.make))),
        ),
      pageSize: fc.integer({ min: 1, max: 5 }),
    }),
  ),
);

const ROUTES: IndexerRoute[] = ['outputs', 'basic', 'alias', 'foundry', 'nft'];

/** Pages through the query and compares with the plain filter; returns how many outputs matched. */
async function expectAgrees(
  store: NodeStore,
  ledger: readonly IndexableOutput[],
  route: IndexerRoute,
  filters: readonly Filter[],
  pageSize: number,
): Promise<number> {
  const type = ROUTE_TYPE[route];
  const expected = ledger
    .filter(
      (o) =>
        (type === undefined || o.output.type === type) &&
        filters.every((f) => f.test(o.output, o.milestoneTimestampBooked)),
    )
    .sort(
      (a, b) =>
        a.milestoneTimestampBooked - b.milestoneTimestampBooked || (toHex(a.outputId) < toHex(b.outputId) ? -1 : 1),
    )
    .map((o) => `0x${toHex(o.outputId)}`);
  const params = Object.fromEntries(filters.map((f) => [f.name, f.text]));
  expect((await allPages(store, route, params, pageSize)).items, `${route} ${JSON.stringify(params)}`).to.deep.equal(
    expected,
  );
  return expected.length;
}

describe('indexer: queries agree with a plain filter over the outputs (property)', () => {
  it('every single filter of every route, with every value', async function () {
    this.timeout(120_000);
    const hits = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(ledgerArb, fc.integer({ min: 1, max: 4 }), async (ledger, pageSize) => {
        const store = await newStore();
        await book(store, ledger);
        for (const route of ROUTES) {
          await expectAgrees(store, ledger, route, [], pageSize);
          for (const k of filterKinds(route)) {
            for (const v of k.values) {
              const f = k.make(v);
              const n = await expectAgrees(store, ledger, route, [f], pageSize);
              hits.set(`${route} ${f.name}`, (hits.get(`${route} ${f.name}`) ?? 0) + (n > 0 ? 1 : 0));
            }
          }
        }
      }),
      { numRuns: 25 },
    );
    // Every filter of every route matched something in some ledger, so none is checked only on empty answers.
    expect([...hits].filter(([, n]) => n === 0).map(([name]) => name)).to.deep.equal([]);
  });

  it('random combinations of filters and page sizes; spending everything empties every answer', async function () {
    this.timeout(120_000);
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ ledger, route, filters, pageSize }) => {
        const store = await newStore();
        await book(store, ledger);
        await expectAgrees(store, ledger, route, filters, pageSize);
        expect((await verifyOutputIndex(store)).differences).to.deep.equal([]);
        await book(store, [], ledger);
        expect((await allPages(store, route, {}, pageSize)).items).to.deep.equal([]);
        expect(await verifyOutputIndex(store)).to.deep.equal({ unspentOutputs: 0, entries: 0, differences: [] });
      }),
      { numRuns: 300 },
    );
  });
});
