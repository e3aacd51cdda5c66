import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { createSearcher, MAX_NONCE, powHash, trailingZeros, type SearcherKind } from '../../../src/core/pow/index.ts';
import { kernelWat } from '../../../src/core/pow/wasm/kernel-wat.ts';
import { fromBase64, sourceHash, toBase64 } from '../../../src/core/pow/wasm/assemble.ts';
import { KERNEL_BASE64, KERNEL_SIZE, KERNEL_SOURCE_HASH } from '../../../src/core/pow/wasm/kernel.generated.ts';

const digestOf = (i: number) => blake2b(new Uint8Array([i]), { dkLen: 32 });

/** All nonces in [start, end) with >= target zeros, by the scalar reference. */
function oracleHits(digest: Uint8Array, target: number, start: bigint, end: bigint): bigint[] {
  const out: bigint[] = [];
  for (let n = start; n < end; n++) if (trailingZeros(powHash(digest, n)) >= target) out.push(n);
  return out;
}

describe('core/pow nonce search', () => {
  for (const kind of ['js', 'wasm'] as SearcherKind[]) {
    describe(kind, () => {
      it('finds every hit the scalar oracle finds, in order, from unaligned starts', () => {
        const s = createSearcher(kind);
        const digest = digestOf(7);
        const start = 1000n + 45n; // not a multiple of 32 or 128
        const end = start + 300n;
        const hits = oracleHits(digest, 3, start, end);
        expect(hits.length).to.be.greaterThan(3);
        let from = start;
        const found: bigint[] = [];
        for (;;) {
          const r = s.search(digest, 3, from, Number(end - from));
          if (r.nonce === null) break;
          found.push(r.nonce);
          from = r.nonce + 1n;
        }
        expect(found).to.deep.equal(hits);
      });

      it('never returns a hit before start or at/after the end of the range', () => {
        const s = createSearcher(kind);
        const digest = digestOf(9);
        const hits = oracleHits(digest, 2, 0n, 128n);
        expect(hits.length).to.be.greaterThan(2);
        const [a, b] = [hits[0]!, hits[1]!];
        expect(s.search(digest, 2, a + 1n, 128).nonce).to.equal(b); // a lane below start is masked
        expect(s.search(digest, 2, 0n, Number(a)).nonce).to.equal(null); // end is exclusive
        expect(s.search(digest, 2, 0n, Number(a) + 1).nonce).to.equal(a);
      });

      it('works at the top of the u64 range (all nonce bytes 0xff)', () => {
        const s = createSearcher(kind);
        const digest = digestOf(3);
        const start = MAX_NONCE - 99n;
        const hits = oracleHits(digest, 2, start, MAX_NONCE + 1n);
        expect(s.search(digest, 2, start, 100).nonce).to.equal(hits[0] ?? null);
        expect(() => s.search(digest, 2, start, 101)).to.throw(RangeError, /leaves u64/);
      });

      it('handles empty ranges, target 0 and bad arguments', () => {
        const s = createSearcher(kind);
        const digest = digestOf(1);
        expect(s.search(digest, 5, 10n, 0)).to.deep.equal({ nonce: null, hashes: 0 });
        expect(s.search(digest, 0, 10n, 5).nonce).to.equal(10n);
        expect(() => s.search(new Uint8Array(31), 5, 0n, 1)).to.throw(RangeError, /32 bytes/);
        expect(() => s.search(digest, -1, 0n, 1)).to.throw(RangeError, /targetZeros/);
        expect(() => s.search(digest, 1, -1n, 1)).to.throw(RangeError, /u64/);
      });

      it('a new digest replaces the cached digest trits', () => {
        const s = createSearcher(kind);
        for (const i of [20, 21, 20]) {
          const d = digestOf(i);
          expect(s.search(d, 3, 0n, 200).nonce).to.equal(oracleHits(d, 3, 0n, 200n)[0] ?? null);
        }
      });

      it('counts whole transforms as hashes', () => {
        const s = createSearcher(kind);
        const r = s.search(digestOf(2), 30, 0n, 1000);
        expect(r.nonce).to.equal(null);
        expect(r.hashes).to.equal(Math.ceil(1000 / s.lanes) * s.lanes);
      });
    });
  }
});

describe('core/pow WASM kernel drift', () => {
  it('the embedded kernel was assembled from the current source (kernel-wat.ts)', () => {
    expect(KERNEL_SOURCE_HASH, 'run: npx tsx scripts/build-wasm.ts').to.equal(sourceHash(kernelWat()));
    const bytes = fromBase64(KERNEL_BASE64);
    expect(bytes.length).to.equal(KERNEL_SIZE);
    expect(toBase64(bytes)).to.equal(KERNEL_BASE64);
    expect(Array.from(bytes.subarray(0, 8))).to.deep.equal([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
  });
});
