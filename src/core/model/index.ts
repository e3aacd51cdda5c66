export * from './address.ts';
export * from './output.ts';
export * from './transaction.ts';
export * from './payload.ts';
export * from './block.ts';
export * from './protocol.ts';
export * from './limits.ts';
