/**
 * The history for explorers (docs/explorer.md): ledger updates by address and by milestone, milestones, their
 * blocks, children, and the aggregates (balances, richest addresses, token distribution); writes, queries, build,
 * retention and check.
 */
export * from './tables.ts';
export * from './owner.ts';
export * from './balances.ts';
export * from './writes.ts';
export * from './params.ts';
export * from './query.ts';
export * from './pages.ts';
export * from './balance.ts';
export * from './build.ts';
export * from './prune.ts';
export * from './verify.ts';
