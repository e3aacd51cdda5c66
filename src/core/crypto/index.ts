export * from './blake2b.ts';
export * from './ed25519.ts';
