/**
 * The ledger at an earlier milestone index, from the ledger now and the milestone diffs above that index (Hornet rolls
 * a copy of the ledger back the same way to write a snapshot below its confirmed milestone): an output is unspent at
 * index I when it is unspent now and was not created above I, or was consumed above I without being created there.
 * Every record this needs is kept by pruning (outputs spent above the pruning index, diffs above it).
 */
import { compareBytes, toHex } from '../bytes.ts';
import { reject } from '../errors.ts';
import type { TreasuryState } from '../ledger/treasury-record.ts';
import type { LedgerState } from '../ledger/ledger-state.ts';

export interface LedgerRollback {
  /** The index rolled back to. */
  index: number;
  /** The ledger index it was rolled back from. */
  ledgerIndex: number;
  /** Outputs created above `index` (ID hex). */
  createdAfter: ReadonlySet<string>;
  /** Outputs unspent at `index` and consumed since, sorted. */
  restored: Uint8Array[];
  /** The unspent treasury output at `index`. */
  treasury: TreasuryState | undefined;
}

/** What to change in the unspent outputs now to get those of `index`; reads the ledger as it is (hold it still). */
export async function ledgerRollback(ledger: LedgerState, index: number): Promise<LedgerRollback> {
  const ledgerIndex = await ledger.ledgerIndex();
  if (ledgerIndex === undefined)
    return reject('MISSING_FIELD', `Cannot roll the ledger back to milestone ${index}: the store holds no ledger`, {
      field: 'ledgerIndex',
    });
  if (index > ledgerIndex)
    return reject('VALUE_OUT_OF_RANGE', `Cannot roll the ledger back to milestone ${index}: it is at ${ledgerIndex}`, {
      field: 'index',
      value: String(index),
    });
  const createdAfter = new Set<string>();
  const consumed = new Map<string, Uint8Array>();
  let treasury = await ledger.treasury();
  for (let m = ledgerIndex; m > index; m--) {
    const diff = await ledger.milestoneDiff(m);
    if (diff === undefined)
      return reject(
        'MISSING_FIELD',
        `Cannot roll the ledger back to milestone ${index}: the diff of milestone ${m} is not stored`,
        { field: 'milestoneDiffs', value: String(m) },
      );
    for (const id of diff.created) createdAfter.add(toHex(id));
    for (const id of diff.consumed) consumed.set(toHex(id), id);
    if (diff.treasury) treasury = { ...diff.treasury.spent };
  }
  const restored = [...consumed]
    .filter(([k]) => !createdAfter.has(k))
    .map(([, id]) => id)
    .sort(compareBytes);
  return { index, ledgerIndex, createdAfter, restored, treasury };
}

/** The unspent output IDs at the rollback's index in ID order, given the unspent output IDs now in ID order. */
export async function* unspentOutputIdsAt(
  rollback: LedgerRollback,
  now: AsyncIterable<Uint8Array>,
): AsyncIterableIterator<Uint8Array> {
  const restored = rollback.restored;
  let r = 0;
  for await (const id of now) {
    if (rollback.createdAfter.has(toHex(id))) continue;
    while (r < restored.length && compareBytes(restored[r]!, id) < 0) yield restored[r++]!;
    yield id;
  }
  while (r < restored.length) yield restored[r++]!;
}
