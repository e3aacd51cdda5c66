/**
 * The v3 engine's memory under a steady load (issue 15), on RocksDB in a temporary folder: rounds of signed basic
 * blocks on the current tips, each round confirmed by the built-in validator's blocks (1 seat), RSS and V8 heap
 * sampled (after a GC) every `--sample` blocks. `--max-confirmed N` sets the engine's window of confirmed blocks in
 * memory (default: the node's); `--max-confirmed 0` means no bound, the engine as it was before (every block's
 * state in memory), for comparison. On demand, never run by the tests:
 *   node --expose-gc --import tsx benchmarks/v3/memory.ts --blocks 100000 [--max-confirmed N] [--sample 10000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeStore } from '../../src/core/store/index.ts';
import { V3_DAG_LIMITS } from '../../src/node/v3/dag.ts';
import { V3Engine } from '../../src/node/v3/engine.ts';
import { openKeyValueStore } from '../../src/storage/open.ts';
import { basicBlock, GENESIS_TIME, testGenesisV3, USER } from '../../harness/fixtures/v3.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

function flag(name: string, fallback: number): number {
  return Number(scriptArg(name.slice(2), String(fallback)));
}

const blocks = flag('--blocks', 100_000);
const sample = flag('--sample', 10_000);
const maxConfirmed = flag('--max-confirmed', V3_DAG_LIMITS.maxConfirmed);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.warn('run with node --expose-gc for heap figures after a full GC');

const dir = mkdtempSync(join(tmpdir(), 'v3-memory-'));
const store = await NodeStore.open(await openKeyValueStore('rocksdb', dir));
await V3Engine.create(store, testGenesisV3());
let nowMs = (GENESIS_TIME + 5000) * 1000;
const engine = (await V3Engine.open(store, {
  now: () => nowMs,
  limits: { maxConfirmed: maxConfirmed === 0 ? Number.MAX_SAFE_INTEGER : maxConfirmed },
}))!;
await engine.catchUp.done(); // the 5,000 slots since the genesis, committed in chunks (catch-up.ts)
const mb = (n: number): string => (n / 1024 / 1024).toFixed(1);
console.log(
  `v3 memory: ${blocks} basic blocks in rounds of 20, each confirmed by the validator; ` +
    `window of confirmed blocks ${maxConfirmed === 0 ? 'unbounded' : maxConfirmed}`,
);
console.log('blocks attached | states in memory | RSS MB | heap used MB | blocks/s');
const started = performance.now();
let last = started;
let attached = 0;
let next = sample;
while (attached < blocks) {
  for (let i = 0; i < 20; i++) {
    nowMs += 1;
    const raw = basicBlock(engine.params, {
      issuer: USER,
      parents: engine.selectTips(),
      issuingTime: BigInt(nowMs) * 1_000_000n,
      commitmentId: engine.latestCommitmentId,
    });
    await engine.submit({ raw });
    attached++;
  }
  while (engine.hasUnconfirmedBlocks) attached += (await engine.issueValidationBlocks()).length;
  if (attached >= next) {
    gc?.();
    const t = performance.now();
    const m = process.memoryUsage();
    console.log(
      `${attached} | ${engine.blocksInMemory} | ${mb(m.rss)} | ${mb(m.heapUsed)} ` +
        `| ${Math.round((sample / (t - last)) * 1000)}`,
    );
    last = t;
    next += sample;
  }
}
console.log(`${attached} blocks in ${((performance.now() - started) / 1000).toFixed(0)} s`);
await engine.idle();
await store.close();
rmSync(dir, { recursive: true, force: true });
