/**
 * REST benchmark, on demand (never run by the tests), loopback only, bounded in time and count:
 *   npx tsx benchmarks/rest/run.ts [--runs=3] [--ms=1000] [--posts=100] [--blocks=200] [--concurrency=1,16]
 *
 * What is measured, for each operation and each concurrency level:
 *   GET block JSON      GET /api/core/v2/blocks/{id}                       (Accept: application/json)
 *   GET block raw       GET /api/core/v2/blocks/{id}                       (Accept: application/vnd.iota.serializer-v1)
 *   POST block raw      POST /api/core/v2/blocks, pre-mined nonce           (Content-Type: application/vnd.iota.serializer-v1)
 *   POST block JSON     POST /api/core/v2/blocks, pre-mined nonce           (Content-Type: application/json, what iota.js sends)
 * along three paths, so the cost of each hop is visible:
 *   gateway    HTTP -> REST gateway -> gRPC -> service: a spawned `ledger-node run` (its in-process gateway talks to
 *              its gRPC server over loopback, as users run it); client: node:http with a keep-alive agent
 *   gRPC       the generated gRPC client straight to the same spawned node's gRPC port (no HTTP, no gateway)
 *   in-process NodeServiceImpl methods called directly in this process (no HTTP, no gRPC), on its own node
 * Both nodes use LevelDB in a temporary folder and the dev network's min PoW score (100): POSTed blocks are mined
 * beforehand with the project's miner (all cores, outside the timed part) on the node's current tips, so the node
 * only checks the score. Each measurement runs `concurrency` loops until `ms` have passed (GET) or its batch of
 * `posts` blocks is used up (POST). Every run measures every (path, operation, concurrency) once, interleaved; the
 * tables show the medians over the runs of rps, p50 and p99. Any non-2xx answer aborts the benchmark.
 * The machine is shared and has 2 cores (client and node compete for them): read medians and ratios.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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
import { defaultConfig, DEV_MIN_POW_SCORE } from '../../src/node/config.ts';
import { silentLogger } from '../../src/node/logger.ts';
import { startNode } from '../../src/node/node.ts';
import { createMiner, type Miner } from '../../src/node/pow/miner.ts';

const arg = (name: string, dflt: string): string => process.argv.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3) ?? dflt;
const RUNS = Number(arg('runs', '3'));
const MS = Number(arg('ms', '1000'));
const POSTS = Number(arg('posts', '100'));
const BLOCKS = Number(arg('blocks', '200'));
const CONCURRENCY = arg('concurrency', '1,16').split(',').map(Number);
for (const [k, v] of Object.entries({ RUNS, MS, POSTS, BLOCKS })) {
  if (!Number.isInteger(v) || v < 1 || v > 100000) throw new Error(`--${k.toLowerCase()} must be an integer 1..100000`);
}
const WARMUP = 20;
if (POSTS <= 2 * WARMUP) throw new Error(`--posts must be more than ${2 * WARMUP}`);
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1 || c > 256)) throw new Error('--concurrency must list integers 1..256');

const BIN = fileURLToPath(new URL('../../bin/ledger-node.js', import.meta.url));
const RAW = 'application/vnd.iota.serializer-v1';
const V2 = '/api/core/v2';

type Op = 'GET block JSON' | 'GET block raw' | 'POST block raw' | 'POST block JSON';
const OPS: Op[] = ['GET block JSON', 'GET block raw', 'POST block raw', 'POST block JSON'];
type PathName = 'gateway' | 'gRPC' | 'in-process';
const PATHS: PathName[] = ['gateway', 'gRPC', 'in-process'];

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
}

// ---------------------------------------------------------------- the spawned node

async function spawnNode(dataDir: string): Promise<{ child: ChildProcess; rest: number; grpc: number }> {
  const child = spawn(process.execPath, [BIN, 'run', '--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--pow-workers', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`node not ready in 30 s:\n${out}`));
    }, 30000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const grpc = /gRPC NodeService listening on 127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      const rest = /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1];
      if (grpc && rest && /remote PoW/.test(out)) {
        clearTimeout(timer);
        resolve({ child, rest: Number(rest), grpc: Number(grpc) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`node exited with ${code}:\n${out}`));
    });
  });
}

function httpTarget(port: number, maxSockets: number): Target & { agent: Agent } {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const send = (method: string, path: string, headers: Record<string, string>, body?: Uint8Array | string, want = 200): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          if (res.statusCode !== want) reject(new Error(`${method} ${path}: ${res.statusCode} ${buf.toString().slice(0, 200)}`));
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
      await send('POST', `${V2}/blocks`, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) }, text, 201);
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
  return { protocolVersion: 2, ...(parents ? { parents } : {}), payload: { type: 5, tag: '0x62656e6368', data }, nonce };
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
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** `concurrency` loops calling `call(i)` with i = 0, 1, ... until `limit` calls or `ms` elapsed. */
async function measure(call: Call, concurrency: number, limit: number, ms: number): Promise<Sample> {
  const lat: number[] = [];
  let next = 0;
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
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = performance.now() - start;
  lat.sort((a, b) => a - b);
  return { rps: (lat.length / elapsed) * 1000, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99), n: lat.length };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const maxC = Math.max(...CONCURRENCY);
  console.log(`REST benchmark: runs=${RUNS} ms=${MS} posts=${POSTS} blocks=${BLOCKS} concurrency=${CONCURRENCY.join(',')}`);
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  const dirs = [mkdtempSync(join(tmpdir(), 'ledger-bench-rest-')), mkdtempSync(join(tmpdir(), 'ledger-bench-rest-'))];
  let child: ChildProcess | undefined;
  let grpcClient: NodeServiceClient | undefined;
  let http: ReturnType<typeof httpTarget> | undefined;
  const inProcess = await startNode({ ...defaultConfig(), dataDir: dirs[1]!, restPort: 0, grpcPort: 0, powWorkers: 0 }, { rest: false, logger: silentLogger });
  const miner = createMiner();
  try {
    const spawned = await spawnNode(dirs[0]!);
    child = spawned.child;
    http = httpTarget(spawned.rest, maxC);
    grpcClient = new NodeServiceClient(`127.0.0.1:${spawned.grpc}`, credentials.createInsecure());
    const targets: Record<PathName, Target> = { gateway: http, gRPC: serviceTarget(grpcService(grpcClient)), 'in-process': serviceTarget(inProcess.parts.service) };
    // the GET targets: blocks submitted (node picks parents; min PoW 100 mined here) to each node
    await miner.searcherNames();
    for (const name of ['gRPC', 'in-process'] as const) {
      const t = targets[name];
      const { raw } = await preMine(miner, await t.tips(), BLOCKS);
      for (const bytes of raw) await t.postRaw(bytes);
      t.ids = raw.map((b) => blockId(b));
    }
    http.ids = targets.gRPC.ids; // same node
    console.log(`seeded ${BLOCKS} blocks per node; pre-mining ${POSTS} blocks per POST measurement...`);
    // pre-mine every POST batch (on the tips each node has now; all batches share them)
    const batches = new Map<string, { raw: Uint8Array[]; json: string[] }>();
    const mineStart = performance.now();
    for (const p of PATHS) {
      const parents = await targets[p].tips();
      for (let run = 0; run < RUNS; run++) {
        for (const c of CONCURRENCY) {
          for (const op of ['POST block raw', 'POST block JSON'] as const) batches.set(`${p}|${op}|${c}|${run}`, await preMine(miner, parents, POSTS));
        }
      }
    }
    console.log(`pre-mined ${batches.size * POSTS} blocks in ${((performance.now() - mineStart) / 1000).toFixed(1)} s`);
    await miner.close();

    const samples = new Map<string, Sample[]>();
    for (let run = 0; run < RUNS; run++) {
      for (const c of CONCURRENCY) {
        for (const op of OPS) {
          for (const p of PATHS) {
            const t = targets[p];
            let call: Call;
            let limit = Number.MAX_SAFE_INTEGER;
            if (op === 'GET block JSON') call = (i) => t.getJson(t.ids[i % t.ids.length]!);
            else if (op === 'GET block raw') call = (i) => t.getRaw(t.ids[i % t.ids.length]!);
            else {
              const batch = batches.get(`${p}|${op}|${c}|${run}`)!;
              limit = POSTS;
              call = op === 'POST block raw' ? (i) => t.postRaw(batch.raw[i]!) : (i) => t.postJson(batch.json[i]!);
            }
            // warm-up: 20 calls (for POST the batch's first 20 blocks), then the timed part
            await measure(call, c, WARMUP, 1000);
            const key = `${op}|${c}|${p}`;
            const s = await measure(op.startsWith('POST') ? (i) => call(i + WARMUP) : call, c, limit - WARMUP, MS);
            (samples.get(key) ?? samples.set(key, []).get(key)!).push(s);
          }
        }
      }
      console.log(`run ${run + 1}/${RUNS} done`);
    }

    console.log(`\nmedians over ${RUNS} runs (rps = completed calls per second; p50 / p99 latency in ms)`);
    for (const c of CONCURRENCY) {
      console.log(`\nconcurrency ${c}`);
      console.log(`${''.padEnd(17)}| ${PATHS.map((p) => p.padEnd(30)).join(' | ')}`);
      console.log(`${'operation'.padEnd(17)}| ${PATHS.map(() => `${'rps'.padStart(8)}${'p50 / p99 ms'.padStart(22)}`).join(' | ')}`);
      for (const op of OPS) {
        const cells = PATHS.map((p) => {
          const s = samples.get(`${op}|${c}|${p}`)!;
          const lat = `${median(s.map((x) => x.p50)).toFixed(3)} / ${median(s.map((x) => x.p99)).toFixed(3)}`;
          return `${median(s.map((x) => x.rps)).toFixed(0).padStart(8)}${lat.padStart(22)}`;
        });
        console.log(`${op.padEnd(17)}| ${cells.join(' | ')}`);
      }
    }
    if (CONCURRENCY.includes(1)) {
      console.log('\nper-call cost of each hop at concurrency 1 (differences of the median p50s, ms):');
      for (const op of OPS) {
        const p50 = (p: PathName) => median(samples.get(`${op}|1|${p}`)!.map((x) => x.p50));
        console.log(`  ${op.padEnd(16)} service ${p50('in-process').toFixed(3)}  + gRPC hop ${(p50('gRPC') - p50('in-process')).toFixed(3)}  + HTTP/gateway hop ${(p50('gateway') - p50('gRPC')).toFixed(3)}  = ${p50('gateway').toFixed(3)}`);
      }
    }
  } finally {
    await miner.close();
    http?.agent.destroy();
    grpcClient?.close();
    await inProcess.stop();
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
