/**
 * Why the v3 ledger fails a transaction, as iota.go numbers it (`TransactionFailureReason`, api/core.go;
 * docs/protocol.md §V7.12), with the node's message as `transactionFailureDetails`.
 *
 * A double spend's loser (docs/decisions.md §44), as iota-core judges it: while the winner is in iota-core's mempool,
 * i.e. until a slot commitment covers it, the loser joins the winner's conflict set and is rejected (1, conflict
 * rejected: `TxFailureConflictRejected` from the transaction retainer's `OnRejected`); once the winner is committed and
 * evicted from the mempool, the input reads as spent from the UTXO ledger (3, input already spent:
 * `ErrInputAlreadySpent` from the ledger's `resolveState`). A transaction that was pending beside the winner was a
 * conflict from the start, so it is 1 at its confirmation whenever that comes.
 */
import type { SignedTransactionPayloadV3 } from '../../core/v3/index.ts';
import { outputIdV3 } from '../../core/v3/index.ts';
import type { TransactionFailureCodeV3, TransactionFailureV3 } from '../../core/v3/ledger/semantic.ts';
import { key } from './network.ts';
import type { TransactionRecord } from './tables.ts';

/** iota.go `TransactionFailureReason` numbers (api/core.go) of the ledger's failures. */
export const TX_FAILURE_V3 = Object.freeze({
  conflictRejected: 1,
  orphaned: 2,
  inputAlreadySpent: 3,
  inputCreationAfterTxCreation: 4,
  unlockSignatureInvalid: 5,
  commitmentInputReferenceInvalid: 9,
  inputOutputBaseTokenMismatch: 14,
  inputOutputManaMismatch: 16,
  semanticValidationFailed: 255,
} as const);

const FAILURE_CODES: Record<TransactionFailureCodeV3, number> = {
  UNSUPPORTED: TX_FAILURE_V3.semanticValidationFailed,
  COMMITMENT_INPUT: TX_FAILURE_V3.commitmentInputReferenceInvalid,
  INPUT_CREATION_SLOT: TX_FAILURE_V3.inputCreationAfterTxCreation,
  UNLOCK_INVALID: TX_FAILURE_V3.unlockSignatureInvalid,
  BASE_TOKEN_MISMATCH: TX_FAILURE_V3.inputOutputBaseTokenMismatch,
  MANA_INSUFFICIENT: TX_FAILURE_V3.inputOutputManaMismatch,
  UNKNOWN_ACCOUNT: TX_FAILURE_V3.semanticValidationFailed,
};

/** Why a transaction cannot be applied: iota.go's reason number and the node's message. */
export interface LedgerFailure {
  code: number;
  message: string;
  /** The only fault is an input another transaction spent (a double spend's loser). */
  conflict?: boolean;
}

/** When the ledger judges a transaction: a block first carries it, or an attachment of it is confirmed. */
export type FailureMomentV3 = 'intake' | 'confirmation';

/** A failure of the semantic checks (core/v3/ledger/semantic.ts) with iota.go's number. */
export const ledgerFailureV3 = (f: TransactionFailureV3): LedgerFailure => ({
  code: FAILURE_CODES[f.code],
  message: `${f.code}: ${f.reason}`,
});

/** Whether a transaction record is one failed as orphaned (reason 2), which a later block may carry again. */
export function isOrphanedV3(r: TransactionRecord | undefined): boolean {
  return r?.state === 'failed' && r.failureCode === TX_FAILURE_V3.orphaned;
}

/**
 * Input `i` of `payload` is spent by the applied transaction `spender` (`committed`: a slot commitment covers it, in
 * slot `slot` when known): 3 at intake once the spender is committed, else 1 (see the file comment).
 */
export function conflictFailureV3(
  payload: SignedTransactionPayloadV3,
  i: number,
  spender: { txKey: string; committed: boolean; slot: number | undefined },
  when: FailureMomentV3,
): LedgerFailure {
  const input = payload.transaction.inputs[i]!;
  const oid = key(outputIdV3(input.transactionId, input.transactionOutputIndex));
  const spent = `input ${i} (${oid}) is already spent by transaction ${spender.txKey}`;
  if (when === 'intake' && spender.committed) {
    const where = spender.slot === undefined ? '' : ` in slot ${spender.slot}`;
    return {
      code: TX_FAILURE_V3.inputAlreadySpent,
      conflict: true,
      message: `${spent}, committed${where} (double spend: input already spent)`,
    };
  }
  return {
    code: TX_FAILURE_V3.conflictRejected,
    conflict: true,
    message: `${spent} (double spend: conflict rejected)`,
  };
}
