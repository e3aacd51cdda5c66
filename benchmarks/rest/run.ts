/**
 * REST benchmark, on demand (never run by the tests), loopback only, bounded in time and count:
 *   npx tsx benchmarks/rest/run.ts [--runs=3] [--ms=1000] [--posts=100] [--blocks=200] [--concurrency=1,32]
 * [--get-only]
 *                                  [--paths=koa,run,...] [--mux-streams=1[,N...]] [--cpu-prof=DIR]
 *
 * What is measured, for each operation and each concurrency level (= connections of the HTTP paths):
 *   GET block JSON      GET /api/core/v2/blocks/{id}                       (Accept: application/json)
 *   GET block raw       GET /api/core/v2/blocks/{id}                       (Accept: application/vnd.iota.serializer-v1)
 *   POST block raw      POST /api/core/v2/blocks, pre-mined nonce           (Content-Type:
 * application/vnd.iota.serializer-v1)
 *   POST block JSON     POST /api/core/v2/blocks, pre-mined nonce           (Content-Type: application/json, what
 * iota.js sends) along these paths, so the cost of each hop is visible (every server in its own process, as users run
 * them):
 *   koa        the ceiling: a bare Koa app with one route answering the same block's JSON text or bytes, nothing
 *              else (serve.ts koa); GET only
 *   run        HTTP -> REST gateway -> in-process transport -> service: a spawned `ledger-node run`, as users run it
 *   run/gRPC   HTTP -> REST gateway -> gRPC over loopback -> service: the same node as `ledger-node run` was before
 *              the in-process transport (serve.ts run-over-grpc)
 *   gateway    HTTP -> a spawned standalone `ledger-node gateway --node --node-transport unary` -> a unary gRPC call
 *              per request -> the `run` node
 *   gateway/mux  HTTP -> a spawned standalone `ledger-node gateway --node` (its default transport: the calls as frames
 *              over one long-lived gRPC stream, proto/mux.proto) -> the `run` node; with --mux-streams=1,4 also
 *              `gateway/mux4`, a gateway spreading its calls over 4 streams (each gateway its own process)
 *   gRPC       the generated gRPC client straight to the `run` node's gRPC port (no HTTP, no gateway)
 *   gRPC/mux   the mux client (gateway/mux-client.ts, the same generated client type) straight to that port
 *   service    NodeServiceImpl methods called directly in this process (no HTTP, no gRPC), on its own node
 * The HTTP client is node:http with a keep-alive agent of `concurrency` sockets. The nodes use their default store in
 * temporary folders and the dev network's min PoW score (100): POSTed blocks are mined beforehand with the project's
 * miner (all cores, outside the timed part) on the node's current tips, so the node only checks the score. Each
 * measurement runs `concurrency` loops until `ms` have passed (GET) or its batch of `posts` blocks is used up (POST).
 * Every run measures every (path, operation, concurrency) once, interleaved; the tables show the medians over the runs
 * of rps, p50 and p99, the CPU time (user + system, read from /proc where there is one) the serving processes spent per
 * call (for the standalone gateways split into the gateway's and the node's share), and each HTTP path's rps as a share
 * of the Koa ceiling measured in the same run. Any non-2xx answer aborts the benchmark. `--cpu-prof=DIR` writes V8 CPU
 * profiles of the `run` node, the standalone gateways and the Koa ceiling there (node --cpu-prof) when they stop;
 * `--paths=koa,run` measures only the paths listed.
 * The machine is shared and has 2 cores (client and servers compete for them): read medians and ratios.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentials, type ServiceError } from '@grpc/grpc-js';
import { concatBytes, toHex0x } from '../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../src/core/codec/index.ts';
import { blockFromJson, blockToJson } from '../../src/core/json/index.ts';
import { blockId } from '../../src/core/ids/index.ts';
import { nonceToBytes } from '../../src/core/pow/index.ts';
import { BlockView, NodeServiceClient, type SubmitBlockRequest } from '../../src/grpc/gen/node.ts';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import { defaultConfig, DEV_MIN_POW_SCORE } from '../../src/node/config.ts';
import { silentLogger } from '../../src/node/logger.ts';
import { startNode } from '../../src/node/node.ts';
import { createMiner, type Miner } from '../../src/node/pow/miner.ts';
import { scriptArg, scriptSwitch } from '../../scripts/lib/args.ts';
import { cpuSeconds, fmt, median, NODE_READY, spawnServer, stopChild } from './servers.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const RUNS = Number(arg('runs', '3'));
const MS = Number(arg('ms', '1000'));
const POSTS = Number(arg('posts', '100'));
const BLOCKS = Number(arg('blocks', '200'));
const CONCURRENCY = arg('concurrency', '1,32').split(',').map(Number);
const GET_ONLY = scriptSwitch('get-only');
const CPU_PROF = arg('cpu-prof', '');
for (const [k, v] of Object.entries({ RUNS, MS, POSTS, BLOCKS })) {
  if (!Number.isInteger(v) || v < 1 || v > 100000) throw new Error(`--${k.toLowerCase()} must be an integer 1..100000`);
}
const WARMUP = 20;
if (POSTS <= 2 * WARMUP) throw new Error(`--posts must be more than ${2 * WARMUP}`);
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1 || c > 256))
  throw new Error('--concurrency must list integers 1..256');

const BIN = fileURLToPath(new URL('../../bin/ledger-node.js', import.meta.url));
const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const RAW = 'application/vnd.iota.serializer-v1';
const V2 = '/api/core/v2';

type Op = 'GET block JSON' | 'GET block raw' | 'POST block raw' | 'POST block JSON';
const OPS: Op[] = GET_ONLY
  ? ['GET block JSON', 'GET block raw']
  : ['GET block JSON', 'GET block raw', 'POST block raw', 'POST block JSON'];
const MUX_STREAMS = arg('mux-streams', '1').split(',').map(Number);
if (MUX_STREAMS.some((n) => !Number.isInteger(n) || n < 1 || n > 64))
  throw new Error('--mux-streams must list integers 1..64');
/** The standalone gateway over the mux with `n` streams. */
const muxPath = (n: number): string => (n === 1 ? 'gateway/mux' : `gateway/mux${n}`);
type PathName = string;
const GATEWAY_PATHS: PathName[] = ['gateway', ...MUX_STREAMS.map(muxPath)];
const ALL_PATHS: PathName[] = ['koa', 'run', 'run/gRPC', ...GATEWAY_PATHS, 'gRPC', 'gRPC/mux', 'service'];
const PATHS = arg('paths', ALL_PATHS.join(',')).split(',') as PathName[];
if (PATHS.some((p) => !ALL_PATHS.includes(p))) throw new Error(`--paths must list some of ${ALL_PATHS.join(',')}`);
/** The paths that answer over HTTP (their rps is compared with the Koa ceiling). */
const HTTP_PATHS: PathName[] = ['koa', 'run', 'run/gRPC', ...GATEWAY_PATHS];
const measures = (p: PathName, op: Op): boolean => PATHS.includes(p) && (p !== 'koa' || op.startsWith('GET'));

