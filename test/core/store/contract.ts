/**
 * The storage contract: every KeyValueStore adapter (in-memory, LevelDB, ...) must pass this suite, and so must
 * NodeStore on top of it. Call `storeContract('name', makeHarness)` from a *.test.ts file.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { compareBytes, fromHex, toHex } from '../../../src/core/bytes.ts';
import {
  NodeStore,
  PREFIX,
  META,
  SCHEMA_VERSION,
  TABLES,
  StoreError,
  defineTable,
  idPrefix,
  prefixRange,
  u32KeyCodec,
  utf8Codec,
  type BlockMetadata,
  type KeyValueStore,
  type RangeOptions,
} from '../../../src/core/store/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import {
  indexLedgerChanges,
  LEDGER_TABLES,
  positionOf,
  queryOutputs,
  verifyOutputIndex,
} from '../../../src/core/ledger/index.ts';
import type { Address } from '../../../src/core/model/index.ts';

export interface StoreHarness {
  /** Opens the store under test. After `close()`, a persistent harness re-opens the same data. */
  open(): Promise<KeyValueStore>;
  /** Whether data survives close + open. */
  readonly persistent: boolean;
  /** Removes what the harness created (temp folders). */
  cleanup?(): Promise<void>;
}

const b = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
const h = (bytes: Uint8Array): string => toHex(bytes);
const id = (seed: number, length = 32): Uint8Array => Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 7) & 0xff);

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
const keysOf = async (kv: KeyValueStore, range?: RangeOptions): Promise<string[]> => (await all(kv.keys(range))).map(h);

