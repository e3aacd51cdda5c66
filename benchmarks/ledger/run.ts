/**
 * Milestone confirmation time, on demand (never run by the tests):
 *   npx tsx benchmarks/ledger/run.ts [--sizes=100,1000,5000] [--runs=5] [--ed25519=openssl|noble]
 *   (--ed25519=noble: without the OpenSSL fast path, as before it existed; see src/node/crypto/ed25519-openssl.ts)
 *
 * For each size N, a cone of N transaction blocks is generated once: 50 wallets with real Ed25519 keys each run a
 * chain of signed transfers (every transfer spends the output of the one before it, 1 input -> 1 output), the blocks
 * interleaved so that each has the previous block and its chain's previous block as parents. A coordinator signs a
 * milestone over the last block (roots from a dry run). Each run then starts from a fresh store (genesis + stored raw
 * blocks, not timed) and times `confirmMilestone` (walk, input resolution, semantic validation, Merkle roots, batch)
 * and the batch commit (acknowledged write, sync), on the in-memory store and on LevelDB (classic-level).
 * Tables show medians over the runs. The machine is shared: read medians, not single runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { confirmMilestone } from '../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, type KeyValueStore } from '../../src/core/store/index.ts';
import { LevelKeyValueStore } from '../../src/storage/index.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { confirmationScenario, freshLedgerStore, type ConeScenario } from './cone.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const SIZES = arg('sizes', '100,1000,5000').split(',').map(Number);
const RUNS = Number(arg('runs', '5'));
const ED25519 = arg('ed25519', 'openssl');
if (ED25519 === 'openssl' && !installOpenSslEd25519()) throw new Error('OpenSSL Ed25519 unavailable');
if (ED25519 !== 'openssl' && ED25519 !== 'noble') throw new Error(`--ed25519 must be openssl or noble, got ${ED25519}`);
interface Scenario extends ConeScenario {
  size: number;
}

async function generate(size: number): Promise<Scenario> {
  return { size, ...(await confirmationScenario(size)) };
}

async function once(s: Scenario, kv: KeyValueStore): Promise<{ confirm: number; commit: number; included: number }> {
  const store = await freshLedgerStore(kv, s);
  const t0 = performance.now();
  const c = await confirmMilestone({ store, milestoneBlockId: s.milestone.id, milestoneBlock: s.milestone.block });
  const t1 = performance.now();
  await c.batch.commit();
  const t2 = performance.now();
  const included = c.verdicts.filter((v) => v.ledgerInclusionState === 'included').length;
  if (included !== s.size) throw new Error(`expected ${s.size} included transactions, got ${included}`);
  return { confirm: t1 - t0, commit: t2 - t1, included };
}

function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const engines: { name: string; open: () => Promise<{ kv: KeyValueStore; done: () => Promise<void> }> }[] = [
  { name: 'memory', open: async () => ({ kv: new MemoryKeyValueStore(), done: async () => {} }) },
  {
    name: 'leveldb',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'ledger-bench-'));
      const kv = await LevelKeyValueStore.open(dir);
      return {
        kv,
        done: async () => {
          await kv.close();
          await rm(dir, { recursive: true, force: true });
        },
      };
    },
  },
];

const rows: string[] = [];
for (const size of SIZES) {
  const g0 = performance.now();
  const scenario = await generate(size);
  console.error(`generated ${size} signed transfers in ${((performance.now() - g0) / 1000).toFixed(1)} s`);
  for (const engine of engines) {
    const confirm: number[] = [];
    const commit: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const { kv, done } = await engine.open();
      try {
        const t = await once(scenario, kv);
        confirm.push(t.confirm);
        commit.push(t.commit);
      } finally {
        await done();
      }
    }
    const total = median(confirm.map((c, i) => c + commit[i]!));
    rows.push(
      `| ${String(size).padStart(5)} | ${engine.name.padEnd(7)} ` +
        `| ${median(confirm).toFixed(1).padStart(9)} ` +
        `| ${median(commit).toFixed(1).padStart(8)} | ${total.toFixed(1).padStart(9)} ` +
        `| ${((total / size) * 1000).toFixed(0).padStart(6)} |`,
    );
    console.error(rows[rows.length - 1]);
  }
}
console.log(
  `\nmilestone confirmation, median of ${RUNS} runs (ms; µs/tx = total per transaction block; ` +
    `Ed25519 verify: ${ED25519})\n`,
);
console.log('|  txs  | store   | confirm   | commit   | total     | µs/tx  |');
console.log('|-------|---------|-----------|----------|-----------|--------|');
for (const r of rows) console.log(r);