/** One call of an operation; resolves when the answer is complete, rejects on any failure. */
type Call = (i: number) => Promise<void>;

interface Target {
  ids: Uint8Array[];
  /** The node's tips as sorted 0x-hex (parents of pre-mined blocks). */
  tips(): Promise<string[]>;
  getJson(id: Uint8Array): Promise<void>;
  getRaw(id: Uint8Array): Promise<void>;
  postRaw(bytes: Uint8Array): Promise<void>;
  postJson(text: string): Promise<void>;
  /** The serving processes (their CPU time per call is reported). */
  pids?: number[];
  /** Drops idle keep-alive connections (a server closes them after 5 s idle, racing the next request). */
  reset?(): void;
}

// ---------------------------------------------------------------- the spawned servers

function httpTarget(port: number, maxSockets: number): Target & { agent: Agent } {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const send = (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Uint8Array | string,
    want = 200,
  ): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          if (res.statusCode !== want)
            reject(new Error(`${method} ${path}: ${res.statusCode} ${buf.toString().slice(0, 200)}`));
          else resolve(buf);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    agent,
    ids: [],
    reset() {
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    },
    async tips() {
      return (JSON.parse((await send('GET', `${V2}/tips`, {})).toString()) as { tips: string[] }).tips.sort();
    },
    async getJson(id) {
      await send('GET', `${V2}/blocks/${toHex0x(id)}`, { accept: 'application/json' });
    },
    async getRaw(id) {
      await send('GET', `${V2}/blocks/${toHex0x(id)}`, { accept: RAW });
    },
    async postRaw(bytes) {
      await send('POST', `${V2}/blocks`, { 'content-type': RAW, 'content-length': String(bytes.length) }, bytes, 201);
    },
    async postJson(text) {
      await send(
        'POST',
        `${V2}/blocks`,
        { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
        text,
        201,
      );
    },
  };
}

