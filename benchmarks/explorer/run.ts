/**
 * The explorer history at scale, on demand (never run by the tests):
 *   npx tsx benchmarks/explorer/run.ts [--outputs=1000000] [--engine=rocksdb] [--runs=5] [--queries=200]
 *
 * 1. Fill (fill.ts): a store holding the 1,000-transfer cone of benchmarks/ledger (unconfirmed) and `outputs` unspent
 *    outputs with their TIP-26 entries, ledger updates and aggregates; then it is closed.
 * 2. Confirmation, with and without the history, same run: each round copies the filled store twice and confirms the
 *    cone on one copy as the node does (history written) and on the other with `history: false`, each with its
 *    acknowledged commit, alternating which goes first, after a pair not counted (it compiles both paths). Medians of
 *    `runs` rounds; the history's cost is the difference, as a share of the confirmation without it. On a shared
 *    machine that difference is within the noise, so the history's own work is timed too: its writes for the cone
 *    computed into a batch and committed alone.
 * 3. Reads, on the filled store reopened (no write cache), through the node's ExplorerReader (parameters checked,
 *    the JSON answer built; no gRPC or HTTP): a page of 100 ledger updates by address (newest first, oldest first,
 *    and the page after a cursor) for addresses owning 10, 100 and 1,000 outputs; their balance; the 100 richest
 *    addresses; the token distribution. `queries` reads each; median and p99 in ms.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import { confirmMilestone, StoreBlockSource, walkCone, writeMilestoneHistory } from '../../src/core/ledger/index.ts';
import type { MilestonePayload } from '../../src/core/model/index.ts';
import { NodeStore } from '../../src/core/store/index.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { ExplorerReader } from '../../src/node/ledger/explorer-reads.ts';
import { openKeyValueStore, type DbEngine } from '../../src/storage/open.ts';
import { scriptArg } from '../../scripts/lib/args.ts';
import { confirmationScenario, type ConeScenario } from '../ledger/cone.ts';
import { fillStore, TARGETS, targetAddress } from './fill.ts';

const OUTPUTS = Number(scriptArg('outputs', '1000000'));
const ENGINE = scriptArg('engine', 'rocksdb') as DbEngine;
const RUNS = Number(scriptArg('runs', '5'));
const QUERIES = Number(scriptArg('queries', '200'));
const HRP = 'smr';

const sorted = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);
const median = (xs: number[]): number => sorted(xs)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]): number => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const ms = (x: number): string => x.toFixed(2);

async function confirmOnCopy(base: string, copy: string, s: ConeScenario, history: boolean): Promise<number> {
  cpSync(base, copy, { recursive: true });
  const kv = await openKeyValueStore(ENGINE, copy);
  try {
    const store = await NodeStore.open(kv);
    const t0 = performance.now();
    const c = await confirmMilestone({
      store,
      milestoneBlockId: s.milestone.id,
      milestoneBlock: s.milestone.block,
      ...(history ? {} : { history: false }),
    });
    await c.batch.commit({ sync: true });
    const took = performance.now() - t0;
    if (c.created.length !== s.blocks.length) throw new Error(`${c.created.length} outputs booked`);
    return took;
  } finally {
    await kv.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The history's own work for the same cone on the filled store, without the noise of two whole confirmations: its
 * writes computed into a batch (aggregate records read included) and that batch committed alone, `RUNS * 3` times.
 */
async function historyShare(base: string, copy: string, s: ConeScenario): Promise<{ compute: number; commit: number }> {
  cpSync(base, copy, { recursive: true });
  const kv = await openKeyValueStore(ENGINE, copy);
  try {
    const store = await NodeStore.open(kv);
    const ms = s.milestone.block.payload as MilestonePayload;
    const cone = await walkCone(ms.parents, await StoreBlockSource.open(store), ms.index);
    const c = await confirmMilestone({
      store,
      milestoneBlockId: s.milestone.id,
      milestoneBlock: s.milestone.block,
      history: false,
    });
    const m = { ...c, index: ms.index, timestamp: ms.timestamp, cone };
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
    return { compute: median(compute), commit: median(commit) };
  } finally {
    await kv.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

async function confirmation(dir: string, base: string, s: ConeScenario): Promise<void> {
  const withHistory: number[] = [];
  const without: number[] = [];
  // a first pair not counted: it compiles the code of both paths
  for (const history of [true, false]) await confirmOnCopy(base, join(dir, `warm-up-${history}`), s, history);
  for (let r = 0; r < RUNS; r++) {
    const order = r % 2 === 0 ? [true, false] : [false, true];
    for (const history of order) {
      const took = await confirmOnCopy(base, join(dir, `copy-${r}-${history}`), s, history);
      (history ? withHistory : without).push(took);
    }
    console.log(`  round ${r + 1}: with ${ms(withHistory.at(-1)!)} ms, without ${ms(without.at(-1)!)} ms`);
  }
  const [w, wo] = [median(withHistory), median(without)];
  const paired = median(withHistory.map((x, i) => x - without[i]!));
  console.log(
    `  1,000-transfer cone on the filled store, confirmation with its commit: with the history ${ms(w)} ms, ` +
      `without ${ms(wo)} ms (medians of ${RUNS}) -> the history adds ${ms(w - wo)} ms, ` +
      `${((100 * (w - wo)) / wo).toFixed(1)}%; median of the rounds' differences ${ms(paired)} ms`,
  );
  const share = await historyShare(base, join(dir, 'copy-share'), s);
  const percent = ((100 * (share.compute + share.commit)) / wo).toFixed(1);
  console.log(
    `  the history's own work for that cone: its writes computed ${ms(share.compute)} ms, committed alone ` +
      `${ms(share.commit)} ms (medians of ${RUNS * 3}) -> ${percent}% of the confirmation without it`,
  );
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
  await confirmation(dir, base, scenario);
  await reads(base);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
