/**
 * The UTXO ledger: state tables, genesis, milestone checks and White-Flag confirmation (docs/protocol.md §16, §17).
 */
export * from './conflict.ts';
export {
  validateTransactionSemantics,
  type SemanticContext,
  type SemanticInput,
  type SemanticResult,
} from './semantic.ts';
export * from './tables.ts';
export * from './output-record.ts';
export * from './milestone-diff.ts';
export * from './treasury-record.ts';
export * from './receipt-record.ts';
export * from './ledger-meta.ts';
export * from './ledger-state.ts';
export * from './genesis.ts';
export * from './cone.ts';
export * from './block-source.ts';
export * from './white-flag.ts';
export * from './milestone-checks.ts';
export * from './receipt.ts';
export * from './confirm.ts';
export * from './dry-run.ts';
export * from './indexer/index.ts';
export * from './history/index.ts';