/** The NodeService surface both the gRPC client (promisified) and the in-process service offer. */
interface ServiceLike {
  getBlock(req: { blockId: Uint8Array; view: BlockView }): Promise<{ raw: Uint8Array; json: string }>;
  submitBlock(req: SubmitBlockRequest): Promise<{ blockId: Uint8Array }>;
  getTips(req: { allowSemiLazy: boolean }): Promise<{ tips: Uint8Array[] }>;
}

function serviceTarget(service: ServiceLike): Target {
  return {
    ids: [],
    async tips() {
      return (await service.getTips({ allowSemiLazy: false })).tips.map(toHex0x).sort();
    },
    async getJson(blockId) {
      const r = await service.getBlock({ blockId, view: BlockView.BLOCK_VIEW_JSON });
      if (r.json.length === 0) throw new Error('no JSON');
    },
    async getRaw(blockId) {
      const r = await service.getBlock({ blockId, view: BlockView.BLOCK_VIEW_RAW });
      if (r.raw.length === 0) throw new Error('no bytes');
    },
    async postRaw(value) {
      await service.submitBlock({ block: { $case: 'raw', value } });
    },
    async postJson(value) {
      await service.submitBlock({ block: { $case: 'json', value } });
    },
  };
}

function grpcService(client: NodeServiceClient): ServiceLike {
  const unary =
    <Q, R>(fn: (req: Q, cb: (err: ServiceError | null, res: R) => void) => unknown) =>
    (req: Q): Promise<R> =>
      new Promise((resolve, reject) => fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res))));
  return {
    getBlock: unary(client.getBlock),
    submitBlock: unary(client.submitBlock),
    getTips: unary(client.getTips),
  };
}

// ---------------------------------------------------------------- blocks

let seq = 0;
function taggedBlockJson(parents: string[] | undefined, nonce = '0'): Record<string, unknown> {
  const data = '0x' + Buffer.from(`rest benchmark block ${process.pid}-${++seq}-${'.'.repeat(40)}`).toString('hex');
  return {
    protocolVersion: 2,
    ...(parents ? { parents } : {}),
    payload: { type: 5, tag: '0x62656e6368', data },
    nonce,
  };
}

/** `count` blocks on `parents`, mined to the dev min PoW score: raw bytes and their canonical JSON text. */
async function preMine(miner: Miner, parents: string[], count: number): Promise<{ raw: Uint8Array[]; json: string[] }> {
  const raw: Uint8Array[] = [];
  const json: string[] = [];
  for (let i = 0; i < count; i++) {
    const unmined = encodeBlock(blockFromJson(taggedBlockJson(parents)));
    const body = unmined.subarray(0, unmined.length - 8);
    const { nonce } = await miner.mine(body, DEV_MIN_POW_SCORE);
    const bytes = concatBytes(body, nonceToBytes(nonce));
    raw.push(bytes);
    json.push(JSON.stringify(blockToJson(decodeBlock(bytes))));
  }
  return { raw, json };
}

