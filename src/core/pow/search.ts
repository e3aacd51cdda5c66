/**
 * Nonce search (docs/protocol.md §13.5): the smallest nonce in [start, start + count) whose PoW hash for `digest` has
 * at least `targetZeros` trailing zero trits. Pure and bounded: it searches its range and returns, so a caller can
 * check a cancellation flag between calls and give disjoint ranges to several workers.
 */
import { DIGEST_BYTES, MAX_NONCE, powHash, trailingZeros } from './score.ts';

export interface NonceSearchResult {
  /** The smallest nonce in the range that reaches the target, or null when none does. */
  nonce: bigint | null;
  /** Hashes evaluated (all lanes of every transform run, so a multiple of `lanes`). */
  hashes: number;
}

export interface NonceSearcher {
  /** `scalar`, `js-bitsliced-32` or `wasm-simd-128`. */
  readonly name: string;
  /** Nonces per Curl transform. */
  readonly lanes: number;
  search(digest: Uint8Array, targetZeros: number, start: bigint, count: number): NonceSearchResult;
}

/** Checks the arguments every searcher shares; returns the exclusive end of the range. */
export function checkSearchArgs(digest: Uint8Array, targetZeros: number, start: bigint, count: number): bigint {
  if (!(digest instanceof Uint8Array) || digest.length !== DIGEST_BYTES) {
    throw new RangeError(`Cannot search nonce: digest must be 32 bytes, got ${digest?.length}`);
  }
  if (!Number.isInteger(targetZeros) || targetZeros < 0 || targetZeros > 243) {
    throw new RangeError(`Cannot search nonce: targetZeros ${targetZeros} is not in 0..243`);
  }
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`Cannot search nonce: count ${count} is not a safe integer >= 0`);
  const end = start + BigInt(count);
  if (start < 0n || end > MAX_NONCE + 1n)
    throw new RangeError(`Cannot search nonce: range [${start}, ${end}) leaves u64`);
  return end;
}

/** The reference searcher: one scalar Curl per nonce. Slow; the oracle of the fast ones. */
export function createScalarSearcher(): NonceSearcher {
  return {
    name: 'scalar',
    lanes: 1,
    search(digest, target, start, count) {
      const end = checkSearchArgs(digest, target, start, count);
      let hashes = 0;
      for (let n = start; n < end; n++) {
        hashes++;
        if (trailingZeros(powHash(digest, n)) >= target) return { nonce: n, hashes };
      }
      return { nonce: null, hashes };
    },
  };
}
