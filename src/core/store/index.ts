/** The storage port: the key-value interface, the typed node store over it, and the in-memory adapter. */
export * from './kv.ts';
export * from './adapter.ts';
export * from './errors.ts';
export * from './range.ts';
export * from './codec.ts';
export * from './table.ts';
export * from './prefixes.ts';
export * from './tables.ts';
export * from './meta.ts';
export * from './block-metadata.ts';
export * from './milestone-record.ts';
export * from './store-batch.ts';
export * from './node-store.ts';
export * from './memory.ts';
export * from './write-through.ts';
