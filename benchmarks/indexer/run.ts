/**
 * The TIP-26 indexer at scale, on demand (never run by the tests):
 *   npx tsx benchmarks/indexer/run.ts [--outputs=1000000] [--engines=rocksdb,leveldb] [--queries=200]
 *
 * 1. Queries. A fresh store per engine gets `outputs` unspent basic outputs the way the ledger books them (output
 *    record, unspent entry and the index entries, written in batches of 10,000): 10 per address over 100,000 filler
 *    addresses, plus three addresses that own 10, 100 and 1,000 outputs spread over the whole store (booking
 *    timestamps interleave with the rest, so a query finds its outputs among all the others). Then, for each of the
 *    three addresses, `queries` rounds of the routes a wallet calls: `basic?address=` (Firefly / iota.js),
 *    `outputs?unlockableByAddress=` (iota-sdk 1.1 sync) and iota.js's `basic?address=&hasExpiration=false&
 *    hasTimelock=false&hasStorageDepositReturn=false` (each output decoded to check the filters). Median and p99 in ms,
 *    the store closed and reopened before the queries (no write cache).
 * 2. Confirmation. A cone of N signed transfers (benchmarks/ledger's scenario, N = 1,000) is confirmed on a fresh
 *    store of each engine: the whole confirmation with its commit, then, on the same result, the index's share alone:
 *    computing its writes (indexLedgerChanges over the created and consumed outputs) and committing only them to a
 *    store of the same engine. Overhead = index share / (whole - index share), median of 5 runs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  LEDGER_TABLES,
  queryOutputs,
  putOutputIndex,
  indexLedgerChanges,
  confirmMilestone,
  type IndexerRoute,
} from '../../src/core/ledger/index.ts';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import type { BasicOutput, Ed25519Address } from '../../src/core/model/index.ts';
import { NodeStore } from '../../src/core/store/index.ts';
import { openKeyValueStore, type DbEngine } from '../../src/storage/open.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { confirmationScenario, freshLedgerStore } from '../ledger/cone.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const OUTPUTS = Number(arg('outputs', '1000000'));
const ENGINES = arg('engines', 'rocksdb,leveldb').split(',') as DbEngine[];
const QUERIES = Number(arg('queries', '200'));
const HRP = 'rms';
const FILLERS_PER_ADDRESS = 10;
const TARGETS = [10, 100, 1000];
const BATCH = 10_000;
const T0 = 1_700_000_000;

const addressOf = (n: number): Ed25519Address => {
  const pubKeyHash = new Uint8Array(32);
  new DataView(pubKeyHash.buffer).setUint32(0, n);
  pubKeyHash[31] = 0xa5;
  return { type: 0, pubKeyHash };
};

function outputIdOf(i: number): Uint8Array {
  const id = new Uint8Array(34);
  const view = new DataView(id.buffer);
  view.setUint32(0, i * 2654435761); // spread over the key space
  view.setUint32(4, i);
  id[31] = 0x5a;
  return id;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;
const ms = (x: number): string => x.toFixed(2);

/** Which address owns output i: the target addresses own every k-th output, the fillers the rest in runs of 10. */
function ownerOf(i: number, targetEvery: number[]): number {
  for (let t = 0; t < TARGETS.length; t++) if (i % targetEvery[t]! === t) return -(t + 1);
  return Math.floor(i / FILLERS_PER_ADDRESS);
}

