/** Proof of work (TIP-12 / TIP-24, docs/protocol.md §13): scoring, Curl-P-81, b1t6 and the nonce search. */
export { b1t6Encode, b1t6EncodeInto, byteToTrits } from './b1t6.ts';
export { curlP81, curlTransform, HASH_TRITS, STATE_TRITS, ROUNDS } from './curl.ts';
export { tritsToTrytes, trytesToTrits } from './trytes.ts';
export {
  powDigest,
  powCurlInput,
  powHash,
  powScore,
  powZeros,
  scoreFor,
  targetZeros,
  trailingZeros,
  nonceToBytes,
  NONCE_BYTES,
  DIGEST_BYTES,
  MAX_NONCE,
} from './score.ts';
export { createScalarSearcher, type NonceSearcher, type NonceSearchResult } from './search.ts';
export { createBitslicedSearcher, type LaneKernel } from './bitsliced-search.ts';
export { createJsKernel } from './js-kernel.ts';
export { createWasmKernel } from './wasm-kernel.ts';
export { createSearcher, createFastestSearcher, type SearcherKind } from './searchers.ts';
