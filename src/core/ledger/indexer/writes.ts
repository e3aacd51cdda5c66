/**
 * The index writes of a ledger change, added to the caller's StoreBatch so they commit with the ledger (confirm.ts
 * for a milestone, genesis.ts for the genesis or snapshot outputs). As inx-indexer's `UpdatedLedger`
 * (pkg/indexer/indexer.go): consumed outputs lose their entries first, then created outputs get theirs; an output
 * created and consumed by the same change is never indexed.
 */
import { toHex } from '../../bytes.ts';
import type { CommonOutput } from '../../model/output.ts';
import type { StoreBatch } from '../../store/store-batch.ts';
import { outputFacts, unlockAddresses } from './facts.ts';
import {
  addressEntryValue,
  FLAG,
  INDEXER_TABLES,
  positionOf,
  type AddressIndexKey,
  type ChainIndexKey,
  type TypeIndexKey,
} from './tables.ts';

/** An output with what the index needs of its booking. */
export interface IndexableOutput {
  outputId: Uint8Array;
  milestoneTimestampBooked: number;
  output: CommonOutput;
}

/** Every index entry of one unspent output. */
export interface OutputIndexEntries {
  byType: TypeIndexKey;
  byAddress: (readonly [AddressIndexKey, number])[];
  byChainId?: readonly [ChainIndexKey, Uint8Array];
}

export function indexEntriesOf(o: IndexableOutput): OutputIndexEntries {
  const facts = outputFacts(o.outputId, o.output);
  const position = positionOf(o.milestoneTimestampBooked, o.outputId);
  const outputType = facts.outputType;
  const flags =
    (facts.nativeTokenCount > 0 ? FLAG.nativeTokens : 0) |
    (facts.storageDepositReturnAddress !== undefined ? FLAG.storageDepositReturn : 0) |
    (facts.expirationTime !== undefined ? FLAG.expiration : 0) |
    (facts.timelockTime !== undefined ? FLAG.timelock : 0);
  const entries: OutputIndexEntries = {
    byType: { outputType, position },
    byAddress: unlockAddresses(facts).map(
      (u) => [{ address: u.address, outputType, position }, addressEntryValue(u.roles, flags)] as const,
    ),
  };
  if (facts.chainId !== undefined && outputType !== 3)
    entries.byChainId = [{ outputType, chainId: facts.chainId }, o.outputId.slice()] as const;
  return entries;
}

export function putOutputIndex(batch: StoreBatch, o: IndexableOutput): void {
  const e = indexEntriesOf(o);
  batch.put(INDEXER_TABLES.byType, e.byType, null);
  for (const [key, value] of e.byAddress) batch.put(INDEXER_TABLES.byAddress, key, value);
  if (e.byChainId !== undefined) batch.put(INDEXER_TABLES.byChainId, e.byChainId[0], e.byChainId[1]);
}

export function deleteOutputIndex(batch: StoreBatch, o: IndexableOutput): void {
  const e = indexEntriesOf(o);
  batch.del(INDEXER_TABLES.byType, e.byType);
  for (const [key] of e.byAddress) batch.del(INDEXER_TABLES.byAddress, key);
  if (e.byChainId !== undefined) batch.del(INDEXER_TABLES.byChainId, e.byChainId[0]);
}

/**
 * Adds the index writes of one ledger change to `batch`: deletes for `consumed` outputs, then puts for `created`
 * ones (a chain that moves within the change ends at its new output), skipping outputs that are in both.
 */
export function indexLedgerChanges(
  batch: StoreBatch,
  created: readonly IndexableOutput[],
  consumed: readonly IndexableOutput[],
): void {
  const createdIds = new Set(created.map((o) => toHex(o.outputId)));
  const consumedIds = new Set(consumed.map((o) => toHex(o.outputId)));
  for (const o of consumed) if (!createdIds.has(toHex(o.outputId))) deleteOutputIndex(batch, o);
  for (const o of created) if (!consumedIds.has(toHex(o.outputId))) putOutputIndex(batch, o);
}
