import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  b1t6Encode,
  createJsKernel,
  createSearcher,
  createWasmKernel,
  curlP81,
  powCurlInput,
  powDigest,
  powHash,
  powScore,
  powZeros,
  targetZeros,
  trailingZeros,
  tritsToTrytes,
  trytesToTrits,
  type LaneKernel,
  type SearcherKind,
} from '../../../src/core/pow/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { hashLanes } from './lanes-helper.ts';

const V = loadVectors('stardust/pow.json');
const KINDS: SearcherKind[] = ['scalar', 'js', 'wasm'];
const KERNELS: Array<[string, () => LaneKernel]> = [
  ['js-bitsliced-32', createJsKernel],
  ['wasm-simd-128', createWasmKernel],
];

function nonceOf(messageHex: string): bigint {
  const b = fromHex(messageHex);
  let n = 0n;
  for (let i = b.length - 1; i >= b.length - 8; i--) n = (n << 8n) | BigInt(b[i]!);
  return n;
}

describe('core/pow vectors (pow.json)', () => {
  describe('b1t6', () => {
    for (const c of V.b1t6) {
      it(`"${c.bytesHex}" -> "${c.trytes}"`, () => {
        expect(tritsToTrytes(b1t6Encode(fromHex(c.bytesHex)))).to.equal(c.trytes);
      });
    }
    it('trytes <-> trits round trip over the whole alphabet', () => {
      const all = '9ABCDEFGHIJKLMNOPQRSTUVWXYZ';
      expect(tritsToTrytes(trytesToTrits(all))).to.equal(all);
      expect(() => trytesToTrits('a')).to.throw(RangeError, /invalid character "a" at index 0/);
    });
  });

  describe('Curl-P-81 single block', () => {
    const cases = V.curlP81SingleBlock.cases as Array<{ inTrytes: string; hashTrytes: string }>;
    it(`scalar: ${cases.length} cases`, () => {
      for (const c of cases) expect(tritsToTrytes(curlP81(trytesToTrits(c.inTrytes)))).to.equal(c.hashTrytes);
    });
    for (const [name, make] of KERNELS) {
      it(`${name}: all ${cases.length} cases at once, one per lane, other lanes hash zeros`, () => {
        const kernel = make();
        const inputs = cases.map((c) => trytesToTrits(c.inTrytes));
        inputs.push(new Int8Array(243));
        const hashes = hashLanes(kernel, inputs);
        expect(hashes.slice(0, cases.length).map(tritsToTrytes)).to.deep.equal(cases.map((c) => c.hashTrytes));
        expect(tritsToTrytes(hashes[cases.length]!)).to.equal(tritsToTrytes(curlP81(new Int8Array(243))));
      });
      it(`${name}: every lane agrees with the scalar Curl on random inputs`, () => {
        const kernel = make();
        const lanes = 32 * kernel.words;
        let seed = 12345;
        const rnd = () => {
          seed = (seed * 1103515245 + 12345) >>> 0;
          return (seed % 3) - 1;
        };
        const inputs = Array.from({ length: lanes }, () => Int8Array.from({ length: 243 }, rnd));
        const got = hashLanes(kernel, inputs).map(tritsToTrytes);
        // the scalar reference costs about a millisecond per hash: check a spread of lanes
        for (const lane of [0, 1, 31, lanes - 1, lanes >> 1, 33 % lanes]) {
          expect(got[lane], `lane ${lane}`).to.equal(tritsToTrytes(curlP81(inputs[lane]!)));
        }
      });
    }
  });

  describe('TIP-12 worked example', () => {
    const ex = V.tip12Example;
    const msg = fromHex(ex.message);
    const digest = powDigest(msg.subarray(0, msg.length - 8));
    const nonce = BigInt(ex.nonce);
    it('digest, Curl input, hash, zeros and score (scalar)', () => {
      expect(toHex(digest)).to.equal(ex.powDigest);
      expect(nonceOf(ex.message)).to.equal(nonce);
      expect(tritsToTrytes(powCurlInput(digest, nonce))).to.equal(ex.curlInputTrytes);
      expect(tritsToTrytes(powHash(digest, nonce))).to.equal(ex.powHashTrytes);
      expect(powZeros(msg)).to.equal(ex.trailingZeros);
      expect(powScore(msg)).to.equal(ex.score);
    });
    for (const [name, make] of KERNELS) {
      it(`${name}: the same PoW hash`, () => {
        expect(tritsToTrytes(hashLanes(make(), [powCurlInput(digest, nonce)])[0]!)).to.equal(ex.powHashTrytes);
      });
    }
    for (const kind of KINDS) {
      it(`${kind} search: the nonce reaches 9 zeros, not 10`, () => {
        const s = createSearcher(kind);
        expect(s.search(digest, ex.trailingZeros, nonce, 1).nonce).to.equal(nonce);
        expect(s.search(digest, ex.trailingZeros + 1, nonce, 1).nonce).to.equal(null);
      });
    }
  });

  describe('score cases', () => {
    for (const c of V.scoreCases.cases as Array<{
      messageHex?: string;
      trailingZeros: number;
      scoreFloat: number;
      [k: string]: unknown;
    }>) {
      const label = c.messageHex ?? String(c['messageDescription']);
      it(`${label.slice(0, 40)}: ${c.trailingZeros} zeros, score ${c.scoreFloat}`, () => {
        const msg = c.messageHex !== undefined ? fromHex(c.messageHex) : messageOf(c);
        expect(powZeros(msg)).to.equal(c.trailingZeros);
        expect(powScore(msg)).to.equal(c.scoreFloat);
        const digest = powDigest(msg.subarray(0, msg.length - 8));
        const nonce = nonceOf(toHex(msg.subarray(msg.length - 8)));
        for (const kind of ['js', 'wasm'] as const) {
          const s = createSearcher(kind);
          expect(s.search(digest, c.trailingZeros, nonce, 1).nonce, kind).to.equal(nonce);
          expect(s.search(digest, c.trailingZeros + 1, nonce, 1).nonce, kind).to.equal(null);
        }
      });
    }
  });

  it('targetZeros: length 100 at score 100 needs 9', () => {
    const t = V.targetZeros;
    expect(targetZeros(t.messageLength, t.targetScore)).to.equal(t.expectedTargetZeros);
    expect(targetZeros(277, 1500)).to.equal(12); // docs/protocol.md §13.1 example
    expect(targetZeros(420, 1500)).to.equal(13);
    expect(targetZeros(100, 0)).to.equal(0);
  });

  describe('nonce search cases', () => {
    for (const c of V.nonceSearch.cases as Array<{
      powDigestHex: string;
      targetZeros: number;
      startNonce: string;
      expectedNonce: string;
    }>) {
      for (const kind of KINDS) {
        it(`${kind}: target ${c.targetZeros} from ${c.startNonce} -> ${c.expectedNonce}`, () => {
          const r = createSearcher(kind).search(
            fromHex(c.powDigestHex),
            c.targetZeros,
            BigInt(c.startNonce),
            1_000_000,
          );
          expect(r.nonce).to.equal(BigInt(c.expectedNonce));
          expect(r.hashes).to.be.greaterThan(0);
        });
      }
    }
  });

  it('TIP-24 example block (derived values)', () => {
    const v = V.tip24ExampleBlockPow;
    const block = fromHex(v.blockHex);
    const digest = powDigest(block.subarray(0, block.length - 8));
    const nonce = nonceOf(v.blockHex);
    expect(toHex(digest)).to.equal(v.derived.digest);
    expect(tritsToTrytes(powCurlInput(digest, nonce))).to.equal(v.derived.curlInput);
    expect(tritsToTrytes(powHash(digest, nonce))).to.equal(v.derived.powHash);
    expect(powZeros(block)).to.equal(v.derived.zeros);
    expect(powScore(block)).to.equal(v.derived.score);
  });

  it('rejects a block shorter than its nonce with a ProtocolError', () => {
    expect(() => powScore(new Uint8Array(7)))
      .to.throw(ProtocolError)
      .with.property('code', 'TRUNCATED');
  });

  it('BLAKE2b digest of the empty message (the 8-byte score cases)', () => {
    expect(toHex(powDigest(new Uint8Array(0)))).to.equal(toHex(blake2b(new Uint8Array(0), { dkLen: 32 })));
    expect(trailingZeros([1, 0, 0])).to.equal(2);
  });
});

function messageOf(c: Record<string, unknown>): Uint8Array {
  // a case given in words, e.g. "10000 zero bytes"
  const m = /^(\d+) zero bytes$/.exec(String(c['messageDescription']));
  if (!m) throw new Error(`unexpected score case ${JSON.stringify(c)}`);
  return new Uint8Array(Number(m[1]));
}
