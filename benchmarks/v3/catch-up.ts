/**
 * The forced commitments after a long gap (src/node/v3/commitments.ts: a latest commitment older than
 * maxCommittableAge slots is followed by committing every slot up to the clock): the V3Engine on RocksDB (or LevelDB)
 * in a temporary folder, a few validator rounds and a confirmed user block, then the store is closed and opened
 * again with the engine's clock `--gap-days` later, as a node stopped that long starts again. Measures how long the
 * engine takes to open, how long until it has caught up with the clock, what the catch-up wrote (by table), and how
 * long reads and a submission took meanwhile (probed every `--probe-ms`: a block's metadata, and a user block built
 * as a client builds it, on the node's latest commitment and tips). On demand, never run by the tests:
 *   npx tsx benchmarks/v3/catch-up.ts [--gap-days 1] [--engine rocksdb|leveldb] [--probe-ms 100]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NodeStore } from '../../src/core/store/index.ts';
import { slotFromTime } from '../../src/core/v3/index.ts';
import { folderSize } from '../../src/node/pruning/size.ts';
import { V3Engine } from '../../src/node/v3/engine.ts';
import { openKeyValueStore } from '../../src/storage/open.ts';
import { basicBlock, GENESIS_TIME, testGenesisV3, USER } from '../../harness/fixtures/v3.ts';
import { scriptArg, scriptNumber } from '../../scripts/lib/args.ts';
import { Counting, writesTable } from './counting.ts';

const GAP_DAYS = scriptNumber('gap-days', 1, { positive: true });
const ENGINE = scriptArg('engine', 'rocksdb') === 'leveldb' ? 'leveldb' : 'rocksdb';
const PROBE_MS = scriptNumber('probe-ms', 100, { positive: true });
const MS = 1_000_000n;

const dir = mkdtempSync(join(tmpdir(), 'v3-catch-up-'));
let nowMs = (GENESIS_TIME + 30) * 1000;
const clock = { now: () => nowMs };
let kv = new Counting(await openKeyValueStore(ENGINE, dir));
let store = await NodeStore.open(kv);
await V3Engine.create(store, testGenesisV3());
let engine = (await V3Engine.open(store, clock))!;
const round = async (): Promise<void> => {
  nowMs += 2000;
  await engine.issueValidationBlocks();
};
for (let i = 0; i < 30; i++) await round();
nowMs += 10;
const userBlock = (): Uint8Array =>
  basicBlock(engine.params, {
    issuer: USER,
    parents: engine.selectTips(),
    issuingTime: BigInt(nowMs) * MS,
    commitmentId: engine.latestCommitmentId,
  });
const early = await engine.submit({ raw: userBlock() });
for (let i = 0; i < 3; i++) await round();
const before = (await engine.blockMetadata(early)).blockState;
await engine.idle();
await store.close();

// the stop: the clock moves on by the gap; the node starts again
nowMs += GAP_DAYS * 86_400_000;
kv = new Counting(await openKeyValueStore(ENGINE, dir));
store = await NodeStore.open(kv);
const sizeBefore = folderSize(dir);
const t0 = performance.now();
const opening = V3Engine.open(store, clock);
const probes: { read: number[]; submit: { ms: number; outcome: string }[] } = { read: [], submit: [] };
let opened = false;
let caughtUpAt: number | undefined;
const target = slotFromTime(BigInt(nowMs) * MS, testGenesisV3().protocolParameters) - 12;
const probe = async (): Promise<void> => {
  while (!opened) await sleep(1);
  const e = engine;
  for (;;) {
    const s = performance.now();
    await e.read(() => e.blockMetadata(early)); // as the service reads: in the engine's queue
    probes.read.push(performance.now() - s);
    const s2 = performance.now();
    let outcome = 'accepted';
    try {
      nowMs += 1;
      await e.submit({ raw: userBlock() });
    } catch (err) {
      outcome = `refused: ${(err as Error).message.replace(/[0-9]+/g, 'N').slice(0, 90)}`;
    }
    probes.submit.push({ ms: performance.now() - s2, outcome });
    if (e.latestCommitment.commitment.slot >= target) {
      caughtUpAt ??= performance.now() - t0;
      return;
    }
    await sleep(PROBE_MS);
  }
};
const probing = probe();
engine = (await opening)!;
const openMs = performance.now() - t0;
opened = true;
await probing;
await engine.idle();
const totalMs = performance.now() - t0;
const slots = engine.latestCommitment.commitment.slot;
const after = (await engine.blockMetadata(early)).blockState;

const fmt = (x: number): string => x.toFixed(1);
const sorted = [...probes.read].sort((a, b) => a - b);
console.log(`v3 catch-up after a stop of ${GAP_DAYS} day(s), ${ENGINE}:`);
console.log(
  `open ${fmt(openMs)} ms, caught up with the clock after ${fmt(caughtUpAt ?? totalMs)} ms ` +
    `(latest commitment: slot ${slots}); ${kv.batches} batches (${kv.synced} synced); ` +
    `folder +${((folderSize(dir) - sizeBefore) / 1e6).toFixed(1)} MB`,
);
console.log(
  `reads meanwhile: ${probes.read.length}, max ${fmt(sorted.at(-1) ?? 0)} ms, median ` +
    `${fmt(sorted[sorted.length >> 1] ?? 0)} ms; the early block reads ${before} before and ${after} after`,
);
const outcomes = new Map<string, number>();
for (const p of probes.submit) outcomes.set(p.outcome, (outcomes.get(p.outcome) ?? 0) + 1);
console.log(
  `submissions meanwhile: ${probes.submit.length}, max ${fmt(Math.max(...probes.submit.map((p) => p.ms)))} ms: ` +
    [...outcomes].map(([o, n]) => `${n} ${o}`).join('; '),
);
console.log(writesTable(kv, 1, 'per catch-up'));
await store.close();
rmSync(dir, { recursive: true, force: true });