async function fill(store: NodeStore): Promise<void> {
  const targetEvery = TARGETS.map((n) => Math.floor(OUTPUTS / n));
  const started = Date.now();
  let batch = store.batch();
  for (let i = 0; i < OUTPUTS; i++) {
    const owner = ownerOf(i, targetEvery);
    const address = owner < 0 ? addressOf(0xfffffff0 - owner) : addressOf(owner);
    const output: BasicOutput = {
      type: 3,
      amount: 1_000_000n + BigInt(i),
      nativeTokens: [],
      unlockConditions: [{ type: 0, address }],
      features: [],
    };
    const outputId = outputIdOf(i);
    const booked = {
      milestoneIndexBooked: 1 + Math.floor(i / 1000),
      milestoneTimestampBooked: T0 + Math.floor(i / 1000),
    };
    batch.put(LEDGER_TABLES.outputs, outputId, { blockId: new Uint8Array(32), ...booked, output });
    batch.put(LEDGER_TABLES.unspent, outputId, null);
    putOutputIndex(batch, { outputId, milestoneTimestampBooked: booked.milestoneTimestampBooked, output });
    if (batch.length >= BATCH * 4) {
      await batch.commit({ sync: false });
      batch = store.batch();
    }
  }
  await batch.commit({ sync: true });
  console.log(`  filled ${OUTPUTS.toLocaleString('en-US')} outputs in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const QUERY_KINDS: readonly (readonly [
  label: string,
  route: IndexerRoute,
  params: (a: string) => Record<string, string>,
])[] = [
  ['basic?address=', 'basic', (a) => ({ address: a })],
  ['outputs?unlockableByAddress=', 'outputs', (a) => ({ unlockableByAddress: a })],
  [
    'basic?address=&has*=false (iota.js)',
    'basic',
    (a) => ({ address: a, hasExpiration: 'false', hasTimelock: 'false', hasStorageDepositReturn: 'false' }),
  ],
];

async function queries(engine: DbEngine): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `indexer-bench-${engine}-`));
  try {
    let kv = await openKeyValueStore(engine, join(dir, 'db'));
    await fill(await NodeStore.open(kv));
    await kv.close();
    kv = await openKeyValueStore(engine, join(dir, 'db'));
    const store = await NodeStore.open(kv);
    console.log(`  | owned outputs | query | median ms | p99 ms |`);
    console.log(`  |---:|---|---:|---:|`);
    for (let t = 0; t < TARGETS.length; t++) {
      const address = bech32EncodeAddress(HRP, addressOf(0xfffffff0 + t + 1));
      for (const [label, route, params] of QUERY_KINDS) {
        const times: number[] = [];
        let items = 0;
        for (let q = 0; q < QUERIES; q++) {
          const t0 = performance.now();
          const answer = await queryOutputs(store, route, params(address), 1, HRP);
          times.push(performance.now() - t0);
          items = answer.items.length;
        }
        if (items !== TARGETS[t]) throw new Error(`${label}: ${items} items, expected ${TARGETS[t]}`);
        console.log(`  | ${TARGETS[t]} | ${label} | ${ms(median(times))} | ${ms(p99(times))} |`);
      }
    }
    await kv.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function confirmation(engine: DbEngine, runs: number): Promise<void> {
  const scenario = await confirmationScenario(1000);
  const whole: number[] = [];
  const share: number[] = [];
  for (let r = 0; r < runs; r++) {
    const dir = mkdtempSync(join(tmpdir(), `indexer-confirm-${engine}-`));
    try {
      const kv = await openKeyValueStore(engine, join(dir, 'db'));
      const store = await freshLedgerStore(kv, scenario);
      const t0 = performance.now();
      const result = await confirmMilestone({
        store,
        milestoneBlockId: scenario.milestone.id,
        milestoneBlock: scenario.milestone.block,
      });
      await result.batch.commit({ sync: true });
      whole.push(performance.now() - t0);
      await kv.close();

      const kv2 = await openKeyValueStore(engine, join(dir, 'index-only'));
      const other = await NodeStore.open(kv2);
      const t1 = performance.now();
      const batch = other.batch();
      indexLedgerChanges(batch, result.created, result.consumed);
      await batch.commit({ sync: true });
      share.push(performance.now() - t1);
      await kv2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const w = median(whole);
  const s = median(share);
  console.log(
    `  1,000-transaction cone: whole confirmation ${ms(w)} ms, index share ${ms(s)} ms -> ` +
      `indexing adds ${((100 * s) / (w - s)).toFixed(1)}%`,
  );
}

if (!installOpenSslEd25519()) console.log('(OpenSSL Ed25519 unavailable: signatures checked by noble)');
for (const engine of ENGINES) {
  console.log(`\n## ${engine}`);
  await confirmation(engine, 5);
  await queries(engine);
}
