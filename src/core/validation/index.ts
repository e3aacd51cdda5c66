/** Syntactic validation (docs/protocol.md §14) and the storage deposit (docs/protocol.md §15). */
export { validateBlockSyntax, type SyntaxContext } from './syntactic.ts';
export { minStorageDeposit, minStorageDepositReturn } from './storage-deposit.ts';
export { checkOutputShape } from './shape.ts';
export { foundryId } from './transaction.ts';
