import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { fromHex, toHex, utf8Encode } from '../../../src/core/bytes.ts';
import { blake2b256, blake2b256Parts } from '../../../src/core/crypto/index.ts';

/** @noble/hashes stays the reference oracle for our own BLAKE2b-256. */
const oracle = (d: Uint8Array): string => toHex(blake2b(d, { dkLen: 32 }));

/** Deterministic xorshift32 bytes, so a failure names a reproducible input. */
function pseudoRandom(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x;
  }
  return out;
}

describe('crypto/blake2b', () => {
  it('hashes the empty string to the well-known BLAKE2b-256 value (= MTH([]) of TIP-4)', () => {
    expect(toHex(blake2b256(new Uint8Array(0)))).to.equal(
      '0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8',
    );
  });

  it('hashes "abc" to the RFC 7693-family reference value for a 32-byte digest', () => {
    // BLAKE2b-256("abc"), the standard test value for dkLen 32
    expect(toHex(blake2b256(utf8Encode('abc')))).to.equal(
      'bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319',
    );
  });

  it('multi-part hashing equals hashing the concatenation, whatever the split', () => {
    const data = fromHex('00'.repeat(3) + '0102030405060708090a0b0c0d0e0f' + 'ff'.repeat(200));
    const whole = toHex(blake2b256(data));
    for (const cut of [0, 1, 7, 64, 128, 129, data.length]) {
      expect(toHex(blake2b256Parts(data.subarray(0, cut), data.subarray(cut)))).to.equal(whole, `cut at ${cut}`);
    }
    expect(toHex(blake2b256Parts())).to.equal(toHex(blake2b256(new Uint8Array(0))));
    expect(toHex(blake2b256Parts(data.subarray(0, 5), new Uint8Array(0), data.subarray(5)))).to.equal(whole);
  });

  it('hashes "The quick brown fox jumps over the lazy dog" to the published BLAKE2b-256 value', () => {
    expect(toHex(blake2b256(utf8Encode('The quick brown fox jumps over the lazy dog')))).to.equal(
      '01718cec35cd3d796dd00020e0bfecb473ad23457d063b75eff29c0ffa2e58a9',
    );
  });

  it('equals @noble/hashes on pseudo-random inputs of every length 0..1000', () => {
    for (let n = 0; n <= 1000; n++) {
      const d = pseudoRandom(n, 0x9e3779b9 ^ n);
      expect(toHex(blake2b256(d)), `length ${n}`).to.equal(oracle(d));
    }
  });

  it('equals @noble/hashes on block-boundary lengths up to 32 KB, on unaligned views, and on all-0xff input', () => {
    const big = pseudoRandom(32768 + 3, 7);
    for (const n of [127, 128, 129, 255, 256, 257, 1023, 1024, 1025, 4096, 16383, 16384, 32767, 32768]) {
      const d = big.subarray(3, 3 + n); // byteOffset 3: not 4-byte aligned
      expect(toHex(blake2b256(d)), `length ${n}`).to.equal(oracle(d));
      const ff = new Uint8Array(n).fill(0xff);
      expect(toHex(blake2b256(ff)), `0xff × ${n}`).to.equal(oracle(ff));
    }
  });

  it('multi-part hashing equals @noble/hashes for random splits into up to 5 parts', () => {
    for (let k = 0; k < 300; k++) {
      const data = pseudoRandom(k * 3, k + 1);
      const r = pseudoRandom(4, k + 99);
      const cuts = Array.from(r, (c) => c % (data.length + 1)).sort((a, b) => a - b);
      const parts = [0, ...cuts].map((c, i, a) => data.subarray(c, i + 1 < a.length ? a[i + 1] : data.length));
      expect(toHex(blake2b256Parts(...parts)), `length ${data.length} cuts ${cuts}`).to.equal(oracle(data));
    }
  });

  it('is not disturbed by interleaved calls (module scratch state is reset per call)', () => {
    const a = pseudoRandom(300, 1);
    const first = toHex(blake2b256(a));
    blake2b256Parts(pseudoRandom(129, 2), pseudoRandom(5, 3));
    expect(toHex(blake2b256(a))).to.equal(first);
    expect(first).to.equal(oracle(a));
  });

  it('returns 32 bytes and differs on a one-bit change', () => {
    const a = blake2b256(utf8Encode('shimmer'));
    const b = blake2b256(utf8Encode('shimmes'));
    expect(a.length).to.equal(32);
    expect(toHex(a)).to.not.equal(toHex(b));
  });
});
