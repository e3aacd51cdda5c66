/**
 * PoW benchmark, run on demand (never by the tests):
 *   npx tsx benchmarks/pow/run.ts [--workers 2] [--runs 7] [--their-runs 3] [--rate-seconds 3] [--skip-theirs]
 *                                 [--skip-rates] [--only <text in the block label, e.g. "32 KB">]
 *
 * Side by side in one run on this machine:
 *   ours   the node's miner (src/node/pow, WASM SIMD kernel in worker threads) and the core searchers single-threaded
 *   pow-node.js  @iota/pow-node.js@2.0.0-rc.3 NodePowProvider (JS scalar Curl in worker threads)
 *   pow-wasm.js  @iota/pow-wasm.js@2.0.0-rc.3 WasmPowProvider (AssemblyScript WASM in worker threads)
 * 1. hashes per second per core: each implementation's search loop on one thread for a fixed time.
 * 2. median wall time to reach a score, with the same number of workers, on the same deterministic blocks
 *    (every miner starts worker i at about i·2^64/workers and counts up, so all of them do about the same work
 *    on a given block and the time ratio is the speed ratio).
 */
import { createRequire } from 'node:module';
import { availableParallelism, cpus } from 'node:os';
import { blake2b } from '@noble/hashes/blake2.js';
import { createSearcher, targetZeros, type SearcherKind } from '../../src/core/pow/index.ts';
import { createMiner } from '../../src/node/pow/miner.ts';
import { scriptArg, scriptSwitch } from '../../scripts/lib/args.ts';

const require = createRequire(import.meta.url);

function flag(name: string, def: number): number {
  return Number(scriptArg(name, String(def)));
}
const WORKERS = flag('workers', Math.min(2, availableParallelism()));
const RUNS = flag('runs', 7);
const THEIR_RUNS = flag('their-runs', 3);
const RATE_SECONDS = flag('rate-seconds', 3);
const SKIP_THEIRS = scriptSwitch('skip-theirs');
const SKIP_RATES = scriptSwitch('skip-rates');
const ONLY = scriptArg('only', '');

