/**
 * PoW score (TIP-12 as used by TIP-24, docs/protocol.md §13.1):
 * score = 3^z / n with z the trailing zero trits of
 * CurlP81( b1t6(BLAKE2b-256(block without nonce)) ‖ b1t6(nonce, 8 bytes LE) ‖ [0,0,0] ),
 * n = block length with nonce.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { reject } from '../errors.ts';
import { b1t6EncodeInto } from './b1t6.ts';
import { curlP81, HASH_TRITS } from './curl.ts';

export const NONCE_BYTES = 8;
export const DIGEST_BYTES = 32;
/** The largest nonce (u64). */
export const MAX_NONCE = (1n << 64n) - 1n;

/** BLAKE2b-256 of the block bytes without the nonce. */
export function powDigest(blockWithoutNonce: Uint8Array): Uint8Array {
  return blake2b(blockWithoutNonce, { dkLen: DIGEST_BYTES });
}

/** The nonce as 8 little-endian bytes. */
export function nonceToBytes(nonce: bigint): Uint8Array {
  if (nonce < 0n || nonce > MAX_NONCE) throw new RangeError(`Cannot encode nonce: ${nonce} is not a u64`);
  const out = new Uint8Array(NONCE_BYTES);
  let v = nonce;
  for (let i = 0; i < NONCE_BYTES; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The 243-trit Curl input for a digest and a nonce. */
export function powCurlInput(digest: Uint8Array, nonce: bigint): Int8Array {
  if (digest.length !== DIGEST_BYTES)
    throw new RangeError(`Cannot build PoW input: digest has ${digest.length} bytes, expected 32`);
  const trits = new Int8Array(HASH_TRITS);
  b1t6EncodeInto(digest, trits, 0);
  b1t6EncodeInto(nonceToBytes(nonce), trits, 6 * DIGEST_BYTES);
  return trits;
}

/** The PoW hash (243 trits) for a digest and a nonce, with the scalar reference Curl. */
export function powHash(digest: Uint8Array, nonce: bigint): Int8Array {
  return curlP81(powCurlInput(digest, nonce));
}

/** Number of trailing zero trits (from the last trit downwards). */
export function trailingZeros(trits: ArrayLike<number>): number {
  let z = 0;
  for (let i = trits.length - 1; i >= 0 && trits[i] === 0; i--) z++;
  return z;
}

/** Score for `z` trailing zeros of a block of `length` bytes (nonce included). */
export function scoreFor(zeros: number, length: number): number {
  return 3 ** zeros / length;
}

/** Trailing zeros of the PoW hash of a serialized block (its last 8 bytes are the nonce). */
export function powZeros(block: Uint8Array): number {
  if (block.length < NONCE_BYTES) {
    reject('TRUNCATED', `Cannot compute PoW score: block has ${block.length} bytes, needs at least 8 for the nonce`, {
      field: 'nonce',
      offset: block.length,
      value: String(block.length),
    });
  }
  const split = block.length - NONCE_BYTES;
  let nonce = 0n;
  for (let i = NONCE_BYTES - 1; i >= 0; i--) nonce = (nonce << 8n) | BigInt(block[split + i]!);
  return trailingZeros(powHash(powDigest(block.subarray(0, split)), nonce));
}

/** PoW score of a serialized block (nonce = its last 8 bytes). */
export function powScore(block: Uint8Array): number {
  return scoreFor(powZeros(block), block.length);
}

/**
 * Trailing zeros a block of `length` bytes (nonce included) needs to reach `targetScore`:
 * the smallest z with 3^z / length >= targetScore, computed with the same doubles as `powScore`, so a mined
 * block always passes the check. Equals ceil(ln(length · score) / ln 3) except at exact powers of 3.
 * A target score of 0 or less needs no zeros.
 */
export function targetZeros(length: number, targetScore: number): number {
  if (!Number.isInteger(length) || length < NONCE_BYTES)
    throw new RangeError(`Cannot compute target zeros: length ${length} is not a block length`);
  if (!(targetScore >= 0) || !Number.isFinite(targetScore))
    throw new RangeError(`Cannot compute target zeros: score ${targetScore} is not a finite number >= 0`);
  let z = 0;
  while (scoreFor(z, length) < targetScore) z++;
  if (z > HASH_TRITS)
    throw new RangeError(`Cannot compute target zeros: score ${targetScore} needs more than 243 zeros`);
  return z;
}
