/**
 * The explorer history at scale, on demand (never run by the tests):
 *   npx tsx benchmarks/explorer/run.ts [--outputs=1000000] [--engine=rocksdb] [--pairs=101] [--runs=11]
 *     [--queries=200]
 *
 * 1. Fill (fill.ts): a store holding the 1,000-transfer cone of benchmarks/ledger (unconfirmed) and `outputs` unspent
 *    outputs with their TIP-26 entries, ledger updates and aggregates; then it is closed.
 * 2. The history's cost on the confirmation of that cone, on one copy of the filled store opened once (warm):
 *    a. computed: `pairs` pairs of confirmMilestone (cone walk, White Flag, every write put into a batch) as the node
 *       runs it and with `history: false`, the order alternating, after 5 pairs not counted (JIT warm-up). Nothing
 *       is committed (the store's writes are recorded, not applied), so every computation starts from the same
 *       state. Medians of each side, and the mean of the pairs' differences with its 95% interval (1.96 standard
 *       errors), as a share of the confirmation without the history.
 *    b. committed: the batches of both computations, taken once, written with `sync` on the same store, alternating,
 *       `pairs` pairs after 5 not counted. After the first, each write puts the same keys again: the WAL append, the
 *       fsync and the memtable inserts cost what the first did, so the difference is the marginal cost of the
 *       history's ops in the durable commit. Same statistics.
 *    c. the history's own work, alone: its writes for the cone computed into a batch (aggregate records read
 *       included) and that batch committed alone, `runs * 3` times on another copy; medians.
 *    The shares in (a) and (b) add up to the history's cost on a confirmation with its commit.
 * 3. Reads, on the filled store reopened (no write cache), through the node's ExplorerReader (parameters checked,
 *    the JSON answer built; no gRPC or HTTP): a page of 100 ledger updates by address (newest first, oldest first,
 *    and the page after a cursor) for addresses owning 10, 100 and 1,000 outputs; their balance; the 100 richest
 *    addresses; the token distribution. `queries` reads each; median and p99 in ms.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import { confirmMilestone, writeMilestoneHistory } from '../../src/core/ledger/index.ts';
import { NodeStore, type BatchOp, type KeyValueStore } from '../../src/core/store/index.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { ExplorerReader } from '../../src/node/ledger/explorer-reads.ts';
import { openKeyValueStore, type DbEngine } from '../../src/storage/open.ts';
import { scriptArg } from '../../scripts/lib/args.ts';
import { confirmationScenario, type ConeScenario } from '../ledger/cone.ts';
import { coneHistory, fillStore, TARGETS, targetAddress } from './fill.ts';

const OUTPUTS = Number(scriptArg('outputs', '1000000'));
const ENGINE = scriptArg('engine', 'rocksdb') as DbEngine;
const PAIRS = Number(scriptArg('pairs', '101'));
const RUNS = Number(scriptArg('runs', '11'));
const QUERIES = Number(scriptArg('queries', '200'));
const WARM_UP = 5;
const HRP = 'smr';

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number => sorted(xs)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]): number => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const ms = (x: number): string => x.toFixed(2);

/** The mean of `xs` and the half-width of its 95% interval (1.96 standard errors; `pairs` is large). */
function meanInterval(xs: number[]): { mean: number; half: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
  return { mean, half: 1.96 * Math.sqrt(variance / xs.length) };
}

/** `pairs` pairs of (with, without) timings, the order alternating, after WARM_UP pairs not counted. */
async function interleaved(run: (history: boolean) => Promise<number>): Promise<{ w: number[]; wo: number[] }> {
  for (let r = 0; r < WARM_UP; r++) for (const history of [true, false]) await run(history);
  const [w, wo]: [number[], number[]] = [[], []];
  for (let r = 0; r < PAIRS; r++)
    for (const history of r % 2 === 0 ? [true, false] : [false, true]) (history ? w : wo).push(await run(history));
  return { w, wo };
}

function report(what: string, { w, wo }: { w: number[]; wo: number[] }, base: number): void {
  const d = meanInterval(w.map((x, i) => x - wo[i]!));
  const pct = (x: number): string => ((100 * x) / base).toFixed(1);
  console.log(
    `  ${what}: with the history ${ms(median(w))} ms, without ${ms(median(wo))} ms (medians of ${PAIRS} pairs); ` +
      `the history adds ${ms(d.mean)} ± ${ms(d.half)} ms (mean of the pairs' differences, 95%), ` +
      `${pct(d.mean)}% ± ${pct(d.half)}% of the confirmation without it`,
  );
}

/** `kv` with its writes recorded instead of applied (the last one is `last`). */
function recording(kv: KeyValueStore): KeyValueStore & { last: readonly BatchOp[] } {
  const r = Object.create(kv) as KeyValueStore & { last: readonly BatchOp[] };
  r.last = [];
  r.write = async (ops) => {
    r.last = ops;
  };
  return r;
}

const bytesOf = (ops: readonly BatchOp[]): number =>
  ops.reduce((n, op) => n + op.key.length + (op.type === 'put' ? op.value.length : 0), 0);

