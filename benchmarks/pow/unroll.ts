/**
 * Tuning aid for the WASM kernel: assembles kernel variants with different loop unroll factors and compares their
 * single-thread hash rates in one process (interleaved, best of 5). Run on demand:
 *   npx tsx benchmarks/pow/unroll.ts
 */
import { kernelWat, BUFFER_BYTES, TEMPLATE, UNROLL } from '../../src/core/pow/wasm/kernel-wat.ts';
import { createBitslicedSearcher } from '../../src/core/pow/bitsliced-search.ts';
import type { NonceSearcher } from '../../src/core/pow/search.ts';
import { assembleWat } from '../../scripts/build-wasm.ts';

const variants = [4, 7, 14, 28, 52];
const searchers: NonceSearcher[] = [];
for (const u of variants) {
  const bytes = await assembleWat(kernelWat(u));
  const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), {});
  const mem = inst.exports['memory'] as WebAssembly.Memory;
  const hash = inst.exports['hash'] as () => number;
  const input = new Int32Array(mem.buffer, TEMPLATE, BUFFER_BYTES / 4);
  const name = `unroll ${u}${u === UNROLL ? ' (current)' : ''} (${bytes.length} B)`;
  searchers.push(
    createBitslicedSearcher({
      name,
      words: 4,
      input,
      transform: () => new Int32Array(mem.buffer, hash(), BUFFER_BYTES / 4),
    }),
  );
}
const d = new Uint8Array(32).fill(3);
for (const s of searchers) s.search(d, 243, 0n, 128 * 300);
const res = new Map<string, number[]>();
for (let rep = 0; rep < 5; rep++) {
  for (const s of searchers) {
    const t0 = performance.now();
    const r = s.search(d, 243, 0n, 128 * 2000);
    const dt = performance.now() - t0;
    res.set(s.name, [...(res.get(s.name) ?? []), r.hashes / dt / 1000]);
  }
}
for (const [k, v] of res)
  console.log(`${k}: best ${Math.max(...v).toFixed(2)} MH/s (runs ${v.map((x) => x.toFixed(2)).join(' ')})`);
