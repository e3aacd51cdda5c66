/**
 * Conflict reasons of a transaction in a milestone's White-Flag cone (TIP-19 / TIP-20 codes, §16).
 * 0 means the transaction applies; every other value names why it was ignored.
 */
export const CONFLICT = {
  none: 0,
  inputAlreadySpent: 1,
  inputSpentInThisMilestone: 2,
  inputNotFound: 3,
  amountMismatch: 4,
  invalidSignature: 5,
  timelockNotExpired: 6,
  invalidNativeTokens: 7,
  returnAmountNotFulfilled: 8,
  invalidInputUnlock: 9,
  invalidInputsCommitment: 10,
  senderNotUnlocked: 11,
  invalidChainStateTransition: 12,
  semanticValidationFailed: 255,
} as const;

export type ConflictReason = (typeof CONFLICT)[keyof typeof CONFLICT];
