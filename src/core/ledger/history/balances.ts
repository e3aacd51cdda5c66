/**
 * The aggregates of the ledger now, kept up to date in the batch that changes the ledger: per address its balance
 * record (tables.ts AddressBalance), the addresses ordered by balance (the richest addresses are the last keys of that
 * table) and the token distribution by magnitude (addresses and tokens per number of digits of the balance: inx-
 * chronicle's `log10` buckets). A change collects the deltas of the outputs it books and spends (`BalanceDeltas`),
 * then `applyBalanceDeltas` reads the records of the addresses it touches (one multi-get) and writes the new ones,
 * so reads never scan the ledger. An address is in the order and the distribution while its balance is above 0.
 */
import { equalBytes, toHex } from '../../bytes.ts';
import type { CommonOutput } from '../../model/output.ts';
import type { NodeStore } from '../../store/node-store.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import { BytesMap } from './keys.ts';
import { holdingOf, isSpecial, type Holding } from './owner.ts';
import { AGGREGATE_TABLES, type AddressBalance, type DistributionBucket } from './tables.ts';

const ZERO: AddressBalance = Object.freeze({ amount: 0n, outputs: 0, special: 0, returns: 0 });

/** The magnitude bucket of a balance above 0: its number of decimal digits minus one (10^m <= balance < 10^(m+1)). */
export function magnitudeOf(balance: bigint): number {
  if (balance <= 0n) throw new RangeError(`magnitude of a balance that is not above 0: ${balance}`);
  return balance.toString().length - 1;
}

interface Delta {
  address: Uint8Array;
  amount: bigint;
  outputs: number;
  special: number;
  returns: number;
}

/** The changes of one ledger change to the balance records, by address. */
export class BalanceDeltas {
  private readonly byAddress = new BytesMap<Delta>();

  get size(): number {
    return this.byAddress.size;
  }

  private of(address: Uint8Array): Delta {
    return this.byAddress.getOrAdd(address, () => ({ address, amount: 0n, outputs: 0, special: 0, returns: 0 }));
  }

  /** An output booked (`sign` 1) or spent (-1). */
  add(output: CommonOutput, sign: 1 | -1): void {
    this.addHolding(holdingOf(output), sign);
  }

  /** The same, for an output whose holding the caller has already read. */
  addHolding(h: Holding, sign: 1 | -1): void {
    const d = this.of(h.owner);
    d.amount += sign === 1 ? h.amount : -h.amount;
    d.outputs += sign;
    if (isSpecial(h)) d.special += sign;
    const r = h.expiration?.returnAddress;
    if (r !== undefined && !equalBytes(r, h.owner)) this.of(r).returns += sign;
  }

  entries(): Delta[] {
    return [...this.byAddress.values()];
  }
}

function applied(old: AddressBalance, d: Delta): AddressBalance {
  const next = {
    amount: old.amount + d.amount,
    outputs: old.outputs + d.outputs,
    special: old.special + d.special,
    returns: old.returns + d.returns,
  };
  if (next.amount < 0n || next.outputs < 0 || next.special < 0 || next.returns < 0)
    throw new Error(
      `the balance record of address 0x${toHex(d.address)} would go below zero ` +
        `(${old.amount} + ${d.amount}, ${old.outputs} + ${d.outputs} outputs): the aggregates do not match the ledger`,
    );
  return next;
}

const isEmpty = (b: AddressBalance): boolean => b.outputs === 0 && b.returns === 0 && b.amount === 0n;

/** Adds the writes of `deltas` to `batch`: balance records, the order by balance and the distribution buckets. */
export async function applyBalanceDeltas(store: NodeStore, batch: StoreBatch, deltas: BalanceDeltas): Promise<void> {
  const list = deltas.entries();
  if (list.length === 0) return;
  const olds = await store.getMany(
    AGGREGATE_TABLES.balances,
    list.map((d) => d.address),
  );
  const buckets = new Map<number, { addresses: bigint; total: bigint }>();
  const bucket = (m: number): { addresses: bigint; total: bigint } => {
    let b = buckets.get(m);
    if (b === undefined) {
      b = { addresses: 0n, total: 0n };
      buckets.set(m, b);
    }
    return b;
  };
  list.forEach((d, i) => {
    const old = olds[i] ?? ZERO;
    const next = applied(old, d);
    if (isEmpty(next)) batch.del(AGGREGATE_TABLES.balances, d.address);
    else batch.put(AGGREGATE_TABLES.balances, d.address, next);
    if (next.amount === old.amount) return;
    if (old.amount > 0n) {
      batch.del(AGGREGATE_TABLES.richest, { amount: old.amount, address: d.address });
      const b = bucket(magnitudeOf(old.amount));
      b.addresses -= 1n;
      b.total -= old.amount;
    }
    if (next.amount > 0n) {
      batch.put(AGGREGATE_TABLES.richest, { amount: next.amount, address: d.address }, null);
      const b = bucket(magnitudeOf(next.amount));
      b.addresses += 1n;
      b.total += next.amount;
    }
  });
  const magnitudes = [...buckets.keys()];
  const stored = await store.getMany(AGGREGATE_TABLES.distribution, magnitudes);
  magnitudes.forEach((m, i) => {
    const old: DistributionBucket = stored[i] ?? { addresses: 0n, total: 0n };
    const d = buckets.get(m)!;
    const next = { addresses: old.addresses + d.addresses, total: old.total + d.total };
    if (next.addresses < 0n || next.total < 0n)
      throw new Error(`distribution bucket ${m} would go below zero: the aggregates do not match the ledger`);
    if (next.addresses === 0n) batch.del(AGGREGATE_TABLES.distribution, m);
    else batch.put(AGGREGATE_TABLES.distribution, m, next);
  });
}
