/**
 * Balances and aggregates against a model: random outputs of every kind (storage deposit returns, timelocks,
 * expirations to other addresses, aliases, foundries) booked and spent in random batches. After each batch the kept
 * aggregates equal the model's (balance records, richest order, distribution by magnitude), verifyHistory agrees, and
 * the balance of every address at several times equals inx-chronicle's rule computed over all unspent outputs.
 */
import { expect } from 'chai';
import { toHex } from '../../../../src/core/bytes.ts';
import { encodeAddress } from '../../../../src/core/codec/index.ts';
import {
  addressBalance,
  applyBalanceDeltas,
  BalanceDeltas,
  indexLedgerChanges,
  LEDGER_TABLES,
  magnitudeOf,
  richestAddresses,
  tokenDistribution,
  verifyHistory,
} from '../../../../src/core/ledger/index.ts';
import type { Address, CommonOutput, UnlockCondition } from '../../../../src/core/model/index.ts';
import { HISTORY_META, HISTORY_VERSION } from '../../../../src/core/ledger/index.ts';
import { META, MemoryKeyValueStore, NodeStore } from '../../../../src/core/store/index.ts';
import { aliasAddress, alias, bytes32, ed, foundry, oid } from '../indexer/support.ts';
import { bookStraight } from './support.ts';

/** A small deterministic generator (xorshift). */
function rng(seed: number): { int(n: number): number; pick<T>(xs: readonly T[]): T } {
  let s = seed >>> 0 || 1;
  const next = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  return { int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)]! };
}

const ADDRESSES: Address[] = [ed('a'), ed('b'), ed('c'), ed('d'), aliasAddress(bytes32('alias x'))];
const T = 1000;

function randomOutput(r: ReturnType<typeof rng>, i: number): CommonOutput {
  const amount = BigInt(1 + r.int(10 ** (1 + r.int(9))));
  const kind = r.int(10);
  if (kind === 0) {
    const a = alias(r.pick(ADDRESSES), r.pick(ADDRESSES), {}, bytes32(`alias ${i}`));
    return { ...a, amount };
  }
  if (kind === 1) return { ...foundry(bytes32(`alias ${r.int(3)}`), i + 1), amount };
  const ucs: UnlockCondition[] = [{ type: 0, address: r.pick(ADDRESSES) }];
  if (r.int(4) === 0) ucs.push({ type: 1, returnAddress: r.pick(ADDRESSES), amount: amount / 3n });
  if (r.int(4) === 0) ucs.push({ type: 2, unixTime: T - 1 + r.int(3) });
  if (r.int(3) === 0) ucs.push({ type: 3, returnAddress: r.pick(ADDRESSES), unixTime: T - 1 + r.int(3) });
  return { type: 3, amount, nativeTokens: [], unlockConditions: ucs, features: [] };
}

/** inx-chronicle 1.0's balance over every unspent output (outputs/mod.rs get_address_balance). */
function chronicleBalance(outputs: Iterable<CommonOutput>, address: Uint8Array, at: number) {
  let total = 0n;
  let available = 0n;
  const same = (a: Address | undefined): boolean => a !== undefined && toHex(encodeAddress(a)) === toHex(address);
  for (const o of outputs) {
    const uc = (t: number) => o.unlockConditions.find((u) => u.type === t) as Record<string, never> | undefined;
    const owner = (uc(o.type === 4 ? 4 : o.type === 5 ? 6 : 0) as { address: Address } | undefined)?.address;
    const amount = o.amount - ((uc(1) as { amount?: bigint } | undefined)?.amount ?? 0n);
    const exp = uc(3) as { returnAddress: Address; unixTime: number } | undefined;
    const tl = uc(2) as { unixTime: number } | undefined;
    if (same(owner)) {
      if (exp === undefined || exp.unixTime > at) {
        total += amount;
        if (tl === undefined || tl.unixTime <= at) available += amount;
      }
    } else if (exp !== undefined && same(exp.returnAddress) && exp.unixTime <= at) {
      total += amount;
      available += amount;
    }
  }
  return { total, available };
}

