/** The storage contract, first part: what every KeyValueStore adapter must do (see contract.ts). */
import { expect } from 'chai';
import fc from 'fast-check';
import { compareBytes, fromHex } from '../../../src/core/bytes.ts';
import { StoreError, prefixRange, type RangeOptions } from '../../../src/core/store/index.ts';
import { all, b, h, keysOf, rejects, type StoreUnderTest } from './contract-support.ts';

export function keyValueStoreContract(ctx: StoreUnderTest): void {
  describe('KeyValueStore', () => {
    it('returns undefined / false for missing keys, never throws', async () => {
      expect(await ctx.kv.get(b(1, 2, 3))).to.equal(undefined);
      expect(await ctx.kv.has(b(1, 2, 3))).to.equal(false);
      expect(await ctx.kv.getMany([b(1), b(2)])).to.deep.equal([undefined, undefined]);
      await ctx.kv.del(b(9)); // deleting a missing key is fine
    });

    it('puts, gets, overwrites and deletes', async () => {
      await ctx.kv.put(b(1, 1), b(10));
      await ctx.kv.put(b(1, 2), b());
      expect(await ctx.kv.get(b(1, 1))).to.deep.equal(b(10));
      expect(await ctx.kv.get(b(1, 2))).to.deep.equal(b()); // an empty value is a value
      expect(await ctx.kv.has(b(1, 2))).to.equal(true);
      await ctx.kv.put(b(1, 1), b(11, 12));
      expect(await ctx.kv.get(b(1, 1))).to.deep.equal(b(11, 12));
      expect(await ctx.kv.getMany([b(1, 2), b(7), b(1, 1)])).to.deep.equal([b(), undefined, b(11, 12)]);
      await ctx.kv.del(b(1, 1));
      expect(await ctx.kv.get(b(1, 1))).to.equal(undefined);
      expect(await ctx.kv.has(b(1, 1))).to.equal(false);
    });

    it('hands out plain Uint8Array that alias neither the caller nor the store', async () => {
      const key = b(5, 5);
      const value = b(1, 2, 3);
      await ctx.kv.put(key, value);
      value[0] = 99;
      key[1] = 6;
      const got = (await ctx.kv.get(b(5, 5)))!;
      expect(got.constructor).to.equal(Uint8Array);
      expect(got).to.deep.equal(b(1, 2, 3));
      got[1] = 77;
      expect(await ctx.kv.get(b(5, 5))).to.deep.equal(b(1, 2, 3));
      const [[k, v]] = (await all(ctx.kv.entries())) as [[Uint8Array, Uint8Array]];
      expect(k.constructor).to.equal(Uint8Array);
      expect(v.constructor).to.equal(Uint8Array);
      const [many] = await ctx.kv.getMany([b(5, 5)]);
      expect(many!.constructor).to.equal(Uint8Array);
    });

    it('applies a mixed batch; a later op on the same key wins', async () => {
      await ctx.kv.put(b(1), b(1));
      await ctx.kv.put(b(2), b(2));
      await ctx.kv.write([
        { type: 'del', key: b(1) },
        { type: 'put', key: b(3), value: b(3) },
        { type: 'put', key: b(4), value: b(4) },
        { type: 'del', key: b(4) },
        { type: 'del', key: b(2) },
        { type: 'put', key: b(2), value: b(22) },
      ]);
      expect(await keysOf(ctx.kv)).to.deep.equal(['02', '03']);
      expect(await ctx.kv.get(b(2))).to.deep.equal(b(22));
      await ctx.kv.write([]); // an empty batch is a no-op
      await ctx.kv.write([{ type: 'put', key: b(5), value: b(5) }], { sync: false });
      expect(await ctx.kv.get(b(5))).to.deep.equal(b(5));
    });

    it('writes nothing when a batch fails (atomic)', async () => {
      await ctx.kv.put(b(1), b(1));
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
        const e = await rejects(ctx.kv.write(ops as never));
        expect(e).to.be.instanceOf(TypeError);
        expect(await keysOf(ctx.kv)).to.deep.equal(['01']);
      }
    });

    it('iterates in lexical byte order (shorter prefix first, bytes unsigned)', async () => {
      const keys = [b(2), b(1, 0), b(0xff), b(1), b(1, 0xff), b(0x80), b(1, 0, 0), b(0, 0xff, 0xff), b(0x7f, 0xff)];
      for (const k of keys) await ctx.kv.put(k, k);
      const expected = keys.slice().sort(compareBytes).map(h);
      expect(expected).to.deep.equal(['00ffff', '01', '0100', '010000', '01ff', '02', '7fff', '80', 'ff']);
      expect(await keysOf(ctx.kv)).to.deep.equal(expected);
      const entries = await all(ctx.kv.entries());
      expect(entries.map(([k, v]) => [h(k), h(v)])).to.deep.equal(expected.map((k) => [k, k]));
    });

    describe('ranges', () => {
      beforeEach(async () => {
        await ctx.kv.write([1, 2, 3, 4, 5].map((i) => ({ type: 'put', key: b(0x10, i), value: b(i) })));
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
          expect(await keysOf(ctx.kv, range)).to.deep.equal(want.map((i) => h(b(0x10, i))));
          const entries = await all(ctx.kv.entries(range));
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
      for (const k of keys) await ctx.kv.put(k, b(0));
      expect(await keysOf(ctx.kv, prefixRange(b(0x01, 0xff)))).to.deep.equal(['01ff', '01ff00', '01ffff']);
      expect(await keysOf(ctx.kv, prefixRange(b(0x01)))).to.deep.equal(['01', '01fe', '01ff', '01ff00', '01ffff']);
      expect(await keysOf(ctx.kv, prefixRange(b(0xfe)))).to.deep.equal(['feff']);
      expect(await keysOf(ctx.kv, prefixRange(b(0xff)))).to.deep.equal(['ff', 'ff00', 'ffff', 'ffffff']);
      expect(await keysOf(ctx.kv, prefixRange(b(0xff, 0xff)))).to.deep.equal(['ffff', 'ffffff']);
      expect(await keysOf(ctx.kv, prefixRange(b(0x01, 0xff), { reverse: true, limit: 2 }))).to.deep.equal([
        '01ffff',
        '01ff00',
      ]);
      expect(await keysOf(ctx.kv, prefixRange(b(0x03)))).to.deep.equal([]);
    });

    it('iterates a snapshot: writes made during iteration are not seen', async () => {
      for (const i of [1, 2, 3, 4]) await ctx.kv.put(b(i), b(i));
      const it = ctx.kv.entries();
      await ctx.kv.put(b(5), b(5));
      await ctx.kv.del(b(2));
      await ctx.kv.put(b(3), b(33));
      const first = await it.next();
      await ctx.kv.put(b(0, 1), b(0));
      const rest = await all(it);
      const seen = [first.value!, ...rest].map(([k, v]) => `${h(k)}=${h(v)}`);
      expect(seen).to.deep.equal(['01=01', '02=02', '03=03', '04=04']);
      expect(await keysOf(ctx.kv)).to.deep.equal(['0001', '01', '03', '04', '05']);
    });

    it('releases an iterator left early, and keeps serving afterwards', async () => {
      for (let i = 0; i < 100; i++) await ctx.kv.put(b(i), b(i));
      let n = 0;
      for await (const _ of ctx.kv.keys()) if (++n === 3) break;
      expect(n).to.equal(3);
      const it = ctx.kv.entries({ gte: b(50) });
      expect((await it.next()).value![0]).to.deep.equal(b(50));
      await it.return!();
      expect((await it.next()).done).to.equal(true);
      expect(await ctx.kv.get(b(99))).to.deep.equal(b(99));
    });

    it('pages through long ranges in order', async () => {
      const ops = Array.from({ length: 3000 }, (_, i) => ({
        type: 'put' as const,
        key: b(0x20, i >> 8, i & 0xff),
        value: b(i & 0xff),
      }));
      await ctx.kv.write(ops);
      const got = await all(ctx.kv.keys(prefixRange(b(0x20))));
      expect(got.length).to.equal(3000);
      for (let i = 1; i < got.length; i++) expect(compareBytes(got[i - 1]!, got[i]!)).to.be.lessThan(0);
      expect((await all(ctx.kv.keys({ ...prefixRange(b(0x20)), reverse: true, limit: 1500 }))).length).to.equal(1500);
    });

    it('rejects use after close with STORE_CLOSED; closing twice is fine', async () => {
      await ctx.kv.put(b(1), b(1));
      await ctx.kv.close();
      await ctx.kv.close();
      for (const p of [
        ctx.kv.get(b(1)),
        ctx.kv.has(b(1)),
        ctx.kv.getMany([b(1)]),
        ctx.kv.put(b(2), b(2)),
        ctx.kv.del(b(1)),
        ctx.kv.write([]),
      ]) {
        const e = await rejects(p);
        expect(e).to.be.instanceOf(StoreError);
        expect((e as StoreError).code).to.equal('STORE_CLOSED');
      }
      expect(() => ctx.kv.entries()).to.throw(StoreError);
      ctx.kv = await ctx.harness.open();
      if (ctx.harness.persistent) expect(await ctx.kv.get(b(1))).to.deep.equal(b(1));
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
                snapshot = ctx.kv.entries();
                snapshotWant = sortedModel();
              }
              await ctx.kv.write(ops);
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
              const got = (await all(ctx.kv.entries(r))).map(([k, v]) => [h(k), h(v)]);
              expect(got).to.deep.equal(want);
            }
            // clean up for the next run
            await ctx.kv.write([...model.keys()].map((k) => ({ type: 'del' as const, key: fromHex(k) })));
            expect(await keysOf(ctx.kv)).to.deep.equal([]);
          },
        ),
        { numRuns: 60 },
      );
    });

    it('persists across close and re-open', async function () {
      if (!ctx.harness.persistent) this.skip();
      await ctx.kv.write(
        [
          { type: 'put', key: b(1), value: b(1) },
          { type: 'put', key: b(2), value: b(2) },
        ],
        { sync: true },
      );
      await ctx.kv.write([{ type: 'del', key: b(1) }], { sync: false });
      await ctx.reopen();
      expect(await keysOf(ctx.kv)).to.deep.equal(['02']);
    });
  });
}
