/**
 * GET block through `ledger-node run` on a small and on a large store, in one run:
 * `npx tsx benchmarks/rest/scale.ts --data-dir DIR [--small 1000] [--seconds 10] [--concurrency 32] [--sample 20000]`.
 *
 * DIR is a stopped node's data folder, e.g. a million blocks from `ledger-node tool fill --blocks 1000000 --data-dir
 * DIR --min-pow-score 0`. A second folder with `--small` blocks is filled the same way. For each, `sample` block IDs
 * are picked evenly over the whole blocks table (so reads hit old and new blocks, not just the write cache), the node
 * is started, and `concurrency` keep-alive clients GET random ones of them, JSON and raw, for `seconds` each, twice,
 * interleaved: req/s, p50/p99 latency and the node's RSS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { toHex0x } from '../../src/core/bytes.ts';
import { NodeStore, TABLES } from '../../src/core/store/index.ts';
import { openDataDirStore } from '../../src/storage/open.ts';
import { rssMb, spawnNode, type SpawnedNode } from '../../harness/process.ts';
import { httpClient, percentile } from '../load/http.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const LARGE = arg('data-dir', '');
const SMALL = Number(arg('small', '1000'));
const SECONDS = Number(arg('seconds', '10'));
const CONCURRENCY = Number(arg('concurrency', '32'));
const SAMPLE = Number(arg('sample', '20000'));
if (!LARGE) {
  console.error("--data-dir=DIR is required (a stopped node's folder, e.g. filled by ledger-node tool fill)");
  process.exit(2);
}

/** Block IDs spread evenly over the blocks table (v2 IDs only). */
async function sampleIds(dataDir: string): Promise<{ ids: string[]; total: number }> {
  const kv = await openDataDirStore(dataDir);
  try {
    const store = new NodeStore(kv);
    let total = 0;
    for await (const id of store.keys(TABLES.blocks)) if (id.length === 32) total++;
    const step = Math.max(1, Math.floor(total / SAMPLE));
    const ids: string[] = [];
    let i = 0;
    for await (const id of store.keys(TABLES.blocks)) if (id.length === 32 && i++ % step === 0) ids.push(toHex0x(id));
    return { ids, total };
  } finally {
    await kv.close();
  }
}

async function measure(
  node: SpawnedNode,
  ids: string[],
  accept: string,
): Promise<{ rps: number; p50: number; p99: number }> {
  const http = httpClient(node.rest, CONCURRENCY);
  const lat: number[] = [];
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const id = ids[Math.floor(Math.random() * ids.length)]!;
        const t0 = performance.now();
        const res = await http.call('GET', `/api/core/v2/blocks/${id}`, undefined, undefined, { accept });
        if (res.status !== 200) throw new Error(`GET ${id}: ${res.status} ${res.text}`);
        lat.push(performance.now() - t0);
      }
    }),
  );
  http.close();
  return { rps: lat.length / SECONDS, p50: percentile(lat, 50), p99: percentile(lat, 99) };
}

const smallDir = mkdtempSync(join(tmpdir(), 'ledger-bench-scale-'));
try {
  execFileSync(
    process.execPath,
    [
      'bin/ledger-node.js',
      'tool',
      'fill',
      '--blocks',
      String(SMALL),
      '--data-dir',
      smallDir,
      '--min-pow-score',
      '0',
      '--pow-workers',
      '0',
      '--sample',
      '60',
    ],
    { stdio: 'ignore' },
  );
  const stores = [
    { name: 'small', dir: smallDir, ...(await sampleIds(smallDir)) },
    { name: 'large', dir: LARGE, ...(await sampleIds(LARGE)) },
  ];
  const rows: string[] = [];
  for (const round of [1, 2]) {
    for (const s of stores) {
      const node = await spawnNode(s.dir, ['--pow-workers', '0']);
      try {
        for (const [label, accept] of [
          ['JSON', 'application/json'],
          ['raw', 'application/vnd.iota.serializer-v1'],
        ] as const) {
          const r = await measure(node, s.ids, accept);
          rows.push(
            `round ${round}  ${String(s.total).padStart(8)} blocks  GET ${label.padEnd(4)}  ` +
              `${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2)} ms  ` +
              `p99 ${r.p99.toFixed(2)} ms  RSS ${rssMb(node.proc.child.pid!).toFixed(0)} MB`,
          );
          console.log(rows[rows.length - 1]);
        }
      } finally {
        await node.proc.stop(10_000);
      }
    }
  }
} finally {
  rmSync(smallDir, { recursive: true, force: true });
}
