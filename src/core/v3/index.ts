/**
 * IOTA 2.0 (protocol version 3, iota-core) core: model, byte-exact codec, JSON as iota-core emits it, identifiers,
 * work score, Mana (TIP-39), storage score and block signature verification. Runtime-neutral (Node and Deno).
 *
 * Typical use:
 *   const block = decodeBlockV3(bytes, params);          // strict, canonical; checks version + network
 *   const id = blockIdV3(bytes, params);                 // 36 bytes: hash ‖ slot
 *   const ok = verifyBlockSignatureV3(bytes, issuerKeys); // keys of the issuer account's Block Issuer Feature
 *   const json = blockToJsonV3(block);                    // what /api/core/v3/blocks/{id} serves
 */
export * from './model/index.ts';
export * from './codec/index.ts';
export * from './block.ts';
export * from './json/index.ts';
export { networkIdFromName } from './ids/network-id.ts';
export * from './ids/slot.ts';
export * from './ids/merkle.ts';
export * from './ids/block-id.ts';
export * from './ids/transaction-id.ts';
export * from './ids/commitment.ts';
export * from './commitment/roots.ts';
export * from './commitment/build.ts';
export * from './ids/output-id-proof.ts';
export * from './signature.ts';
export * from './workscore.ts';
export * from './storage-score.ts';
export * from './timing.ts';
export * from './mana/decay.ts';
export * from './transaction-rules.ts';
