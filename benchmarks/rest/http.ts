/**
 * REST benchmark with a load generator in its own process, on demand (never run by the tests), loopback only:
 *   npx tsx benchmarks/rest/http.ts [--runs=5] [--seconds=5] [--concurrency=32] [--posts=10000] [--blocks=200]
 *                                   [--paths=koa,run,gateway/mux] [--cpu-prof=DIR]
 *
 * The client is autocannon (cannon.ts), a process of its own, so the bare route's ceiling is what the machine serves
 * and not what a client sharing the benchmark's event loop can send (run.ts's node:http client caps it at about
 * 12,800 req/s on a 2-core box). Every server is a process of its own, started as users start it:
 *   koa          the ceiling: a bare Koa app with one @koa/router route answering one stored block's JSON text or bytes
 *                (serve.ts koa); GET only
 *   run          `ledger-node run` (HTTP -> gateway -> the service's port -> service -> store), compiled (dist/)
 *   gateway/mux  a standalone `ledger-node gateway --node <run's gRPC port>` (its default transport, the mux) -> the
 *                same `run` node
 * Operations, at each concurrency (= autocannon connections):
 *   GET block JSON  GET /api/core/v2/blocks/{id} with Accept: application/json, the ids of `--blocks` stored blocks in
 * turn
 *   GET block raw   the same with Accept: application/vnd.iota.serializer-v1
 *   POST block raw  POST /api/core/v2/blocks, `--posts` distinct valid blocks each sent once (the node runs a new dev
 *                   network with --min-pow-score 0, so the blocks carry nonce 0 and need no mining; they are built on
 *                   the node's tips just before the measurement); blocks/s
 * Each run measures every (operation, concurrency, path) once, GET for `--seconds`, the paths in a rotated order from
 * one run to the next; the first run is preceded by a warm-up of every path. Reported: medians over the runs of req/s,
 * p50 and p99 (autocannon's, ms), the serving processes' CPU per request (user + system, from /proc; for the gateway:
 * the gateway's + the node's), and each path's req/s as a share of the Koa ceiling's in the same run (median of the
 * runs' ratios). Any non-2xx answer, error or timeout aborts the benchmark. `--cpu-prof=DIR` writes V8 CPU profiles of
 * the servers there when they stop. The benchmark builds dist/ first (scripts/build.sh, incremental).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toHex, toHex0x } from '../../src/core/bytes.ts';
import { encodeBlock } from '../../src/core/codec/index.ts';
import { blockId } from '../../src/core/ids/index.ts';
import { blockFromJson } from '../../src/core/json/index.ts';
import { scriptArg } from '../../scripts/lib/args.ts';
import { cpuSeconds, spawnGateway, spawnNode, type Spawned } from '../../harness/process.ts';
import { fmt, machineLine, median, push, spawnKoa, stopServer, watched } from './servers.ts';

const int = (name: string, dflt: string, max: number): number => {
  const v = Number(scriptArg(name, dflt));
  if (!Number.isInteger(v) || v < 1 || v > max) throw new Error(`--${name} must be an integer 1..${max}`);
  return v;
};
const RUNS = int('runs', '5', 100);
const SECONDS = int('seconds', '5', 600);
const POSTS = int('posts', '10000', 1000000);
const BLOCKS = int('blocks', '200', 100000);
const CONCURRENCY = scriptArg('concurrency', '32').split(',').map(Number);
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1 || c > 1024))
  throw new Error('--concurrency must list integers 1..1024');
const ALL_PATHS = ['koa', 'run', 'gateway/mux'] as const;
type PathName = (typeof ALL_PATHS)[number];
const PATHS = scriptArg('paths', ALL_PATHS.join(',')).split(',') as PathName[];
if (PATHS.some((p) => !ALL_PATHS.includes(p))) throw new Error(`--paths must list some of ${ALL_PATHS.join(',')}`);
const CPU_PROF = scriptArg('cpu-prof', '');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CANNON = fileURLToPath(new URL('./cannon.ts', import.meta.url));
const RAW = 'application/vnd.iota.serializer-v1';
const V2 = '/api/core/v2';
const OPS = ['GET block JSON', 'GET block raw', 'POST block raw'] as const;
type Op = (typeof OPS)[number];

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  /** CPU of each serving process per request, µs. */
  cpu: number[];
}

interface Target {
  url: string;
  pids: number[];
}

// ---------------------------------------------------------------- blocks

let seq = 0;
/**
 * A tagged-data block on `parents` with nonce 0 (valid at min PoW score 0), distinct from every other one built here.
 */
function taggedBlock(parents: string[]): Uint8Array {
  const data = toHex0x(Buffer.from(`rest benchmark block ${process.pid}-${++seq}-${'.'.repeat(90)}`));
  return encodeBlock(
    blockFromJson({ protocolVersion: 2, parents, payload: { type: 5, tag: '0x62656e6368', data }, nonce: '0' }),
  );
}

