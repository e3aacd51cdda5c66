/**
 * The node's milestone path, on demand (never run by the tests):
 *   npx tsx benchmarks/ledger-node/run.ts [--sizes=100,1000] [--runs=3] [--ed25519=openssl|noble]
 *   (--ed25519=noble: without the OpenSSL fast path that the node installs at start-up)
 *
 * For each size N: a fresh dev network (LevelDB in a temp folder, min PoW 0) and N tagged-data blocks submitted
 * through the node's submission path (each on the previous block and an auto-selected tip), then ONE built-in
 * coordinator round is timed: URTS tip selection, a White-Flag dry run for both roots, signing, the submission of
 * the milestone block, and its confirmation (one atomic LevelDB batch). Also timed: GetTips and GetBlockMetadata
 * (tip score) on the resulting DAG before the milestone. Medians over the runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareBytes } from '../../src/core/bytes.ts';
import { encodeBlock } from '../../src/core/codec/index.ts';
import type { Block } from '../../src/core/model/index.ts';
import { NodeStore } from '../../src/core/store/index.ts';
import { LevelKeyValueStore } from '../../src/storage/index.ts';
import { composeNode } from '../../src/node/compose.ts';
import { devNetworkGenesis } from '../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../src/node/genesis/genesis-ledger.ts';
import { recordGenesis } from '../../src/node/genesis/open-network.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const SIZES = arg('sizes', '100,1000').split(',').map(Number);
const RUNS = Number(arg('runs', '3'));
const ED25519 = arg('ed25519', 'openssl');
if (ED25519 !== 'openssl' && ED25519 !== 'noble') throw new Error(`--ed25519 must be openssl or noble, got ${ED25519}`);
if (ED25519 === 'openssl' && !installOpenSslEd25519()) throw new Error('OpenSSL Ed25519 unavailable');
const quiet = { info: () => undefined, warn: () => undefined, error: (m: string, e?: unknown) => console.error(m, e) };
const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function once(n: number): Promise<{ issue: number; tips: number; metadata: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-ledger-node-'));
  const kv = await LevelKeyValueStore.open(join(dir, 'db'));
  try {
    const store = await NodeStore.open(kv);
    const g = devNetworkGenesis({ minPowScore: 0 });
    const network = await recordGenesis(store, g);
    const parts = await composeNode({
      store,
      network,
      version: 'bench',
      logger: quiet,
      coordinator: coordinatorOf(g)!,
    });
    const { service } = parts;
    const coordinator = parts.coordinator!;
    await coordinator.issue();
    let previous: Uint8Array | undefined;
    for (let i = 0; i < n; i++) {
      const tips = (await service.getTips({ allowSemiLazy: false })).tips;
      const parents = [...new Map([...(previous ? [previous] : []), tips[0]!].map((p) => [p.join(), p])).values()].sort(
        compareBytes,
      );
      const block: Block = {
        protocolVersion: 2,
        parents,
        payload: { type: 5, tag: new TextEncoder().encode(`b${i}`), data: new Uint8Array(0) },
        nonce: 0n,
      };
      previous = (await service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
    }
    let t = performance.now();
    await service.getTips({ allowSemiLazy: false });
    const tips = performance.now() - t;
    t = performance.now();
    await service.getBlockMetadata({ blockId: previous! });
    const metadata = performance.now() - t;
    t = performance.now();
    await coordinator.issue();
    const issue = performance.now() - t;
    await parts.stop();
    return { issue, tips, metadata };
  } finally {
    await kv.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log('| blocks in the cone | coordinator round (ms) | GetTips (ms) | GetBlockMetadata (ms) |');
console.log('|---|---|---|---|');
for (const n of SIZES) {
  const rows = [];
  for (let r = 0; r < RUNS; r++) rows.push(await once(n));
  console.log(
    `| ${n} | ${median(rows.map((x) => x.issue)).toFixed(1)} ` +
      `| ${median(rows.map((x) => x.tips)).toFixed(2)} ` +
      `| ${median(rows.map((x) => x.metadata)).toFixed(2)} |`,
  );
}