/** 2a and 2b on one warm copy; returns the median confirmation without the history (the base of the shares). */
async function confirmation(copy: string, s: ConeScenario): Promise<number> {
  const kv = await openKeyValueStore(ENGINE, copy);
  try {
    const rec = recording(kv);
    const store = await NodeStore.open(rec);
    const confirm = (history: boolean) =>
      confirmMilestone({
        store,
        milestoneBlockId: s.milestone.id,
        milestoneBlock: s.milestone.block,
        ...(history ? {} : { history: false }),
      });
    const computed = await interleaved(async (history) => {
      const t0 = performance.now();
      const c = await confirm(history);
      const took = performance.now() - t0;
      if (c.created.length !== s.blocks.length) throw new Error(`${c.created.length} outputs booked`);
      return took;
    });
    const base = median(computed.wo);
    report('1,000-transfer cone, confirmation computed', computed, base);
    const ops = new Map<boolean, readonly BatchOp[]>();
    for (const history of [true, false]) {
      await (await confirm(history)).batch.commit({ sync: true });
      ops.set(history, rec.last);
    }
    const committed = await interleaved(async (history) => {
      const t0 = performance.now();
      await kv.write(ops.get(history)!, { sync: true });
      return performance.now() - t0;
    });
    report('its batch committed (sync)', committed, base);
    const kb = (history: boolean): string => (bytesOf(ops.get(history)!) / 1024).toFixed(0);
    console.log(
      `  the batch: ${ops.get(true)!.length} ops, ${kb(true)} KB with the history; ` +
        `${ops.get(false)!.length} ops, ${kb(false)} KB without`,
    );
    return base;
  } finally {
    await kv.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * 2c. The history's own work for the same cone on the filled store: its writes computed into a batch (aggregate
 * records read included) and that batch committed alone, `RUNS * 3` times.
 */
async function historyShare(copy: string, s: ConeScenario, base: number): Promise<void> {
  const kv = await openKeyValueStore(ENGINE, copy);
  try {
    const store = await NodeStore.open(kv);
    const m = await coneHistory(store, s);
    const [compute, commit]: [number[], number[]] = [[], []];
    for (let r = 0; r < RUNS * 3; r++) {
      const batch = store.batch();
      const t0 = performance.now();
      await writeMilestoneHistory(store, batch, m);
      const t1 = performance.now();
      await batch.commit({ sync: true });
      compute.push(t1 - t0);
      commit.push(performance.now() - t1);
    }
    const [cm, cc] = [median(compute), median(commit)];
    console.log(
      `  the history's own work for that cone: its writes computed ${ms(cm)} ms, committed alone ` +
        `${ms(cc)} ms (medians of ${RUNS * 3}) -> ${((100 * (cm + cc)) / base).toFixed(1)}% of the ` +
        'confirmation computed without it',
    );
  } finally {
    await kv.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

async function time(label: string, read: () => Promise<unknown>): Promise<void> {
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const t0 = performance.now();
    await read();
    times.push(performance.now() - t0);
  }
  console.log(`  | ${label} | ${ms(median(times))} | ${ms(p99(times))} |`);
}

async function reads(base: string): Promise<void> {
  const kv = await openKeyValueStore(ENGINE, base);
  try {
    const reader = new ExplorerReader(await NodeStore.open(kv), () => HRP);
    console.log('  | read | median ms | p99 ms |');
    console.log('  |---|---:|---:|');
    for (let t = 0; t < TARGETS.length; t++) {
      const address = bech32EncodeAddress(HRP, targetAddress(t));
      const first = (await reader.updatesByAddress(address, {})) as { items: unknown[]; cursor: string | null };
      const expected = Math.min(100, TARGETS[t]!);
      if (first.items.length !== expected) throw new Error(`${first.items.length} updates, expected ${expected}`);
      const owned = `${TARGETS[t]!.toLocaleString('en-US')} outputs`;
      await time(`ledger updates by address (${owned}), newest, 100`, () => reader.updatesByAddress(address, {}));
      await time(`ledger updates by address (${owned}), oldest, 100`, () =>
        reader.updatesByAddress(address, { sort: 'oldest' }),
      );
      if (first.cursor !== null)
        await time(`ledger updates by address (${owned}), after a cursor`, () =>
          reader.updatesByAddress(address, { cursor: first.cursor! }),
        );
      await time(`balance (${owned})`, () => reader.balance(address));
    }
    await time('richest addresses, top 100', () => reader.richest({}));
    await time('token distribution', () => reader.distribution({}));
  } finally {
    await kv.close();
  }
}

if (!installOpenSslEd25519()) console.log('(OpenSSL Ed25519 unavailable: signatures checked by noble)');
const dir = mkdtempSync(join(tmpdir(), `explorer-bench-${ENGINE}-`));
try {
  console.log(`## ${ENGINE}, ${OUTPUTS.toLocaleString('en-US')} outputs`);
  const scenario = await confirmationScenario(1000);
  const base = join(dir, 'base');
  const kv = await openKeyValueStore(ENGINE, base);
  const { seconds } = await fillStore(kv, scenario, OUTPUTS, console.log);
  await kv.close();
  console.log(`  filled in ${seconds.toFixed(1)} s`);
  cpSync(base, join(dir, 'warm'), { recursive: true });
  const without = await confirmation(join(dir, 'warm'), scenario);
  cpSync(base, join(dir, 'share'), { recursive: true });
  await historyShare(join(dir, 'share'), scenario, without);
  await reads(base);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