async function tips(url: string): Promise<string[]> {
  const r = await fetch(`${url}${V2}/tips`);
  return ((await r.json()) as { tips: string[] }).tips.sort();
}

async function post(url: string, bytes: Uint8Array): Promise<void> {
  const r = await fetch(`${url}${V2}/blocks`, { method: 'POST', headers: { 'content-type': RAW }, body: bytes });
  if (r.status !== 201) throw new Error(`seeding: POST answered ${r.status} ${await r.text()}`);
}

// ---------------------------------------------------------------- the load generator

interface CannonResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: unknown;
}

/** One autocannon measurement in its own process. */
function cannon(spec: object, dir: string): Promise<CannonResult> {
  const file = join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify(spec));
  const child = spawn(process.execPath, ['--import', 'tsx', CANNON, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}: ${out}`)),
    );
  });
}

async function measure(
  t: Target,
  op: Op,
  connections: number,
  dir: string,
  seconds: number,
  posts?: Uint8Array[],
): Promise<Sample> {
  const spec: Record<string, unknown> = { url: t.url, connections };
  if (op === 'POST block raw') {
    const bodiesFile = join(dir, 'bodies.hex');
    writeFileSync(bodiesFile, posts!.map((b) => toHex(b)).join('\n'));
    Object.assign(spec, {
      method: 'POST',
      path: `${V2}/blocks`,
      headers: { 'content-type': RAW },
      amount: posts!.length,
      bodiesFile,
    });
  } else {
    Object.assign(spec, {
      method: 'GET',
      headers: { accept: op === 'GET block raw' ? RAW : 'application/json' },
      seconds,
      paths: ids.map((id) => `${V2}/blocks/${id}`),
    });
  }
  const cpu0 = t.pids.map((p) => cpuSeconds([p]));
  const r = await cannon(spec, dir);
  const cpu = t.pids.map((p, i) => ((cpuSeconds([p]) - cpu0[i]!) * 1e6) / r.requests);
  if (r.non2xx > 0 || r.errors > 0 || r.timeouts > 0) {
    // one request again, to show what the server answers
    const again = posts
      ? await fetch(`${t.url}${V2}/blocks`, { method: 'POST', headers: { 'content-type': RAW }, body: posts[0]! })
      : await fetch(`${t.url}${V2}/blocks/${ids[0]}`);
    const answer = `${again.status} ${(await again.text()).slice(0, 300)}`;
    throw new Error(
      `${op} at ${t.url}: ${r.non2xx} non-2xx (${JSON.stringify(r.statusCodes)}), ` +
        `${r.errors} errors, ${r.timeouts} timeouts; again: ${answer}`,
    );
  }
  return { rps: r.rps, p50: r.p50, p99: r.p99, cpu };
}

const ids: string[] = [];

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  console.log(
    `REST benchmark (autocannon): runs=${RUNS} seconds=${SECONDS} posts=${POSTS} ` +
      `blocks=${BLOCKS} concurrency=${CONCURRENCY.join(',')}`,
  );
  console.log(machineLine());
  execFileSync('bash', [join(ROOT, 'scripts/build.sh')], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-http-'));
  const servers: Spawned[] = [];
  try {
    const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
    const nodeArgs = ['--pow-workers', '0', '--min-pow-score', '0'];
    const run = watched(await spawnNode(join(dir, 'node'), nodeArgs, { nodeFlags: profile }), 'ledger-node run');
    servers.push(run.proc);
    const runUrl = run.rest;
    const runPid = run.proc.child.pid!;
    const targets = new Map<PathName, Target>([['run', { url: runUrl, pids: [runPid] }]]);
    const gw = watched(await spawnGateway(run.grpcPort, [], { nodeFlags: profile }), 'ledger-node gateway');
    servers.push(gw.proc);
    targets.set('gateway/mux', { url: gw.rest, pids: [gw.proc.child.pid!, runPid] });
    // the GET targets: blocks submitted to the node; the ceiling answers the first of them as the node renders it
    const parents = await tips(runUrl);
    for (let i = 0; i < BLOCKS; i++) {
      const bytes = taggedBlock(parents);
      await post(runUrl, bytes);
      ids.push(toHex0x(blockId(bytes)));
    }
    const block = `${runUrl}${V2}/blocks/${ids[0]}`;
    const json = await (await fetch(block, { headers: { accept: 'application/json' } })).text();
    const raw = Buffer.from(await (await fetch(block, { headers: { accept: RAW } })).arrayBuffer());
    const koa = await spawnKoa(json, raw, profile);
    servers.push(koa.proc);
    targets.set('koa', { url: koa.url, pids: [koa.proc.child.pid!] });
    console.log(`seeded ${BLOCKS} blocks (block of ${raw.length} bytes, JSON ${json.length} characters)`);

    const measures = (p: PathName, op: Op): boolean => PATHS.includes(p) && (p !== 'koa' || op !== 'POST block raw');
    const postBatch = async (): Promise<Uint8Array[]> => {
      const parents = await tips(runUrl);
      return Array.from({ length: POSTS }, () => taggedBlock(parents));
    };
    // warm-up: every path and operation once (fresh processes must reach optimized code), not counted
    for (const op of OPS) {
      for (const p of PATHS)
        if (measures(p, op))
          await measure(
            targets.get(p)!,
            op,
            Math.max(...CONCURRENCY),
            dir,
            2,
            op.startsWith('POST') ? (await postBatch()).slice(0, 2000) : undefined,
          );
    }
    const samples = new Map<string, Sample[]>();
    for (let r = 0; r < RUNS; r++) {
      const order = PATHS.map((_, i) => PATHS[(i + r) % PATHS.length]!);
      for (const c of CONCURRENCY) {
        for (const op of OPS) {
          for (const p of order) {
            if (!measures(p, op)) continue;
            const s = await measure(
              targets.get(p)!,
              op,
              c,
              dir,
              SECONDS,
              op.startsWith('POST') ? await postBatch() : undefined,
            );
            push(samples, `${op}|${c}|${p}`, s);
          }
        }
      }
      console.log(`run ${r + 1}/${RUNS} done (load ${loadavg()[0]!.toFixed(2)})`);
    }
    report(samples, PATHS, measures);
  } finally {
    for (const proc of servers.reverse()) await stopServer(proc);
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(samples: Map<string, Sample[]>, paths: PathName[], measures: (p: PathName, op: Op) => boolean): void {
  const get = (op: Op, c: number, p: PathName): Sample[] => samples.get(`${op}|${c}|${p}`) ?? [];
  const med = (op: Op, c: number, p: PathName, f: (s: Sample) => number): number => median(get(op, c, p).map(f));
  /** rps of `p` over the Koa ceiling's in the same run, then the median over the runs. */
  const ofKoa = (op: Op, c: number, p: PathName): number => {
    const a = get(op, c, p);
    const b = get(op, c, 'koa');
    return a.length && b.length ? median(a.map((s, i) => s.rps / b[i]!.rps)) : NaN;
  };
  console.log(
    `\nmedians over ${RUNS} runs (req/s; p50 / p99 ms; CPU of the serving processes ` +
      `per request, µs; of koa = req/s / the ceiling's, same run)`,
  );
  for (const c of CONCURRENCY) {
    console.log(`\n${c} connections`);
    console.log(
      `${'operation'.padEnd(15)}| ${'path'.padEnd(12)}| ${'req/s'.padStart(7)} ` +
        `| ${'p50 / p99'.padStart(12)} | ${'cpu µs'.padStart(12)} | of koa`,
    );
    for (const op of OPS) {
      for (const p of paths) {
        if (!measures(p, op)) continue;
        const lat = `${fmt(
          med(op, c, p, (s) => s.p50),
          1,
        )} / ${fmt(
          med(op, c, p, (s) => s.p99),
          1,
        )}`;
        const cpu = get(op, c, p)[0]!
          .cpu.map((_, i) => fmt(med(op, c, p, (s) => s.cpu[i]!)))
          .join(' + ');
        const share =
          op.startsWith('GET') && paths.includes('koa') ? `${(ofKoa(op, c, p) * 100).toFixed(0).padStart(5)}%` : '';
        console.log(
          `${op.padEnd(15)}| ${p.padEnd(12)}| ${fmt(med(op, c, p, (s) => s.rps)).padStart(7)} ` +
            `| ${lat.padStart(12)} | ${cpu.padStart(12)} | ${share}`,
        );
      }
    }
  }
  const c = 32;
  if (!CONCURRENCY.includes(c) || !paths.includes('run')) return;
  console.log(`\ntargets at ${c} connections:`);
  for (const op of ['GET block JSON', 'GET block raw'] as const) {
    if (!paths.includes('koa')) break;
    const share = ofKoa(op, c, 'run');
    const p99 = med(op, c, 'run', (s) => s.p99);
    console.log(
      `  run ${op}: ${(share * 100).toFixed(0)}% of koa (at least 50%), ` +
        `p99 ${p99.toFixed(1)} ms (at most 10): ${share >= 0.5 && p99 <= 10 ? 'met' : 'MISSED'}`,
    );
  }
  const posts = med('POST block raw', c, 'run', (s) => s.rps);
  console.log(`  run POST block raw: ${fmt(posts)} blocks/s (at least 2,000): ${posts >= 2000 ? 'met' : 'MISSED'}`);
}

await main();
