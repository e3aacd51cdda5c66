/** Syntactic validation (spec §14) and the storage deposit (spec §15). */
export { validateBlockSyntax, type SyntaxContext } from './syntactic.ts';
export { minStorageDeposit, minStorageDepositReturn } from './storage-deposit.ts';
export { checkOutputShape } from './shape.ts';
export { foundryId } from './transaction.ts';
