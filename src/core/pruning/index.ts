/**
 * Pruning (docs/decisions.md §27): solid entry points, the blocks and ledger records below a pruning index, rollback.
 */
export * from './blocks.ts';
export * from './ledger.ts';
export * from './rollback.ts';
export * from './run.ts';
export * from './seps.ts';