async function rejects(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

function metadata(over: Partial<BlockMetadata> = {}): BlockMetadata {
  return { protocolVersion: 2, solid: false, arrivalTime: 1_700_000_000_123, ...over };
}

export function storeContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`storage contract: ${name}`, () => {
    let harness: StoreHarness;
    let kv: KeyValueStore;

    beforeEach(async () => {
      harness = makeHarness();
      kv = await harness.open();
    });
    afterEach(async () => {
      await kv.close();
      await harness.cleanup?.();
    });

    async function reopen(): Promise<KeyValueStore> {
      await kv.close();
      kv = await harness.open();
      return kv;
    }

    describe('KeyValueStore', () => {
      it('returns undefined / false for missing keys, never throws', async () => {
        expect(await kv.get(b(1, 2, 3))).to.equal(undefined);
        expect(await kv.has(b(1, 2, 3))).to.equal(false);
        expect(await kv.getMany([b(1), b(2)])).to.deep.equal([undefined, undefined]);
        await kv.del(b(9)); // deleting a missing key is fine
      });

      it('puts, gets, overwrites and deletes', async () => {
        await kv.put(b(1, 1), b(10));
        await kv.put(b(1, 2), b());
        expect(await kv.get(b(1, 1))).to.deep.equal(b(10));
        expect(await kv.get(b(1, 2))).to.deep.equal(b()); // an empty value is a value
        expect(await kv.has(b(1, 2))).to.equal(true);
        await kv.put(b(1, 1), b(11, 12));
        expect(await kv.get(b(1, 1))).to.deep.equal(b(11, 12));
        expect(await kv.getMany([b(1, 2), b(7), b(1, 1)])).to.deep.equal([b(), undefined, b(11, 12)]);
        await kv.del(b(1, 1));
        expect(await kv.get(b(1, 1))).to.equal(undefined);
        expect(await kv.has(b(1, 1))).to.equal(false);
      });

      it('hands out plain Uint8Array that alias neither the caller nor the store', async () => {
        const key = b(5, 5);
        const value = b(1, 2, 3);
        await kv.put(key, value);
        value[0] = 99;
        key[1] = 6;
        const got = (await kv.get(b(5, 5)))!;
        expect(got.constructor).to.equal(Uint8Array);
        expect(got).to.deep.equal(b(1, 2, 3));
        got[1] = 77;
        expect(await kv.get(b(5, 5))).to.deep.equal(b(1, 2, 3));
        const [[k, v]] = (await all(kv.entries())) as [[Uint8Array, Uint8Array]];
        expect(k.constructor).to.equal(Uint8Array);
        expect(v.constructor).to.equal(Uint8Array);
        const [many] = await kv.getMany([b(5, 5)]);
        expect(many!.constructor).to.equal(Uint8Array);
      });

      it('applies a mixed batch; a later op on the same key wins', async () => {
        await kv.put(b(1), b(1));
        await kv.put(b(2), b(2));
        await kv.write([
          { type: 'del', key: b(1) },
          { type: 'put', key: b(3), value: b(3) },
          { type: 'put', key: b(4), value: b(4) },
          { type: 'del', key: b(4) },
          { type: 'del', key: b(2) },
          { type: 'put', key: b(2), value: b(22) },
        ]);
        expect(await keysOf(kv)).to.deep.equal(['02', '03']);
        expect(await kv.get(b(2))).to.deep.equal(b(22));
        await kv.write([]); // an empty batch is a no-op
        await kv.write([{ type: 'put', key: b(5), value: b(5) }], { sync: false });
        expect(await kv.get(b(5))).to.deep.equal(b(5));
      });

      it('writes nothing when a batch fails (atomic)', async () => {
        await kv.put(b(1), b(1));
        const bad: unknown[] = [
          [
            { type: 'put', key: b(2), value: b(2) },
            { type: 'del', key: b(1) },
            { type: 'put', key: b(), value: b(3) },
          ],
          [
            { type: 'put', key: b(2), value: b(2) },
            { type: 'del', key: b(1) },
            { type: 'put', key: b(3), value: 'x' },
          ],
          [
            { type: 'put', key: b(2), value: b(2) },
            { type: 'del', key: b(1) },
            { type: 'merge', key: b(3) },
          ],
          [
            { type: 'put', key: b(2), value: b(2) },
            { type: 'del', key: b(1) },
            { type: 'put', key: [3], value: b(3) },
          ],
        ];
        for (const ops of bad) {
          const e = await rejects(kv.write(ops as never));
          expect(e).to.be.instanceOf(TypeError);
          expect(await keysOf(kv)).to.deep.equal(['01']);
        }
      });

      it('iterates in lexical byte order (shorter prefix first, bytes unsigned)', async () => {
        const keys = [b(2), b(1, 0), b(0xff), b(1), b(1, 0xff), b(0x80), b(1, 0, 0), b(0, 0xff, 0xff), b(0x7f, 0xff)];
        for (const k of keys) await kv.put(k, k);
        const expected = keys.slice().sort(compareBytes).map(h);
        expect(expected).to.deep.equal(['00ffff', '01', '0100', '010000', '01ff', '02', '7fff', '80', 'ff']);
        expect(await keysOf(kv)).to.deep.equal(expected);
        const entries = await all(kv.entries());
        expect(entries.map(([k, v]) => [h(k), h(v)])).to.deep.equal(expected.map((k) => [k, k]));
      });

      describe('ranges', () => {
        beforeEach(async () => {
          await kv.write([1, 2, 3, 4, 5].map((i) => ({ type: 'put', key: b(0x10, i), value: b(i) })));
        });
        const cases: [string, RangeOptions, number[]][] = [
          ['gt', { gt: b(0x10, 2) }, [3, 4, 5]],
          ['gte', { gte: b(0x10, 2) }, [2, 3, 4, 5]],
          ['lt', { lt: b(0x10, 4) }, [1, 2, 3]],
          ['lte', { lte: b(0x10, 4) }, [1, 2, 3, 4]],
          ['gt + lt', { gt: b(0x10, 1), lt: b(0x10, 5) }, [2, 3, 4]],
          ['gte + lte', { gte: b(0x10, 2), lte: b(0x10, 4) }, [2, 3, 4]],
          ['bounds between keys', { gt: b(0x10, 2, 0), lt: b(0x10, 4, 0) }, [3, 4]],
          ['gt and gte: the tighter wins', { gt: b(0x10, 3), gte: b(0x10, 2) }, [4, 5]],
          ['lt and lte: the tighter wins', { lt: b(0x10, 2), lte: b(0x10, 4) }, [1]],
          ['empty (lower above upper)', { gt: b(0x10, 4), lt: b(0x10, 2) }, []],
          ['reverse', { reverse: true }, [5, 4, 3, 2, 1]],
          ['reverse within bounds', { gt: b(0x10, 1), lte: b(0x10, 4), reverse: true }, [4, 3, 2]],
          ['limit', { limit: 2 }, [1, 2]],
          ['reverse + limit', { reverse: true, limit: 2 }, [5, 4]],
          ['bounds + reverse + limit', { lt: b(0x10, 5), reverse: true, limit: 3 }, [4, 3, 2]],
          ['limit 0', { limit: 0 }, []],
          ['negative limit = no limit', { limit: -1 }, [1, 2, 3, 4, 5]],
          ['limit above size', { limit: 50 }, [1, 2, 3, 4, 5]],
        ];
        for (const [label, range, want] of cases) {
          it(label, async () => {
            expect(await keysOf(kv, range)).to.deep.equal(want.map((i) => h(b(0x10, i))));
            const entries = await all(kv.entries(range));
            expect(entries.map(([, v]) => v[0])).to.deep.equal(want);
          });
        }
      });

      it('prefix scans never bleed into the next prefix, including at 0xff', async () => {
        const keys = [
          b(0x01),
          b(0x01, 0xfe),
          b(0x01, 0xff),
          b(0x01, 0xff, 0x00),
          b(0x01, 0xff, 0xff),
          b(0x02),
          b(0x02, 0x00),
          b(0xfe, 0xff),
          b(0xff),
          b(0xff, 0x00),
          b(0xff, 0xff),
          b(0xff, 0xff, 0xff),
        ];
        for (const k of keys) await kv.put(k, b(0));
        expect(await keysOf(kv, prefixRange(b(0x01, 0xff)))).to.deep.equal(['01ff', '01ff00', '01ffff']);
        expect(await keysOf(kv, prefixRange(b(0x01)))).to.deep.equal(['01', '01fe', '01ff', '01ff00', '01ffff']);
        expect(await keysOf(kv, prefixRange(b(0xfe)))).to.deep.equal(['feff']);
        expect(await keysOf(kv, prefixRange(b(0xff)))).to.deep.equal(['ff', 'ff00', 'ffff', 'ffffff']);
        expect(await keysOf(kv, prefixRange(b(0xff, 0xff)))).to.deep.equal(['ffff', 'ffffff']);
        expect(await keysOf(kv, prefixRange(b(0x01, 0xff), { reverse: true, limit: 2 }))).to.deep.equal([
          '01ffff',
          '01ff00',
        ]);
        expect(await keysOf(kv, prefixRange(b(0x03)))).to.deep.equal([]);
      });

      it('iterates a snapshot: writes made during iteration are not seen', async () => {
        for (const i of [1, 2, 3, 4]) await kv.put(b(i), b(i));
        const it = kv.entries();
        await kv.put(b(5), b(5));
        await kv.del(b(2));
        await kv.put(b(3), b(33));
        const first = await it.next();
        await kv.put(b(0, 1), b(0));
        const rest = await all(it);
        const seen = [first.value!, ...rest].map(([k, v]) => `${h(k)}=${h(v)}`);
        expect(seen).to.deep.equal(['01=01', '02=02', '03=03', '04=04']);
        expect(await keysOf(kv)).to.deep.equal(['0001', '01', '03', '04', '05']);
      });

      it('releases an iterator left early, and keeps serving afterwards', async () => {
        for (let i = 0; i < 100; i++) await kv.put(b(i), b(i));
        let n = 0;
        for await (const _ of kv.keys()) if (++n === 3) break;
        expect(n).to.equal(3);
        const it = kv.entries({ gte: b(50) });
        expect((await it.next()).value![0]).to.deep.equal(b(50));
        await it.return!();
        expect((await it.next()).done).to.equal(true);
        expect(await kv.get(b(99))).to.deep.equal(b(99));
      });

      it('pages through long ranges in order', async () => {
        const ops = Array.from({ length: 3000 }, (_, i) => ({
          type: 'put' as const,
          key: b(0x20, i >> 8, i & 0xff),
          value: b(i & 0xff),
        }));
        await kv.write(ops);
        const got = await all(kv.keys(prefixRange(b(0x20))));
        expect(got.length).to.equal(3000);
        for (let i = 1; i < got.length; i++) expect(compareBytes(got[i - 1]!, got[i]!)).to.be.lessThan(0);
        expect((await all(kv.keys({ ...prefixRange(b(0x20)), reverse: true, limit: 1500 }))).length).to.equal(1500);
      });

      it('rejects use after close with STORE_CLOSED; closing twice is fine', async () => {
        await kv.put(b(1), b(1));
        await kv.close();
        await kv.close();
        for (const p of [
          kv.get(b(1)),
          kv.has(b(1)),
          kv.getMany([b(1)]),
          kv.put(b(2), b(2)),
          kv.del(b(1)),
          kv.write([]),
        ]) {
          const e = await rejects(p);
          expect(e).to.be.instanceOf(StoreError);
          expect((e as StoreError).code).to.equal('STORE_CLOSED');
        }
        expect(() => kv.entries()).to.throw(StoreError);
        kv = await harness.open();
        if (harness.persistent) expect(await kv.get(b(1))).to.deep.equal(b(1));
      });

      it('agrees with a sorted-map model on random batches and ranges (property)', async () => {
        const key = fc.uint8Array({ minLength: 1, maxLength: 4, max: 3 }).map((k) => {
          k[0] = k[0]! | 0xf0;
          return k;
        }); // few distinct keys, collisions likely
        const op = fc.oneof(
          fc.record({ type: fc.constant('put' as const), key, value: fc.uint8Array({ maxLength: 3 }) }),
          fc.record({ type: fc.constant('del' as const), key }),
        );
        const range = fc.record(
          { gt: key, gte: key, lt: key, lte: key, reverse: fc.boolean(), limit: fc.integer({ min: -1, max: 6 }) },
          { requiredKeys: [] },
        );
        await fc.assert(
          fc.asyncProperty(
            fc.array(fc.array(op, { maxLength: 8 }), { maxLength: 5 }),
            fc.array(range, { maxLength: 4 }),
            fc.nat(5),
            async (batches, ranges, snapAt) => {
              const model = new Map<string, string>();
              const sortedModel = (): string[][] =>
                [...model.entries()].sort(([a], [c]) => compareBytes(fromHex(a), fromHex(c)));
              let snapshot: AsyncIterableIterator<readonly [Uint8Array, Uint8Array]> | undefined;
              let snapshotWant: string[][] = [];
              for (const [i, ops] of batches.entries()) {
                if (i === snapAt) {
                  snapshot = kv.entries();
                  snapshotWant = sortedModel();
                }
                await kv.write(ops);
                for (const o of ops) {
                  if (o.type === 'put') model.set(h(o.key), h(o.value));
                  else model.delete(h(o.key));
                }
              }
              if (snapshot) expect((await all(snapshot)).map(([k, v]) => [h(k), h(v)])).to.deep.equal(snapshotWant);
              const sorted = sortedModel();
              for (const r of ranges) {
                let want = sorted.filter(([k]) => {
                  const kb = fromHex(k);
                  return (
                    (!r.gt || compareBytes(kb, r.gt) > 0) &&
                    (!r.gte || compareBytes(kb, r.gte) >= 0) &&
                    (!r.lt || compareBytes(kb, r.lt) < 0) &&
                    (!r.lte || compareBytes(kb, r.lte) <= 0)
                  );
                });
                if (r.reverse) want = want.reverse();
                if (r.limit !== undefined && r.limit >= 0) want = want.slice(0, r.limit);
                const got = (await all(kv.entries(r))).map(([k, v]) => [h(k), h(v)]);
                expect(got).to.deep.equal(want);
              }
              // clean up for the next run
              await kv.write([...model.keys()].map((k) => ({ type: 'del' as const, key: fromHex(k) })));
              expect(await keysOf(kv)).to.deep.equal([]);
            },
          ),
          { numRuns: 60 },
        );
      });

      it('persists across close and re-open', async function () {
        if (!harness.persistent) this.skip();
        await kv.write(
          [
            { type: 'put', key: b(1), value: b(1) },
            { type: 'put', key: b(2), value: b(2) },
          ],
          { sync: true },
        );
        await kv.write([{ type: 'del', key: b(1) }], { sync: false });
        await reopen();
        expect(await keysOf(kv)).to.deep.equal(['02']);
      });
    });

    describe('NodeStore', () => {
      let store: NodeStore;
      beforeEach(async () => {
        store = await NodeStore.open(kv, { networkName: 'testnet' });
      });

      it('records schema version and network on a new store, and checks them on open', async () => {
        expect(await store.getMeta(META.schemaVersion)).to.equal(SCHEMA_VERSION);
        expect(await store.getMeta(META.networkName)).to.equal('testnet');
        await NodeStore.open(kv, { networkName: 'testnet' });
        await NodeStore.open(kv);
        const e = (await rejects(NodeStore.open(kv, { networkName: 'shimmer' }))) as StoreError;
        expect(e.code).to.equal('NETWORK_MISMATCH');
        expect(e.message).to.contain('"testnet"').and.contain('"shimmer"');
        await store
          .batch()
          .putMeta(META.schemaVersion, SCHEMA_VERSION + 1)
          .commit();
        expect(((await rejects(NodeStore.open(kv))) as StoreError).code).to.equal('SCHEMA_MISMATCH');
      });

      it('refuses a non-empty store without a schema version', async () => {
        await kv.del(Uint8Array.of(PREFIX.meta, ...utf8Codec.encode('schemaVersion')));
        await kv.put(b(PREFIX.blocks, 1, 1), b(1));
        expect(((await rejects(NodeStore.open(kv))) as StoreError).code).to.equal('SCHEMA_MISMATCH');
      });

      it('stores a block with metadata, children and tips in one batch, visible only after commit', async () => {
        const [p1, p2] = [id(1), id(2)];
        await store.batch().addTip(p1).addTip(p2).commit();
        const blockId = id(3);
        const bytes = Uint8Array.from({ length: 150 }, (_, i) => i);
        const md = metadata({ solid: true });
        const batch = store
          .batch()
          .addBlock({ blockId, bytes, parents: [p1, p2], metadata: md })
          .removeTip(p1)
          .removeTip(p2)
          .addTip(blockId);
        expect(batch.length).to.equal(7);
        expect(await store.hasBlock(blockId)).to.equal(false);
        expect(await store.children(p1)).to.deep.equal([]);
        await batch.commit();
        expect(await store.getBlock(blockId)).to.deep.equal(bytes);
        expect(await store.getBlockMetadata(blockId)).to.deep.equal(md);
        expect(await store.children(p1)).to.deep.equal([blockId]);
        expect(await store.children(p2)).to.deep.equal([blockId]);
        expect(await store.tips()).to.deep.equal([blockId]);
        expect(await store.isTip(p1)).to.equal(false);
        const e = (await rejects(batch.commit())) as StoreError;
        expect(e.code).to.equal('BATCH_COMMITTED');
        expect(() => batch.addTip(p1)).to.throw(StoreError);
      });

      it('writes nothing of a batch whose value cannot be encoded', async () => {
        const batch = store.batch().addBlock({ blockId: id(4), bytes: b(1), parents: [id(1)], metadata: metadata() });
        expect(() => batch.putBlockMetadata(id(5), metadata({ protocolVersion: 4 as never }))).to.throw(RangeError);
        expect(() => batch.put(TABLES.milestones, -1, { milestoneId: id(1), blockId: id(2), timestamp: 1 })).to.throw(
          RangeError,
        );
        expect(await store.hasBlock(id(4))).to.equal(false);
        expect(await store.children(id(1))).to.deep.equal([]);
      });

      it('stores real blocks byte for byte under their IDs', async () => {
        const vectors = (
          loadVectors('stardust/blocks.json').vectors as {
            bytes: string;
            json: { parents: string[] };
            derived?: { blockId?: string };
          }[]
        ).filter((v) => v.derived?.blockId && v.json?.parents);
        expect(vectors.length).to.be.greaterThan(0);
        const batch = store.batch();
        for (const v of vectors) {
          batch.addBlock({
            blockId: fromHex(v.derived!.blockId!),
            bytes: fromHex(v.bytes),
            parents: v.json.parents.map((p) => fromHex(p)),
            metadata: metadata(),
          });
        }
        await batch.commit();
        for (const v of vectors) {
          expect(h((await store.getBlock(fromHex(v.derived!.blockId!)))!)).to.equal(v.bytes.replace(/^0x/, ''));
          for (const p of v.json.parents)
            expect((await store.children(fromHex(p))).map(h)).to.include(v.derived!.blockId!.slice(2));
        }
      });

      it('lists children by prefix scan without bleeding into neighbouring or longer IDs', async () => {
        const parent = id(7);
        const neighbour = parent.slice();
        neighbour[31] = (neighbour[31]! + 1) & 0xff;
        const longer = Uint8Array.of(...parent, 0, 0, 0, 9); // a 36-byte (v3-sized) ID starting with the parent
        const ffParent = new Uint8Array(32).fill(0xff);
        const kids = [id(20), id(21), id(22, 36)];
        const batch = store.batch();
        for (const k of kids) batch.addChild(parent, k);
        batch
          .addChild(neighbour, id(30))
          .addChild(longer, id(31))
          .addChild(ffParent, id(32))
          .addChild(ffParent, id(33));
        await batch.commit();
        expect((await store.children(parent)).map(h).sort()).to.deep.equal(kids.map(h).sort());
        expect(await store.children(neighbour)).to.deep.equal([id(30)]);
        expect(await store.children(longer)).to.deep.equal([id(31)]);
        expect((await store.children(ffParent)).map(h)).to.deep.equal([id(32), id(33)].map(h).sort());
        expect(await store.children(id(99))).to.deep.equal([]);
      });

      it('indexes transactions: every carrying block, and the included one', async () => {
        const tx = id(40);
        const otherTx = id(41, 36);
        await store
          .batch()
          .addBlock({ blockId: id(42), bytes: b(1), parents: [id(1)], metadata: metadata(), transactionId: tx })
          .addBlock({ blockId: id(43), bytes: b(2), parents: [id(1)], metadata: metadata(), transactionId: tx })
          .addTransactionBlock(otherTx, id(44, 36))
          .commit();
        expect((await store.transactionBlocks(tx)).map(h)).to.deep.equal([id(42), id(43)].map(h).sort());
        expect(await store.transactionBlocks(otherTx)).to.deep.equal([id(44, 36)]);
        expect(await store.includedBlock(tx)).to.equal(undefined);
        await store.batch().setIncludedBlock(tx, id(43)).commit();
        expect(await store.includedBlock(tx)).to.deep.equal(id(43));
      });

      it('keeps milestones by index (numeric order) and by milestone ID', async () => {
        expect(await store.lastMilestoneIndex()).to.equal(undefined);
        const batch = store.batch();
        for (const i of [1, 255, 256, 65536, 2])
          batch.putMilestone(i, { milestoneId: id(i), blockId: id(i + 1000), timestamp: 1_690_000_000 + i });
        batch
          .putMeta(META.latestMilestoneIndex, 65536)
          .putMeta(META.confirmedMilestoneIndex, 256)
          .putMeta(META.ledgerIndex, 255);
        await batch.commit();
        expect(await store.lastMilestoneIndex()).to.equal(65536);
        expect(await store.milestone(256)).to.deep.equal({
          milestoneId: id(256),
          blockId: id(1256),
          timestamp: 1_690_000_256,
        });
        expect(await store.milestone(3)).to.equal(undefined);
        expect(await store.milestoneIndexById(id(255))).to.equal(255);
        expect(await all(store.keys(TABLES.milestones, { gte: 2, lt: 65536 }))).to.deep.equal([2, 255, 256]);
        expect(await store.getMeta(META.latestMilestoneIndex)).to.equal(65536);
        expect(await store.getMeta(META.confirmedMilestoneIndex)).to.equal(256);
        expect(await store.getMeta(META.ledgerIndex)).to.equal(255);
      });

      it('serves generic typed tables, including one at prefix 0xff', async () => {
        const notes = defineTable('notes', PREFIX.scratch, u32KeyCodec, utf8Codec);
        const batch = store.batch();
        for (const i of [5, 1, 300, 70000]) batch.put(notes, i, `note ${i}`);
        batch.addTip(id(1));
        await batch.commit();
        expect(await store.get(notes, 300)).to.equal('note 300');
        expect(await store.get(notes, 4)).to.equal(undefined);
        expect(await store.getMany(notes, [1, 2, 5])).to.deep.equal(['note 1', undefined, 'note 5']);
        expect(await all(store.entries(notes))).to.deep.equal([
          [1, 'note 1'],
          [5, 'note 5'],
          [300, 'note 300'],
          [70000, 'note 70000'],
        ]);
        expect(await all(store.keys(notes, { gt: 1, lte: 300, reverse: true }))).to.deep.equal([300, 5]);
        expect(await all(store.keys(notes, { limit: 2 }))).to.deep.equal([1, 5]);
        await store.batch().del(notes, 5).commit();
        expect(await store.has(notes, 5)).to.equal(false);
        expect(await store.tips()).to.deep.equal([id(1)]); // other tables untouched
        expect(await all(store.keys(TABLES.tips, { prefix: idPrefix(id(1)) }))).to.deep.equal([id(1)]);
      });

      it('updates block metadata in place', async () => {
        const blockId = id(50);
        await store
          .batch()
          .addBlock({ blockId, bytes: b(7), parents: [id(1)], metadata: metadata() })
          .commit();
        const referenced = metadata({
          solid: true,
          referenced: { milestoneIndex: 9, whiteFlagIndex: 3, ledgerInclusionState: 'conflicting', conflictReason: 2 },
        });
        await store.batch().putBlockMetadata(blockId, referenced).commit();
        expect(await store.getBlockMetadata(blockId)).to.deep.equal(referenced);
        expect(await store.getBlock(blockId)).to.deep.equal(b(7));
      });

      it('finds every table again after close and re-open', async function () {
        if (!harness.persistent) this.skip();
        const blockId = id(60);
        const md = metadata({
          solid: true,
          milestoneIndex: 12,
          referenced: {
            milestoneIndex: 13,
            whiteFlagIndex: 0,
            ledgerInclusionState: 'noTransaction',
            conflictReason: 0,
          },
        });
        await store
          .batch()
          .addBlock({ blockId, bytes: b(1, 2, 3), parents: [id(61), id(62)], metadata: md, transactionId: id(63) })
          .addTip(blockId)
          .setIncludedBlock(id(63), blockId)
          .putMilestone(12, { milestoneId: id(64), blockId, timestamp: 5 })
          .putMeta(META.latestMilestoneIndex, 12)
          .commit();
        store = await NodeStore.open(await reopen(), { networkName: 'testnet' });
        expect(await store.getBlock(blockId)).to.deep.equal(b(1, 2, 3));
        expect(await store.getBlockMetadata(blockId)).to.deep.equal(md);
        expect(await store.children(id(62))).to.deep.equal([blockId]);
        expect(await store.tips()).to.deep.equal([blockId]);
        expect(await store.transactionBlocks(id(63))).to.deep.equal([blockId]);
        expect(await store.includedBlock(id(63))).to.deep.equal(blockId);
        expect(await store.milestone(12)).to.deep.equal({ milestoneId: id(64), blockId, timestamp: 5 });
        expect(await store.milestoneIndexById(id(64))).to.equal(12);
        expect(await store.getMeta(META.latestMilestoneIndex)).to.equal(12);
      });

      it('serves the output index: ordered range scans of a group from a cursor, deletes in the same batch, after re-open', async () => {
        // 40 outputs of one address over 4 timestamps, booked with their index entries in one batch.
        const owner: Address = { type: 0, pubKeyHash: id(70) };
        const outputs = Array.from({ length: 40 }, (_, i) => ({
          outputId: Uint8Array.of(...id(71 + (i % 5)), i, 0),
          milestoneTimestampBooked: 1_700_000_000 + (i % 4) * 255,
          output: {
            type: 3 as const,
            amount: 1_000_000n,
            nativeTokens: [],
            unlockConditions: [{ type: 0 as const, address: owner }],
            features: [],
          },
        }));
        const batch = store.batch();
        for (const o of outputs) {
          batch.put(LEDGER_TABLES.outputs, o.outputId, {
            blockId: id(76),
            milestoneIndexBooked: 1,
            milestoneTimestampBooked: o.milestoneTimestampBooked,
            output: o.output,
          });
          batch.put(LEDGER_TABLES.unspent, o.outputId, null);
        }
        indexLedgerChanges(batch, outputs, []);
        await batch.commit();
        const ordered = outputs
          .map((o) => h(positionOf(o.milestoneTimestampBooked, o.outputId)))
          .sort()
          .map((p) => `0x${p.slice(8)}`);
        const pages = async (params: Record<string, string>): Promise<string[]> => {
          const items: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await queryOutputs(
              store,
              'basic',
              { ...params, ...(cursor ? { cursor } : { pageSize: '6' }) },
              1,
              'smr',
            );
            items.push(...page.items);
            cursor = page.cursor;
          } while (cursor !== undefined);
          return items;
        };
        const address = bech32EncodeAddress('smr', owner);
        expect(await pages({ address })).to.deep.equal(ordered);
        expect(
          await pages({ address, createdAfter: String(1_700_000_000), createdBefore: String(1_700_000_000 + 3 * 255) }),
        ).to.have.length(20);
        // Spending deletes the entries in the spending batch.
        const spent = outputs.slice(0, 10);
        const spend = store.batch();
        for (const o of spent) spend.del(LEDGER_TABLES.unspent, o.outputId);
        indexLedgerChanges(spend, [], spent);
        await spend.commit();
        const left = ordered.filter((x) => !spent.some((o) => `0x${h(o.outputId)}` === x));
        expect(await pages({ address })).to.deep.equal(left);
        if (harness.persistent) {
          store = await NodeStore.open(await reopen(), { networkName: 'testnet' });
          expect(await pages({ unlockableByAddress: address })).to.deep.equal(left);
        }
        expect((await verifyOutputIndex(store)).differences).to.deep.equal([]);
      });
    });
  });
}
