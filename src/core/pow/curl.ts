/**
 * Curl-P-81 (docs/protocol.md §13.3), the plain scalar form: the readable reference and the oracle of the fast paths.
 * State 729 trits; absorbing one 243-trit block copies it into state[0..243) and runs the transform;
 * the hash is state[0..243) afterwards.
 */
export const HASH_TRITS = 243;
export const STATE_TRITS = 729;
export const ROUNDS = 81;

const TRUTH_TABLE = [1, 0, -1, 2, 1, -1, 0, 2, -1, 1, 0];

/** The 81-round transform, in place. */
export function curlTransform(state: Int8Array): void {
  const copy = new Int8Array(STATE_TRITS);
  for (let round = 0; round < ROUNDS; round++) {
    copy.set(state);
    let p = 0;
    for (let i = 0; i < STATE_TRITS; i++) {
      const a = copy[p]!;
      p = p < 365 ? p + 364 : p - 365;
      const b = copy[p]!;
      state[i] = TRUTH_TABLE[a + 4 * b + 5]!;
    }
  }
}

/** Curl-P-81 of exactly one 243-trit block. */
export function curlP81(block: Int8Array): Int8Array {
  if (block.length !== HASH_TRITS)
    throw new RangeError(`Cannot hash with Curl-P-81: block has ${block.length} trits, expected 243`);
  const state = new Int8Array(STATE_TRITS);
  state.set(block);
  curlTransform(state);
  return state.slice(0, HASH_TRITS);
}
