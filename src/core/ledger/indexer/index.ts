/**
 * The TIP-26 indexer over the unspent outputs: tables, index writes, queries, chain lookups, build and check
 * (docs/indexer.md).
 */
export * from './tables.ts';
export * from './facts.ts';
export * from './writes.ts';
export * from './params.ts';
export * from './filters.ts';
export * from './query.ts';
export * from './chain.ts';
export * from './build.ts';
export * from './verify.ts';