function ownerKey(o: CommonOutput): string {
  const t = o.type === 4 ? 4 : o.type === 5 ? 6 : 0;
  return toHex(encodeAddress((o.unlockConditions.find((u) => u.type === t) as { address: Address }).address));
}

describe('history: balances and aggregates against a model', () => {
  for (const seed of [1, 2, 3]) {
    it(`random books and spends (seed ${seed}): aggregates, verifyHistory and balances agree`, async () => {
      const r = rng(seed);
      const store = await NodeStore.open(new MemoryKeyValueStore());
      // a ledger and a complete history, as initLedger leaves them (verifyHistory reads these)
      await store
        .batch()
        .putMeta(META.ledgerIndex, 1)
        .putMeta(HISTORY_META.start, 1)
        .putMeta(HISTORY_META.version, HISTORY_VERSION)
        .commit();
      const unspent = new Map<string, { outputId: Uint8Array; output: CommonOutput }>();
      let n = 0;
      for (let round = 0; round < 8; round++) {
        const booked = Array.from({ length: 1 + r.int(30) }, () => {
          n++;
          return {
            outputId: oid(`model ${seed}`, n % 128).map((b, j) => (j === 0 ? n >> 7 : b)),
            output: randomOutput(r, n),
          };
        });
        await bookStraight(store, booked);
        for (const b of booked) unspent.set(toHex(b.outputId), b);
        // spend a random part
        const spent = [...unspent.values()].filter(() => r.int(3) === 0);
        const batch = store.batch();
        const deltas = new BalanceDeltas();
        const records = spent.map((s) => ({ ...s, milestoneTimestampBooked: T }));
        for (const s of spent) {
          batch.del(LEDGER_TABLES.unspent, s.outputId);
          deltas.add(s.output, -1);
          unspent.delete(toHex(s.outputId));
        }
        indexLedgerChanges(batch, [], records);
        await applyBalanceDeltas(store, batch, deltas);
        await batch.commit();

        // the model's aggregates
        const sums = new Map<string, bigint>();
        for (const { output } of unspent.values())
          sums.set(ownerKey(output), (sums.get(ownerKey(output)) ?? 0n) + output.amount);
        const rich = [...sums].sort((a, b) => (a[1] === b[1] ? (a[0] < b[0] ? 1 : -1) : a[1] < b[1] ? 1 : -1));
        expect((await richestAddresses(store, 1000)).map((x) => [toHex(x.address), x.amount])).to.deep.equal(rich);
        expect((await richestAddresses(store, 2)).length).to.equal(Math.min(2, rich.length));
        const buckets = new Map<number, { addresses: bigint; total: bigint }>();
        for (const [, amount] of sums) {
          const b = buckets.get(magnitudeOf(amount)) ?? { addresses: 0n, total: 0n };
          buckets.set(magnitudeOf(amount), { addresses: b.addresses + 1n, total: b.total + amount });
        }
        const wanted = [...buckets].sort((a, b) => a[0] - b[0]).map(([magnitude, b]) => ({ magnitude, ...b }));
        expect(await tokenDistribution(store)).to.deep.equal(wanted);
        expect((await verifyHistory(store)).differences).to.deep.equal([]);
        for (const a of ADDRESSES)
          for (const at of [T - 2, T - 1, T, T + 1, T + 2]) {
            const key = encodeAddress(a);
            const all = [...unspent.values()].map((u) => u.output);
            expect(await addressBalance(store, key, at), `${toHex(key)} at ${at}`).to.deep.equal(
              chronicleBalance(all, key, at),
            );
          }
      }
    });
  }

  it('magnitudes: 10^m <= balance < 10^(m+1), exactly', () => {
    expect([1n, 9n, 10n, 999_999n, 1_000_000n, 18_446_744_073_709_551_615n].map(magnitudeOf)).to.deep.equal([
      0, 0, 1, 5, 6, 19,
    ]);
    expect(() => magnitudeOf(0n)).to.throw(RangeError);
  });
});
