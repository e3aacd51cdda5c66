import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import { nonceToBytes, powDigest, powScore, powZeros } from '../../../src/core/pow/index.ts';
import { createMiner, type Miner } from '../../../src/node/pow/miner.ts';

const block = new Uint8Array(120).map((_, i) => (i * 7 + 3) & 0xff); // without its nonce

describe('node/pow miner (worker threads)', function () {
  this.timeout(20000);
  let miner: Miner;
  before(() => {
    miner = createMiner({ workers: 2, chunk: 2048 });
  });
  after(() => miner.close());

  it('starts one worker per requested thread, each on the WASM SIMD searcher', async () => {
    expect(miner.workers).to.equal(2);
    expect(await miner.searcherNames()).to.deep.equal(['wasm-simd-128', 'wasm-simd-128']);
  });

  it('finds a nonce that reaches the score (block bytes without nonce)', async () => {
    const r = await miner.mine(block, 100, new AbortController().signal);
    const full = concatBytes(block, nonceToBytes(r.nonce));
    expect(powScore(full)).to.be.at.least(100);
    expect(r.targetZeros).to.equal(9); // 3^9 / 128 >= 100 > 3^8 / 128
    expect(r.hashes).to.be.greaterThan(0);
  });

  it('accepts digest + length and stops every worker at the first hit', async () => {
    // the other worker's range is 2^63 nonces long: the job only ends because the first hit stopped it
    const r = await miner.mine({ digest: powDigest(block), length: block.length + 8 }, 1000);
    expect(powZeros(concatBytes(block, nonceToBytes(r.nonce)))).to.be.at.least(r.targetZeros);
    const inFirstHalf = r.nonce < 1n << 63n;
    const offset = inFirstHalf ? r.nonce : r.nonce - (1n << 63n);
    expect(offset < BigInt(r.hashes) + 4096n, `nonce offset ${offset} vs ${r.hashes} hashes`).to.equal(true);
  });

  it('cancels: an unreachable score rejects with the abort reason soon after abort; the workers are free', async () => {
    const ac = new AbortController();
    const p = miner.mine(block, 3 ** 60, ac.signal);
    const t0 = performance.now();
    setTimeout(() => ac.abort(new Error('client went away')), 150);
    let err: unknown = null;
    try {
      await p;
    } catch (e) {
      err = e;
    }
    expect(String(err)).to.match(/client went away/);
    expect(performance.now() - t0).to.be.below(150 + 1500);
    const next = await miner.mine(block, 10);
    expect(powScore(concatBytes(block, nonceToBytes(next.nonce)))).to.be.at.least(10);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    let err: unknown = null;
    await miner.mine(block, 100, ac.signal).catch((e) => (err = e));
    expect((err as Error).name).to.equal('AbortError');
  });

  it('runs concurrent jobs one after another', async () => {
    const other = block.map((b) => b ^ 0x55);
    const [a, b] = await Promise.all([miner.mine(block, 50), miner.mine(other, 50)]);
    expect(powScore(concatBytes(block, nonceToBytes(a.nonce)))).to.be.at.least(50);
    expect(powScore(concatBytes(other, nonceToBytes(b.nonce)))).to.be.at.least(50);
  });

  it('works with the JS bit-sliced fallback in a single worker', async () => {
    const js = createMiner({ workers: 1, searcher: 'js' });
    try {
      expect(await js.searcherNames()).to.deep.equal(['js-bitsliced-32']);
      const r = await js.mine(block, 20);
      expect(powScore(concatBytes(block, nonceToBytes(r.nonce)))).to.be.at.least(20);
    } finally {
      await js.close();
    }
  });

  it('rejects a bad worker count', () => {
    expect(() => createMiner({ workers: 0 })).to.throw(RangeError, /workers 0/);
  });
});
