export * from './codes.ts';
export type * from './address.ts';
export type * from './output.ts';
export type * from './transaction.ts';
export type * from './block.ts';
export type * from './params.ts';
