/**
 * BLAKE2b-256 (RFC 7693: 32-byte digest, no key, no salt, no personalisation), the one hash of the Stardust protocol.
 *
 * A compact, allocation-free implementation on 32-bit halves: each 64-bit word is a (low, high) pair of int32 locals,
 * the 12 rounds run over 32 local variables (no state array traffic inside the compression function), and the message
 * block is read into one reused Uint32Array. Byte order is handled explicitly, so it is correct on any host.
 * Why not @noble/hashes (the decided library, still the test oracle): per call it builds a hasher object and per
 * compression round-trips the work vector through a shared array; on block-sized inputs this file is measurably
 * faster (benchmarks/codec/README.md: command, medians, ratio). Output is checked against noble on every length
 * 0..1000 and against known BLAKE2b-256 values (test/core/crypto/blake2b.test.ts).
 *
 * The compression function, with its IV and σ, is in blake2b-compress.ts.
 */
import { compress, H, IV } from './blake2b-compress.ts';

export const BLAKE2B_256_LENGTH = 32;

const BLOCK = 128;
/** Bytes of a partial (last) block waiting for more input or for padding. */
const PENDING = new Uint8Array(BLOCK);
let pendingLength = 0;
/** Bytes hashed so far (the counter t), excluding PENDING. Inputs stay far below 2^53. */
let counter = 0;

function reset(): void {
  H.set(IV);
  H[0] ^= 0x01010000 | BLAKE2B_256_LENGTH; // parameter block: digest length 32, key length 0, fanout 1, depth 1
  pendingLength = 0;
  counter = 0;
}

/**
 * Feeds `data`: whole blocks straight from the input (never the last one: it may need the final flag), the rest into
 * PENDING.
 */
function absorb(data: Uint8Array): void {
  const n = data.length;
  let i = 0;
  while (i < n) {
    if (pendingLength === BLOCK) {
      counter += BLOCK;
      compress(PENDING, 0, counter, false);
      pendingLength = 0;
    }
    if (pendingLength === 0 && n - i > BLOCK) {
      counter += BLOCK;
      compress(data, i, counter, false);
      i += BLOCK;
      continue;
    }
    const take = Math.min(BLOCK - pendingLength, n - i);
    for (let k = 0; k < take; k++) PENDING[pendingLength + k] = data[i + k]!;
    pendingLength += take;
    i += take;
  }
}

/** Pads and compresses the last block; returns the 32-byte digest (little-endian h[0..3]). */
function finish(): Uint8Array {
  PENDING.fill(0, pendingLength);
  compress(PENDING, 0, counter + pendingLength, true);
  const out = new Uint8Array(BLAKE2B_256_LENGTH);
  for (let i = 0; i < 8; i++) {
    const w = H[i]!;
    out[4 * i] = w;
    out[4 * i + 1] = w >>> 8;
    out[4 * i + 2] = w >>> 16;
    out[4 * i + 3] = w >>> 24;
  }
  return out;
}

/** BLAKE2b-256 of `data`. */
export function blake2b256(data: Uint8Array): Uint8Array {
  reset();
  absorb(data);
  return finish();
}

/** BLAKE2b-256 of the concatenation of `parts`, fed incrementally (no intermediate copy). */
export function blake2b256Parts(...parts: Uint8Array[]): Uint8Array {
  reset();
  for (const p of parts) absorb(p);
  return finish();
}
