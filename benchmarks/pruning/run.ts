/**
 * Pruning under a steady write load: `npx tsx benchmarks/pruning/run.ts [--blocks 300000] [--keep 20] [--sample 15]
 * [--engine rocksdb|leveldb] [--allocator both|jemalloc|glibc] [--data-dir DIR]`.
 *
 * With `--allocator both` (the default) two nodes run the same steps side by side on folders of their own, one on
 * jemalloc (preloaded, as `npm start` does; scripts/ensure-jemalloc.sh) and one on glibc's malloc, so both see the same
 * machine load; the end compares how their RSS grew after warm-up (the first fifth of the blocks).
 *
 *   1. `ledger-node run` on a fresh folder (min PoW score 0, a milestone every second): one tagged-data block is posted
 *      and followed until a milestone references it (the "early block"); the node stops;
 *   2. `ledger-node tool fill --blocks N --prune-milestones K --milestone-interval 1` on the same folder (with
 *      `npm start`'s memory settings: a 256 MB V8 heap cap, MALLOC_ARENA_MAX=2): every `--sample` seconds one row
 *      with the blocks stored, the confirmed milestone, the pruning index (from the node's log), the store's size on
 *      disk, the process's RSS and its V8 heap;
 *   3. `ledger-node run` again: GET of the early block must answer 404 and say "pruned", GET /info's pruningIndex;
 *   4. `ledger-node tool check` on the stopped store.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderSize } from '../../src/node/pruning/size.ts';
import { BIN, rssMb, spawnNode } from '../../harness/process.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const BLOCKS = Number(arg('blocks', '300000'));
const KEEP = arg('keep', '20');
const SAMPLE = Number(arg('sample', '15'));
const ENGINE = arg('engine', 'rocksdb');
type Allocator = 'jemalloc' | 'glibc';
const FLAGS = ['--min-pow-score', '0', '--milestone-interval', '1', '--db-engine', ENGINE];

const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(url, init);
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

async function earlyBlock(dir: string): Promise<string> {
  const node = await spawnNode(dir, FLAGS);
  try {
    const hex = (s: string): string => `0x${Buffer.from(s).toString('hex')}`;
    const posted = await json(`${node.rest}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: hex('early'), data: hex('early block') } }),
    });
    const id = posted.body['blockId'] as string;
    for (;;) {
      const md = await json(`${node.rest}/api/core/v2/blocks/${id}/metadata`);
      if (md.body['referencedByMilestoneIndex'] !== undefined) {
        return `${id} (referenced by milestone ${String(md.body['referencedByMilestoneIndex'])})`;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await node.proc.stop();
  }
}

interface Sample {
  blocks: number;
  rss: number;
}

/** The library `npm start` preloads (scripts/ensure-jemalloc.sh), or a reason why there is none. */
function jemallocLibrary(): string {
  const r = spawnSync('bash', [fileURLToPath(new URL('../../scripts/ensure-jemalloc.sh', import.meta.url))], {
    encoding: 'utf8',
    env: { ...process.env, LEDGER_NODE_ALLOCATOR: 'jemalloc' },
  });
  if (r.status !== 0) throw new Error(`no jemalloc: ${r.stderr.trim()}`);
  return r.stdout.trim();
}

async function fill(dir: string, allocator: Allocator, log: (line: string) => void): Promise<Sample[]> {
  const args = [
    BIN,
    'tool',
    'fill',
    '--blocks',
    String(BLOCKS),
    '--sample',
    String(SAMPLE),
    '--verbose',
    '--data-dir',
    dir,
    '--prune-milestones',
    KEEP,
    ...FLAGS,
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: '2' };
  delete env['LD_PRELOAD'];
  if (allocator === 'jemalloc') env['LD_PRELOAD'] = jemallocLibrary();
  const child = spawn(process.execPath, ['--max-old-space-size=256', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const samples: Sample[] = [];
  let pruningIndex = 0;
  let runs = 0;
  const onLine = (line: string): void => {
    const p = / pruning index (\d+)/.exec(line);
    if (p) {
      pruningIndex = Number(p[1]);
      runs++;
    }
    // The fill's sample line: one row, with the store's size and the process's RSS at that moment.
    const s = /^(\d+) s: (\d+) stored \((\d+)\/s\).*confirmed milestone (\d+).*V8 heap (\d+)/.exec(line);
    if (s) {
      const size = folderSize(join(dir, ENGINE === 'rocksdb' ? 'db-rocksdb' : 'db'));
      const rss = rssMb(child.pid!);
      samples.push({ blocks: Number(s[2]), rss });
      log(
        `| ${allocator} | ${s[1]} s | ${s[2]} (${s[3]}/s) | ${s[4]} | ${pruningIndex} (${runs}) ` +
          `| ${mb(size)} MB | ${rss.toFixed(0)} MB | ${s[5]} MB |`,
      );
    } else if (/filled|refused|ERROR|WARN|memory allocator/.test(line)) log(`  ${allocator} fill: ${line}`);
  };
  let buffer = '';
  const feed = (chunk: Buffer): void => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    lines.forEach(onLine);
  };
  child.stdout.on('data', feed);
  child.stderr.on('data', feed);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`fill exited with ${code}`);
  return samples;
}

