/**
 * Semantic validation of a Stardust transaction (TIP-20 with TIP-18/TIP-19; docs/protocol.md §16), after the
 * White-Flag walker resolved every input to an unspent output. Steps run in iota.go's order, which decides the reported
 * conflict: timelocks (6) → inputs commitment (10) → unlocks (5, 9; 12 for an impossible alias state index) →
 * senders (11) → base tokens and storage deposit returns (4, 8) → native tokens (7) → chain transitions (12).
 * Precondition: the transaction is syntactically valid (docs/protocol.md §14) and `inputs` are its consumed outputs,
 * in input order.
 */
import type { TransactionPayload } from '../model/payload.ts';
import { checkInputsCommitment } from './semantic/commitment.ts';
import { checkDeposit } from './semantic/deposit.ts';
import { checkNativeTokens } from './semantic/native-tokens.ts';
import { APPLIES, type StepResult } from './semantic/result.ts';
import { checkSenders } from './semantic/sender.ts';
import { checkTimelocks } from './semantic/timelock.ts';
import { checkChainTransitions } from './semantic/transitions.ts';
import type { SemanticContext, SemanticInput, SemanticResult } from './semantic/types.ts';
import { checkUnlocks } from './semantic/unlocks.ts';
import { buildWorkingSet, type WorkingSet } from './semantic/working-set.ts';

export type { SemanticContext, SemanticInput, SemanticResult } from './semantic/types.ts';

const STEPS: ReadonlyArray<(ws: WorkingSet) => StepResult> = [
  checkTimelocks,
  checkInputsCommitment,
  checkUnlocks,
  checkSenders,
  checkDeposit,
  checkNativeTokens,
  checkChainTransitions,
];

/**
 * Returns `{ reason: 0 }` when the transaction applies, otherwise the conflict reason and a message naming the
 * input/output and the rule. Throws RangeError when `inputs` do not match the essence's inputs (a caller mistake).
 */
export function validateTransactionSemantics(
  tx: TransactionPayload,
  inputs: SemanticInput[],
  ctx: SemanticContext,
): SemanticResult {
  const ws = buildWorkingSet(tx, inputs, ctx);
  for (const step of STEPS) {
    const failure = step(ws);
    if (failure) return failure;
  }
  return APPLIES;
}
