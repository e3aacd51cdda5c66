/**
 * The v2 included-block lookup: transaction ID -> the block whose attachment of it the ledger applied.
 *
 * Choice: the `includedBlock` table, written by confirmMilestone only for blocks whose transaction was applied
 * (`included`), never for a conflicting re-attachment (whose inputs are by then spent, so it can never apply).
 * Hornet instead reads the creating block ID of output (txId, 0); that works only while that output record exists and
 * costs an output decode per lookup, whereas the table is a direct key read that survives pruning of outputs.
 */
import type { NodeStore } from '../store/node-store.ts';

export function includedBlockId(store: NodeStore, transactionId: Uint8Array): Promise<Uint8Array | undefined> {
  return store.includedBlock(transactionId);
}