/** RSS growth after warm-up: least-squares slope in MB per 100,000 blocks over the samples past the first fifth. */
function growth(samples: readonly Sample[]): string {
  const after = samples.filter((x) => x.blocks >= BLOCKS / 5);
  if (after.length < 3) return 'too few samples';
  const n = after.length;
  const mx = after.reduce((a, x) => a + x.blocks, 0) / n;
  const my = after.reduce((a, x) => a + x.rss, 0) / n;
  const slope =
    after.reduce((a, x) => a + (x.blocks - mx) * (x.rss - my), 0) / after.reduce((a, x) => a + (x.blocks - mx) ** 2, 0);
  const rss = after.map((x) => x.rss).sort((a, b) => a - b);
  return (
    `RSS after warm-up ${rss[0]!.toFixed(0)}-${rss[n - 1]!.toFixed(0)} MB ` +
    `(median ${rss[n >> 1]!.toFixed(0)}), slope ${(slope * 1e5).toFixed(1)} MB per 100,000 blocks ` +
    `over ${n} samples`
  );
}

async function pipeline(allocator: Allocator, log: (line: string) => void): Promise<string> {
  const given = arg('data-dir', '');
  const dir = given ? join(given, allocator) : mkdtempSync(join(tmpdir(), `ledger-bench-prune-${allocator}-`));
  try {
    const early = await earlyBlock(dir);
    log(`${allocator}: early block ${early}`);
    const earlyId = early.split(' ')[0]!;
    const samples = await fill(dir, allocator, log);
    const node = await spawnNode(dir, FLAGS);
    try {
      const info = await json(`${node.rest}/api/core/v2/info`);
      const status = info.body['status'] as Record<string, unknown>;
      log(
        `${allocator}: after the fill: ` +
          `confirmed milestone ${JSON.stringify(status['confirmedMilestone'])}, ` +
          `pruningIndex ${String(status['pruningIndex'])}`,
      );
      const r = await json(`${node.rest}/api/core/v2/blocks/${earlyId}`);
      log(`${allocator}: GET the early block: ${r.status} ${JSON.stringify(r.body)}`);
    } finally {
      await node.proc.stop();
    }
    const check = spawn(process.execPath, [BIN, 'tool', 'check', '--data-dir', dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    check.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => check.once('exit', resolve));
    log(`${allocator}: tool check: exit ${code}: ${out.trim().split('\n').slice(-1)[0]}`);
    return `${allocator}: ${growth(samples)}`;
  } finally {
    if (!given) rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const which = arg('allocator', 'both');
  const allocators: Allocator[] = which === 'both' ? ['jemalloc', 'glibc'] : [which as Allocator];
  if (!allocators.every((a) => a === 'jemalloc' || a === 'glibc'))
    throw new Error(`--allocator: both, jemalloc or glibc, not ${which}`);
  console.log(
    `${BLOCKS} blocks, --prune-milestones ${KEEP}, ${ENGINE}, ` +
      `${allocators.join(' and ')}${allocators.length > 1 ? ' side by side' : ''}`,
  );
  console.log(
    '| allocator | time | blocks stored (rate) | confirmed milestone | pruning index (runs) | ' +
      'store on disk | RSS | V8 heap |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const summaries = await Promise.all(allocators.map((a) => pipeline(a, (line) => console.log(line))));
  for (const s of summaries) console.log(s);
}

await main();
