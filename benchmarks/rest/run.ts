/**
 * REST benchmark, on demand (never run by the tests), loopback only, bounded in time and count:
 *   npx tsx benchmarks/rest/run.ts [--runs=3] [--ms=1000] [--posts=100] [--blocks=200] [--concurrency=1,32]
 *                                  [--get-only] [--paths=koa,run,...] [--mux-streams=1[,N...]] [--cpu-prof=DIR]
 *
 * What is measured, for each operation and each concurrency level (= connections of the HTTP paths):
 *   GET block JSON      GET /api/core/v2/blocks/{id}                 (Accept: application/json)
 *   GET block raw       GET /api/core/v2/blocks/{id}                 (Accept: application/vnd.iota.serializer-v1)
 *   POST block raw      POST /api/core/v2/blocks, pre-mined nonce    (Content-Type: application/vnd.iota.serializer-v1)
 *   POST block JSON     POST /api/core/v2/blocks, pre-mined nonce    (Content-Type: application/json, what iota.js
 *                                                                     sends)
 * along these paths (run-paths.ts), so the cost of each hop is visible (every server in its own process, as users run
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
 *              (harness/node.ts)
 * The HTTP client (run-client.ts) is node:http with a keep-alive agent of `concurrency` sockets. The nodes use their
 * default store in temporary folders and the dev network's min PoW score (100): POSTed blocks are mined beforehand with
 * the project's miner (all cores, outside the timed part) on the node's current tips, so the node only checks the
 * score. Each measurement (run-measure.ts) runs `concurrency` loops until `ms` have passed (GET) or its batch of
 * `posts` blocks is used up (POST). Every run measures every (path, operation, concurrency) once, interleaved; the
 * tables (run-report.ts) show the medians over the runs of rps, p50 and p99, the CPU time (user + system, read from
 * /proc where there is one) the serving processes spent per call (for the standalone gateways split into the
 * gateway's and the node's share), and each HTTP path's rps as a share of the Koa ceiling measured in the same run.
 * Any non-2xx answer aborts the benchmark. `--cpu-prof=DIR` writes V8 CPU profiles of the `run` node, the standalone
 * gateways and the Koa ceiling there (node --cpu-prof) when they stop; `--paths=koa,run` measures only the paths
 * listed. The machine is shared and has 2 cores (client and servers compete for them): read medians and ratios.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blockId } from '../../src/core/ids/index.ts';
import { BlockView } from '../../src/grpc/gen/node.ts';
import { silentLogger } from '../../src/node/logger.ts';
import { createMiner } from '../../src/node/pow/miner.ts';
import { startConfiguredNode } from '../../harness/node.ts';
import { spawnGateway, spawnNode, type Spawned } from '../../harness/process.ts';
import { Clients, preMine, serviceTarget, type Call, type Target } from './run-client.ts';
import { measure, type Sample } from './run-measure.ts';
import {
  BLOCKS,
  CONCURRENCY,
  CPU_PROF,
  GATEWAY_PATHS,
  GET_ONLY,
  measures,
  MS,
  MUX_STREAMS,
  OPS,
  PATHS,
  POSTS,
  RUNS,
  WARMUP,
  type PathName,
} from './run-paths.ts';
import { report } from './run-report.ts';
import { machineLine, NODE_READY, push, spawnKoa, spawnServe, stopServer, watched } from './servers.ts';

async function main(): Promise<void> {
  const maxC = Math.max(...CONCURRENCY);
  const settings = `runs=${RUNS} ms=${MS} posts=${POSTS} blocks=${BLOCKS} concurrency=${CONCURRENCY.join(',')}`;
  console.log(`REST benchmark: ${settings}${GET_ONLY ? ' get-only' : ''}`);
  console.log(machineLine());
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'ledger-bench-rest-')));
  const servers: Spawned[] = [];
  const clients = new Clients(maxC);
  const service = await startConfiguredNode({ powWorkers: 0 }, { rest: false, logger: silentLogger });
  const miner = createMiner();
  try {
    const profile = CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF}`] : [];
    const run = watched(await spawnNode(dirs[0]!, ['--pow-workers', '0'], { nodeFlags: profile }), 'ledger-node run');
    servers.push(run.proc);
    const before = await spawnServe('run-over-grpc', [dirs[1]!], NODE_READY);
    servers.push(before.proc);
    const runService = clients.grpcService(run.grpcPort);
    const targets: Partial<Record<PathName, Target>> = {
      run: clients.http(run.restPort),
      'run/gRPC': clients.http(Number(before.captures[1])),
      gRPC: serviceTarget(runService),
      'gRPC/mux': clients.mux(run.grpcPort),
      service: serviceTarget(service.node.parts.service),
    };
    // the standalone gateways, each its own process: unary gRPC calls, and the mux with each number of streams
    const gateways = new Map<PathName, Spawned>();
    for (const p of GATEWAY_PATHS) {
      const transport =
        p === 'gateway'
          ? ['--node-transport', 'unary']
          : ['--node-transport', 'mux', '--node-streams', String(MUX_STREAMS[GATEWAY_PATHS.indexOf(p) - 1])];
      const gw = watched(await spawnGateway(run.grpcPort, transport, { nodeFlags: profile }), `gateway ${p}`);
      servers.push(gw.proc);
      gateways.set(p, gw.proc);
      targets[p] = clients.http(gw.port);
    }
    // the GET targets: blocks submitted (node picks parents; min PoW 100 mined here) to each node
    await miner.searcherNames();
    const seeded = {
      run: targets.gRPC!,
      'run/gRPC': clients.grpc(Number(before.captures[0])),
      service: targets.service!,
    };
    for (const t of Object.values(seeded)) {
      const { raw } = await preMine(miner, await t.tips(), BLOCKS);
      for (const bytes of raw) await t.postRaw(bytes);
      t.ids = raw.map((b) => blockId(b));
    }
    const runPid = run.proc.child.pid!;
    targets.run!.ids = targets['gRPC/mux']!.ids = seeded.run.ids;
    targets.run!.pids = targets.gRPC!.pids = targets['gRPC/mux']!.pids = [runPid];
    targets['run/gRPC']!.pids = [before.proc.child.pid!];
    for (const [p, gw] of gateways) {
      targets[p]!.ids = seeded.run.ids;
      targets[p]!.pids = [gw.child.pid!, runPid];
    }
    targets['run/gRPC']!.ids = seeded['run/gRPC'].ids;
    // the ceiling answers one of those blocks, exactly as the node renders it
    const sample = await runService.getBlock({ blockId: seeded.run.ids[0]!, view: BlockView.BLOCK_VIEW_UNSPECIFIED });
    const koa = await spawnKoa(sample.json, sample.raw, profile);
    servers.push(koa.proc);
    targets.koa = clients.http(koa.port);
    targets.koa.ids = seeded.run.ids;
    targets.koa.pids = [koa.proc.child.pid!];
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
      const seconds = ((performance.now() - mineStart) / 1000).toFixed(1);
      console.log(`pre-mined ${batches.size * POSTS} blocks in ${seconds} s`);
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
            let s: Sample;
            t.reset?.();
            try {
              if (op.startsWith('POST')) await measure(call, c, WARMUP, 1000);
              else await measure(call, c, Number.MAX_SAFE_INTEGER, 1000);
              s = await measure(op.startsWith('POST') ? (i) => call(i + WARMUP) : call, c, limit - WARMUP, MS, t.pids);
            } catch (e) {
              throw new Error(`${op} on ${p} at concurrency ${c} failed: ${(e as Error).message}`, { cause: e });
            }
            push(samples, `${op}|${c}|${p}`, s);
          }
        }
      }
      console.log(`run ${run + 1}/${RUNS} done`);
    }
    report(samples);
  } finally {
    await miner.close();
    clients.close();
    await service.stop();
    for (const proc of servers.reverse()) await stopServer(proc);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

await main();