/** A deterministic pseudo-random block of `size` bytes (nonce bytes zero); PoW does not look at the content. */
function block(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = blake2b(new Uint8Array([seed & 0xff, size & 0xff, size >> 8]), { dkLen: 32 });
  for (let i = 0; i < size - 8; i += 32) {
    out.set(x.subarray(0, Math.min(32, size - 8 - i)), i);
    x = blake2b(x, { dkLen: 32 });
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

// ---------- 1. hashes per second per core ----------

function rateOurs(kind: SearcherKind, seconds: number): number {
  const s = createSearcher(kind);
  const digest = blake2b(new Uint8Array([kind.length]), { dkLen: 32 });
  s.search(digest, 243, 0n, 200 * s.lanes); // warm up (V8 tiers WebAssembly up after some use)
  let hashes = 0;
  let n = 1n << 40n;
  const step = kind === 'scalar' ? 64 : 64 * s.lanes;
  const t0 = performance.now();
  while (performance.now() - t0 < seconds * 1000) {
    hashes += s.search(digest, 243, n, step).hashes;
    n += BigInt(step);
  }
  return hashes / ((performance.now() - t0) / 1000);
}

/** Their single-thread search loops, as their workers run them: returns nonce found from `start`. */
function theirSearch(
  which: 'pow-node.js' | 'pow-wasm.js',
): (digest: Uint8Array, zeros: number, start: string) => Promise<string> {
  if (which === 'pow-node.js') {
    const { PowHelper } = require('@iota/crypto.js');
    return async (d, z, s) => PowHelper.performPow(d, z, s) as string;
  }
  const { doPow } = require('@iota/pow-wasm.js');
  return (d, z, s) => doPow(d, z, s) as Promise<string>;
}

async function rateTheirs(which: 'pow-node.js' | 'pow-wasm.js', seconds: number): Promise<number> {
  const search = theirSearch(which);
  let hashes = 0;
  let ms = 0;
  for (let i = 0; ms < seconds * 1000; i++) {
    const digest = blake2b(new Uint8Array([which.length, i]), { dkLen: 32 });
    const t0 = performance.now();
    const nonce = BigInt(await search(digest, 7, '0')); // sequential from 0: hashes = nonce + 1
    ms += performance.now() - t0;
    hashes += Number(nonce) + 1;
  }
  return hashes / (ms / 1000);
}

// ---------- 2. time to score ----------

interface Case {
  label: string;
  size: number;
  score: number;
  runs: number;
  theirRuns: number;
}

async function main(): Promise<void> {
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(`# PoW benchmark: ${cpu}, ${availableParallelism()} cores, node ${process.version}, ${WORKERS} workers`);
  console.log(`# command: npx tsx benchmarks/pow/run.ts ${process.argv.slice(2).join(' ')}`.trimEnd());

  if (!SKIP_RATES) await measureRates();
  await timeToScore();
}

async function measureRates(): Promise<void> {
  console.log('\n## Hashes per second, one thread\n');
  console.log('| implementation | hashes/s per core |');
  console.log('|---|---:|');
  const rates: Record<string, number> = {};
  for (const kind of ['wasm', 'js', 'scalar'] as SearcherKind[]) {
    rates[`ours-${kind}`] = rateOurs(kind, kind === 'wasm' ? RATE_SECONDS : Math.min(RATE_SECONDS, 2));
    console.log(
      `| ours, ${createSearcher(kind).name} | ${Math.round(rates[`ours-${kind}`]!).toLocaleString('en-US')} |`,
    );
  }
  if (!SKIP_THEIRS) {
    for (const which of ['pow-wasm.js', 'pow-node.js'] as const) {
      rates[which] = await rateTheirs(which, RATE_SECONDS);
      console.log(
        `| @iota/${which}@2.0.0-rc.3 (its worker loop) | ${Math.round(rates[which]!).toLocaleString('en-US')} |`,
      );
    }
    const best = Math.max(rates['pow-wasm.js']!, rates['pow-node.js']!);
    console.log(`\nratio ours-wasm / faster real JS miner, per core: ${(rates['ours-wasm']! / best).toFixed(0)}x`);
  }
}

async function timeToScore(): Promise<void> {
  const all: Case[] = [
    { label: '~100 B', size: 100, score: 1500, runs: RUNS, theirRuns: THEIR_RUNS },
    { label: '~420 B', size: 420, score: 1500, runs: RUNS, theirRuns: Math.max(1, Math.min(THEIR_RUNS, 3)) },
    { label: '32 KB', size: 32768, score: 1500, runs: Math.max(1, Math.min(RUNS, 5)), theirRuns: 0 },
    { label: '32 KB, low score', size: 32768, score: 15, runs: RUNS, theirRuns: THEIR_RUNS },
  ];
  const cases = all.filter((c) => c.label.includes(ONLY));

  const miner = createMiner({ workers: WORKERS });
  const names = await miner.searcherNames(); // the node starts its pool once, at start-up
  console.log(`\n## Median time to reach the score, ${WORKERS} workers (ours: ${names[0]}; pool started beforehand)\n`);
  const providers = SKIP_THEIRS
    ? []
    : ([
        ['pow-wasm.js', new (require('@iota/pow-wasm.js').WasmPowProvider)(WORKERS)],
        ['pow-node.js', new (require('@iota/pow-node.js').NodePowProvider)(WORKERS)],
      ] as Array<[string, { pow(m: Uint8Array, s: number): Promise<string> }]>);
  console.log(
    '| block | score | zeros | ours median (runs) | ours MH/s per worker | pow-wasm.js median (runs) | ' +
      'pow-node.js median (runs) | faster real / ours |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  try {
    for (const c of cases) {
      const zeros = targetZeros(c.size, c.score);
      const ours: number[] = [];
      let hashes = 0;
      let ms = 0;
      for (let r = 0; r < c.runs; r++) {
        const b = block(c.size, r);
        const t0 = performance.now();
        const res = await miner.mine(b.subarray(0, c.size - 8), c.score);
        const dt = performance.now() - t0;
        ours.push(dt);
        hashes += res.hashes;
        ms += dt;
      }
      const theirs: Record<string, number[]> = {};
      for (const [name, p] of providers) {
        theirs[name] = [];
        for (let r = 0; r < c.theirRuns; r++) {
          const b = block(c.size, r);
          const t0 = performance.now();
          await p.pow(b, c.score);
          theirs[name]!.push(performance.now() - t0);
        }
      }
      const fmt = (xs: number[] | undefined) =>
        xs?.length ? `${(median(xs) / 1000).toFixed(3)} s (${xs.length})` : 'not run';
      const bestTheirs = Math.min(
        ...Object.values(theirs)
          .filter((x) => x.length)
          .map((x) => median(x)),
      );
      // ratio over the runs both did (the same blocks r = 0..theirRuns-1)
      const paired =
        c.theirRuns > 0 && Number.isFinite(bestTheirs) ? bestTheirs / median(ours.slice(0, c.theirRuns)) : NaN;
      console.log(
        `| ${c.label} | ${c.score} | ${zeros} | ${fmt(ours)} ` +
          `| ${(hashes / (ms / 1000) / WORKERS / 1e6).toFixed(2)} ` +
          `| ${fmt(theirs['pow-wasm.js'])} | ${fmt(theirs['pow-node.js'])} ` +
          `| ${Number.isNaN(paired) ? '-' : `${paired.toFixed(0)}x`} |`,
      );
    }
  } finally {
    await miner.close();
  }
}

await main();
