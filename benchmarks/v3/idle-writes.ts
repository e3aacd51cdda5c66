/**
 * Where an idle v3 part's cost goes: the V3Engine alone (src/node/v3/) on RocksDB in a temporary folder (or the memory
 * store), its built-in validator's rounds driven one by one on a test clock that moves `--interval` ms before each
 * (the node's default: 2000 ms, one seat, the dev network's parameters), nothing else submitted. Counts every store
 * write by table: puts, deletes and their key + value bytes, the batches and those synced; the CPU time per round
 * (user + system of the process); then the bytes every table holds at the end (keys + values, before the storage
 * engine's compression), as a day's worth. Ed25519 verification goes through OpenSSL, as in `ledger-node run`
 * (src/node/crypto/ed25519-openssl.ts; `--js-ed25519`: the core's JavaScript only). On demand, never run by the tests:
 *   npx tsx benchmarks/v3/idle-writes.ts [--rounds 1800] [--interval 2000] [--seats 1] [--engine rocksdb|memory]
 *     [--retain-epochs N] [--js-ed25519]
 * `--retain-epochs N` prunes by the v3 retention (v3/retention.ts) when its boundary moves, as the node's background
 * job does (it looks every minute), and reports those runs' time apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryKeyValueStore, NodeStore } from '../../src/core/store/index.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { folderSize } from '../../src/node/pruning/size.ts';
import { V3Engine } from '../../src/node/v3/engine.ts';
import { retentionTargetV3 } from '../../src/node/v3/retention.ts';
import { openKeyValueStore } from '../../src/storage/open.ts';
import { GENESIS_TIME, testGenesisV3 } from '../../harness/fixtures/v3.ts';
import { scriptArg, scriptNumber, scriptOption, scriptSwitch } from '../../scripts/lib/args.ts';
import { Counting, heldByTable, writesTable } from './counting.ts';

const ROUNDS = scriptNumber('rounds', 1800, { positive: true });
const INTERVAL_MS = scriptNumber('interval', 2000, { positive: true });
const SEATS = scriptNumber('seats', 1, { positive: true });
const ENGINE = scriptArg('engine', 'rocksdb');
const RETAIN = scriptOption('retain-epochs');
const OPENSSL = !scriptSwitch('js-ed25519') && installOpenSslEd25519();

const dir = ENGINE === 'memory' ? undefined : mkdtempSync(join(tmpdir(), 'v3-idle-writes-'));
const kv = new Counting(
  dir ? await openKeyValueStore(ENGINE === 'leveldb' ? 'leveldb' : 'rocksdb', dir) : new MemoryKeyValueStore(),
);
const store = await NodeStore.open(kv);
await V3Engine.create(store, testGenesisV3({ seats: SEATS }));
let nowMs = (GENESIS_TIME + 30) * 1000;
const engine = (await V3Engine.open(store, { now: () => nowMs }))!;
const retain = RETAIN === undefined ? undefined : Number(RETAIN);
const pruneRuns: { ms: number; cpuMs: number; blocks: number }[] = [];
// 30 rounds to settle (commitments under way, the finalized slot moving), not counted
for (let i = 0; i < 30; i++) {
  nowMs += INTERVAL_MS;
  await engine.issueValidationBlocks();
}
kv.reset();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < ROUNDS; i++) {
  nowMs += INTERVAL_MS;
  await engine.issueValidationBlocks();
  if (retain === undefined) continue;
  const target = retentionTargetV3(engine.latestCommitment.commitment.slot, retain, engine.params, engine.pruned);
  if (target === undefined) continue;
  const p0 = performance.now();
  const c0 = process.cpuUsage();
  const p = await engine.prune(target);
  const c = process.cpuUsage(c0);
  pruneRuns.push({ ms: performance.now() - p0, cpuMs: (c.user + c.system) / 1000, blocks: p.blocks });
}
const cpu = process.cpuUsage(cpu0);
const wallMs = performance.now() - t0;
await engine.idle();

const perRound = (n: number): string => (n / ROUNDS).toFixed(2);
console.log(
  `v3 idle: ${ROUNDS} rounds every ${INTERVAL_MS} ms, ${SEATS} seat(s), ${ENGINE}` +
    (retain === undefined ? '' : `, retention ${retain} epochs`) +
    (OPENSSL ? ', Ed25519 verification by OpenSSL' : ', Ed25519 in JavaScript only'),
);
for (const r of pruneRuns)
  console.log(`retention run: ${r.blocks} blocks pruned in ${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms)`);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `per round: CPU ${(cpuMs / ROUNDS).toFixed(2)} ms (wall ${(wallMs / ROUNDS).toFixed(2)} ms), ` +
    `${perRound(kv.batches)} store batches, ${perRound(kv.synced)} synced`,
);
console.log(writesTable(kv, ROUNDS, 'a round', 86_400_000 / INTERVAL_MS));

const held = await heldByTable(kv);
const days = (ROUNDS * INTERVAL_MS) / 86_400_000;
console.log(`held at the end (keys + values), and as MB a day over the ${(days * 24).toFixed(2)} h run:`);
console.log('table | entries | bytes | MB/day');
let heldTotal = 0;
for (const [name, h] of [...held].sort((a, b) => b[1].bytes - a[1].bytes)) {
  heldTotal += h.bytes;
  console.log(`${name} | ${h.entries} | ${h.bytes} | ${(h.bytes / days / 1e6).toFixed(1)}`);
}
console.log(`all | | ${heldTotal} | ${(heldTotal / days / 1e6).toFixed(1)}`);
await store.close();
if (dir)
  console.log(
    `store folder after closing (compressed, compacted as RocksDB left it): ${(folderSize(dir) / 1e6).toFixed(1)} MB`,
  );
if (dir) rmSync(dir, { recursive: true, force: true });