// ---------------------------------------------------------------- measurement

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  n: number;
  /** CPU time the serving processes spent per call, µs (NaN where not known). */
  cpuUs: number;
  /** The same per serving process, in the order of the target's pids (a gateway, then the node). */
  cpuEach: number[];
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** `concurrency` loops calling `call(i)` with i = 0, 1, ... until `limit` calls or `ms` elapsed. */
async function measure(
  call: Call,
  concurrency: number,
  limit: number,
  ms: number,
  pids: readonly number[] = [],
): Promise<Sample> {
  const lat: number[] = [];
  let next = 0;
  const cpu0 = pids.length > 0 ? cpuSeconds(pids) : NaN;
  const each0 = pids.map((pid) => cpuSeconds([pid]));
  const start = performance.now();
  const deadline = start + ms;
  const loop = async (): Promise<void> => {
    while (next < limit && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await call(i);
      lat.push(performance.now() - t);
    }
  };
  // every loop ends before the first failure is reported (a rejection left behind would end the process unreported)
  const failed = (await Promise.allSettled(Array.from({ length: concurrency }, loop))).find(
    (r) => r.status === 'rejected',
  );
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const elapsed = performance.now() - start;
  const cpuUs = ((cpuSeconds(pids) - cpu0) * 1e6) / lat.length;
  const cpuEach = pids.map((pid, i) => ((cpuSeconds([pid]) - each0[i]!) * 1e6) / lat.length);
  lat.sort((a, b) => a - b);
  return {
    rps: (lat.length / elapsed) * 1000,
    p50: percentile(lat, 0.5),
    p99: percentile(lat, 0.99),
    n: lat.length,
    cpuUs,
    cpuEach,
  };
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const maxC = Math.max(...CONCURRENCY);
  console.log(
    `REST benchmark: runs=${RUNS} ms=${MS} posts=${POSTS} blocks=${BLOCKS} concurrency=${CONCURRENCY.join(',')}${GET_ONLY ? ' get-only' : ''}`,
  );
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'ledger-bench-rest-')));
  const children: ChildProcess[] = [];
  const clients: NodeServiceClient[] = [];
  const muxPorts: { close(): void }[] = [];
  const agents: Agent[] = [];
  const service = await startNode(
    { ...defaultConfig(), dataDir: dirs[2]!, restPort: 0, grpcPort: 0, powWorkers: 0 },
    { rest: false, logger: silentLogger },
  );
  const miner = createMiner();
  const http = (port: number): Target => {
    const t = httpTarget(port, maxC);
    agents.push(t.agent);
    return t;
  };
  const grpcTo = (port: number, mux = false): Target => {
    if (mux) {
      const port_ = createMuxNodePort(`127.0.0.1:${port}`);
      muxPorts.push(port_);
      return serviceTarget({
        getBlock: (r) => port_.getBlock(r),
        submitBlock: (r) => port_.submitBlock(r),
        getTips: (r) => port_.getTips(r),
      });
    }
    const client = new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
    clients.push(client);
    return serviceTarget(grpcService(client));
  };
  try {
    const nodeArgs = [
      'run',
      '--data-dir',
      dirs[0]!,
      '--rest-port',
      '0',
      '--grpc-port',
      '0',
      '--peer-port',
      '0',
      '--pow-workers',
      '0',
    ];
    const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
    const run = await spawnServer([...profile, BIN, ...nodeArgs], NODE_READY);
    children.push(run.child);
    const runGrpcPort = Number(run.captures[0]);
    const before = await spawnServer(['--import', 'tsx', SERVE, 'run-over-grpc', dirs[1]!], NODE_READY);
    children.push(before.child);
    const targets: Partial<Record<PathName, Target>> = {
      run: http(Number(run.captures[1])),
      'run/gRPC': http(Number(before.captures[1])),
      gRPC: grpcTo(runGrpcPort),
      'gRPC/mux': grpcTo(runGrpcPort, true),
      service: serviceTarget(service.parts.service),
    };
    // the standalone gateways, each its own process: unary gRPC calls, and the mux with each number of streams
    const gateways = new Map<PathName, ChildProcess>();
    for (const p of GATEWAY_PATHS) {
      const transport =
        p === 'gateway'
          ? ['--node-transport', 'unary']
          : ['--node-transport', 'mux', '--node-streams', String(MUX_STREAMS[GATEWAY_PATHS.indexOf(p) - 1])];
      const gw = await spawnServer(
        [...profile, BIN, 'gateway', '--node', `127.0.0.1:${runGrpcPort}`, '--rest-port', '0', ...transport],
        [/gateway listening on 127\.0\.0\.1:(\d+)/],
      );
      children.push(gw.child);
      gateways.set(p, gw.child);
      targets[p] = http(Number(gw.captures[0]));
    }
    // the GET targets: blocks submitted (node picks parents; min PoW 100 mined here) to each node
    await miner.searcherNames();
    const seeded = { run: targets.gRPC!, 'run/gRPC': grpcTo(Number(before.captures[0])), service: targets.service! };
    for (const t of Object.values(seeded)) {
      const { raw } = await preMine(miner, await t.tips(), BLOCKS);
      for (const bytes of raw) await t.postRaw(bytes);
      t.ids = raw.map((b) => blockId(b));
    }
    targets.run!.ids = targets['gRPC/mux']!.ids = seeded.run.ids;
    targets.run!.pids = targets.gRPC!.pids = targets['gRPC/mux']!.pids = [run.child.pid!];
    targets['run/gRPC']!.pids = [before.child.pid!];
    for (const [p, child] of gateways) {
      targets[p]!.ids = seeded.run.ids;
      targets[p]!.pids = [child.pid!, run.child.pid!];
    }
    targets['run/gRPC']!.ids = seeded['run/gRPC'].ids;
    // the ceiling answers one of those blocks, exactly as the node renders it
    const sample = await grpcService(clients[0]!).getBlock({
      blockId: seeded.run.ids[0]!,
      view: BlockView.BLOCK_VIEW_UNSPECIFIED,
    });
    const koa = await spawnServer(
      [
        ...profile,
        '--import',
        'tsx',
        SERVE,
        'koa',
        Buffer.from(sample.json).toString('base64'),
        Buffer.from(sample.raw).toString('hex'),
      ],
      [/koa listening on 127\.0\.0\.1:(\d+)/],
    );
    children.push(koa.child);
    targets.koa = http(Number(koa.captures[0]));
    targets.koa.ids = seeded.run.ids;
    targets.koa.pids = [koa.child.pid!];
    console.log(
      `seeded ${BLOCKS} blocks per node (block of ${sample.raw.length} bytes, JSON ${sample.json.length} characters)`,
    );
    // pre-mine every POST batch (on the tips each node has now; all batches share them)
    const batches = new Map<string, { raw: Uint8Array[]; json: string[] }>();
    if (!GET_ONLY) {
      console.log(`pre-mining ${POSTS} blocks per POST measurement...`);
      const mineStart = performance.now();
      for (const p of PATHS) {
        if (!measures(p, 'POST block raw')) continue;
        const parents = await targets[p]!.tips();
        for (let run = 0; run < RUNS; run++) {
          for (const c of CONCURRENCY) {
            for (const op of ['POST block raw', 'POST block JSON'] as const)
              batches.set(`${p}|${op}|${c}|${run}`, await preMine(miner, parents, POSTS));
          }
        }
      }
      console.log(
        `pre-mined ${batches.size * POSTS} blocks in ${((performance.now() - mineStart) / 1000).toFixed(1)} s`,
      );
    }
    await miner.close();

    const samples = new Map<string, Sample[]>();
    for (let run = 0; run < RUNS; run++) {
      for (const c of CONCURRENCY) {
        for (const op of OPS) {
          for (const p of PATHS) {
            if (!measures(p, op)) continue;
            const t = targets[p]!;
            let call: Call;
            let limit = Number.MAX_SAFE_INTEGER;
            if (op === 'GET block JSON') call = (i) => t.getJson(t.ids[i % t.ids.length]!);
            else if (op === 'GET block raw') call = (i) => t.getRaw(t.ids[i % t.ids.length]!);
            else {
              const batch = batches.get(`${p}|${op}|${c}|${run}`)!;
              limit = POSTS;
              call = op === 'POST block raw' ? (i) => t.postRaw(batch.raw[i]!) : (i) => t.postJson(batch.json[i]!);
            }
            // warm-up: GET calls for 1 s (fresh processes must reach optimized code), for POST the batch's first 20
            // blocks; then the timed part
            const key = `${op}|${c}|${p}`;
            let s: Sample;
            t.reset?.();
            try {
              if (op.startsWith('POST')) await measure(call, c, WARMUP, 1000);
              else await measure(call, c, Number.MAX_SAFE_INTEGER, 1000);
              s = await measure(op.startsWith('POST') ? (i) => call(i + WARMUP) : call, c, limit - WARMUP, MS, t.pids);
            } catch (e) {
              throw new Error(`${op} on ${p} at concurrency ${c} failed: ${(e as Error).message}`, { cause: e });
            }
            (samples.get(key) ?? samples.set(key, []).get(key)!).push(s);
          }
        }
      }
      console.log(`run ${run + 1}/${RUNS} done`);
    }

    const med = (op: Op, c: number, p: PathName, f: (s: Sample) => number): number =>
      median((samples.get(`${op}|${c}|${p}`) ?? []).map(f));
    /**
     * rps of `p` over the rps of `base`, run by run (same run, same machine state), then the median; NaN when one is
     * not measured.
     */
    const ratio = (op: Op, c: number, p: PathName, base: PathName): number => {
      const a = samples.get(`${op}|${c}|${p}`);
      const b = samples.get(`${op}|${c}|${base}`);
      return a && b ? median(a.map((s, i) => s.rps / b[i]!.rps)) : NaN;
    };
    const ofKoa = (op: Op, c: number, p: PathName): number => ratio(op, c, p, 'koa');
    console.log(
      `\nmedians over ${RUNS} runs (rps = completed calls per second; p50 / p99 latency in ms; of koa = rps / the Koa ceiling's rps in the same run;` +
        ` cpu = CPU time of the serving processes per call, µs)`,
    );
    for (const c of CONCURRENCY) {
      console.log(`\nconcurrency ${c}`);
      console.log(
        `${'operation'.padEnd(17)}| ${'path'.padEnd(12)}| ${'rps'.padStart(8)} | ${'p50 / p99 ms'.padStart(17)} | ${'cpu'.padStart(5)} | ${'gw + node'.padStart(11)} | of koa`,
      );
      for (const op of OPS) {
        for (const p of PATHS) {
          if (!measures(p, op)) continue;
          const lat = `${med(op, c, p, (x) => x.p50).toFixed(3)} / ${med(op, c, p, (x) => x.p99).toFixed(3)}`;
          const share =
            op.startsWith('GET') && HTTP_PATHS.includes(p) && PATHS.includes('koa')
              ? `${(ofKoa(op, c, p) * 100).toFixed(0).padStart(5)}%`
              : '';
          const cpu = med(op, c, p, (x) => x.cpuUs);
          const split = GATEWAY_PATHS.includes(p)
            ? `${fmt(med(op, c, p, (x) => x.cpuEach[0]!))} + ${fmt(med(op, c, p, (x) => x.cpuEach[1]!))}`
            : '';
          console.log(
            `${op.padEnd(17)}| ${p.padEnd(12)}| ${fmt(med(op, c, p, (x) => x.rps)).padStart(8)} | ${lat.padStart(17)} | ${(Number.isNaN(cpu) ? '' : fmt(cpu)).padStart(5)} | ${split.padStart(11)} | ${share}`,
          );
        }
      }
    }
    if (CONCURRENCY.includes(1) && ALL_PATHS.every((p) => PATHS.includes(p))) {
      console.log('\nper-call cost of each hop at concurrency 1 (differences of the median p50s, ms):');
      for (const op of OPS) {
        const p50 = (p: PathName) => med(op, 1, p, (x) => x.p50);
        console.log(
          `  ${op.padEnd(16)} service ${p50('service').toFixed(3)}  + HTTP/gateway in process ${(p50('run') - p50('service')).toFixed(3)} = run ${p50('run').toFixed(3)}` +
            `  |  + gRPC hop ${(p50('gRPC') - p50('service')).toFixed(3)} + HTTP/gateway ${(p50('run/gRPC') - p50('gRPC')).toFixed(3)} = run/gRPC ${p50('run/gRPC').toFixed(3)}`,
        );
      }
    }
    if (PATHS.includes('run') && PATHS.includes('koa'))
      console.log(
        `\n\`ledger-node run\` GET block at ${maxC} connections (target: at least 40% of the Koa ceiling, p99 under 10 ms):`,
      );
    for (const op of PATHS.includes('run') && PATHS.includes('koa')
      ? (['GET block JSON', 'GET block raw'] as const)
      : []) {
      const share = ofKoa(op, maxC, 'run');
      const p99 = med(op, maxC, 'run', (x) => x.p99);
      const speedup = ratio(op, maxC, 'run', 'run/gRPC');
      const met = share >= 0.4 && p99 < 10;
      console.log(
        `  ${op.padEnd(15)} ${fmt(med(op, maxC, 'run', (x) => x.rps))} rps = ${(share * 100).toFixed(0)}% of koa (${fmt(med(op, maxC, 'koa', (x) => x.rps))} rps), p99 ${p99.toFixed(2)} ms, ` +
          `${speedup.toFixed(2)}x run/gRPC: ${met ? 'met' : 'MISSED'}`,
      );
    }
  } finally {
    await miner.close();
    for (const a of agents) a.destroy();
    for (const c of [...clients, ...muxPorts]) c.close();
    await service.stop();
    for (const child of children.reverse()) await stopChild(child);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
