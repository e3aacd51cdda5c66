/**
 * The UTXO changes of a committed slot (TIP-48 `/commitments/{id}/utxo-changes`, docs/decisions.md §39), written in
 * the commitment's store batch (commitments.ts `commitSlot`): the outputs created and consumed by the transactions
 * the slot's commitment covers, i.e. the ones its state mutation root names (ledger.ts `takeMutations`), as iota-core's
 * slot diff holds the outputs and spents of the transactions its slot's state diff executed. Each transaction adds
 * all its outputs to `created` and all its inputs to `consumed`; the lists are sorted by output ID (iota-core stores
 * its diffs so), and an output both created and consumed by transactions of the slot is in both (iota-core's
 * "uncompacted" diff).
 *
 * The record holds each output's bytes, not only its ID: the ledger deletes a spent output when pruning deletes the
 * spending transaction's included block, and that block's slot can be before the slot whose commitment covers the
 * transaction (a late confirmation, docs/decisions.md §36), so the `/full` answer of a kept slot could otherwise lose
 * outputs. Slots without changes store an empty value (tables.ts).
 */
import { fromHex0x, toHex0x } from '../../core/bytes.ts';
import type { NodeStore } from '../../core/store/index.ts';
import {
  decodeBlockV3,
  encodeOutputV3,
  outputIdV3,
  type ProtocolParametersV3,
  type SignedTransactionPayloadV3,
} from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import type { V3Ledger } from './ledger.ts';
import { key } from './network.ts';
import type { UtxoChangesRecord } from './tables.ts';

const byId = (a: [string, string], b: [string, string]): number => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The changes of the covered transactions `txIds` (applied, so each has its included block and its inputs are in the
 * ledger, spent by it). Reads the included blocks from the store.
 */
export async function utxoChangesV3(
  txIds: readonly Uint8Array[],
  ledger: V3Ledger,
  store: NodeStore,
  params: ProtocolParametersV3,
): Promise<UtxoChangesRecord> {
  const out: UtxoChangesRecord = { created: [], consumed: [] };
  for (const txId of txIds) {
    const blockId = ledger.transaction(key(txId))?.includedBlockId;
    const raw = blockId === undefined ? undefined : await store.getBlock(fromHex0x(blockId));
    if (raw === undefined)
      throw new NodeError('INTERNAL', `the included block of covered v3 transaction ${key(txId)} is not stored`);
    const tx = (decodeBlockV3(raw, params).body as { payload: SignedTransactionPayloadV3 }).payload.transaction;
    for (const input of tx.inputs) {
      const oid = outputIdV3(input.transactionId, input.transactionOutputIndex);
      const o = ledger.output(oid);
      if (o === undefined)
        throw new NodeError(
          'INTERNAL',
          `input ${key(oid)} of covered v3 transaction ${key(txId)} is not in the ledger`,
        );
      out.consumed.push([toHex0x(oid), toHex0x(encodeOutputV3(o.output))]);
    }
    for (const [i, o] of tx.outputs.entries())
      out.created.push([toHex0x(outputIdV3(txId, i)), toHex0x(encodeOutputV3(o))]);
  }
  out.created.sort(byId);
  out.consumed.sort(byId);
  return out;
}
