/**
 * Hostile load on every outside surface of a node started as `npm start` starts it (scripts/start.sh: jemalloc,
 * the heap cap), with the node's memory sampled throughout:
 *
 *   npx tsx scripts/hostile-load.ts [--seconds 120] [--rest 30] [--allocator jemalloc|glibc]
 *
 * Three attackers run as processes of their own, so the node's process holds nothing of theirs:
 *   * `scripts/fuzz.ts --node URL`: mutated v2/v3 block submissions (binary and JSON) and malformed raw HTTP;
 *   * `scripts/fuzz.ts --grpc HOST:PORT`: mutated NodeService, NodeMux and PeerService messages;
 *   * this script with `--attack URL`: every other REST surface (reads with junk IDs, the indexer with junk
 *     parameters, the faucet, protected routes with junk tokens, junk methods) and MQTT over WebSocket sessions.
 * One line per 10 s: the node's VmRSS and RssAnon (/proc/<pid>/status). At the end: RSS before the load, its peak,
 * at the end of the load and after `--rest` seconds without load, each attacker's tally, and whether the node still
 * answers. Exit 1 when the node died, an attacker saw a failure (5xx, an error without the JSON body, no answer),
 * or RSS after the rest is more than 100 MB above where it started.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { acceptable, mqttSession, surfaceCase } from '../harness/fuzz/surfaces.ts';
import { seeds } from '../harness/fuzz/http.ts';
import { memoryOf, spawnNode, type Memory } from '../harness/process.ts';

const GROWTH_LIMIT_MB = 100;

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    rest: { type: 'string', default: '30' },
    allocator: { type: 'string', default: 'jemalloc' },
    attack: { type: 'string' },
    seed: { type: 'string', default: String(Date.now() % 0x7fffffff) },
  },
  strict: true,
});
const seconds = Number(values.seconds);
const seed = Number(values.seed);
if (!(seconds > 0) || !(Number(values.rest) >= 0) || !Number.isInteger(seed))
  throw new Error('--seconds and --rest take numbers, --seed an integer');

/** The attacker of the REST surfaces and MQTT (a process of its own): prints one tally line, exits 1 on failures. */
async function attackSurfaces(base: string, s: number, master: number): Promise<void> {
  const until = Date.now() + s * 1000;
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const ws = base.replace(/^http/, 'ws') + '/api/mqtt/v1';
  let n = 0;
  const http = async (worker: number): Promise<void> => {
    for (const caseSeed of seeds(master + worker, 10_000_000)) {
      if (Date.now() > until) return;
      const c = surfaceCase(caseSeed);
      n++;
      try {
        const res = await fetch(base + c.path, {
          method: c.method,
          headers: c.headers,
          signal: AbortSignal.timeout(30_000),
          ...(c.body && !['GET', 'HEAD'].includes(c.method) ? { body: c.body } : {}),
        });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (!acceptable(res.status, text, c.method) && failures.length < 20)
          failures.push(`${c.label} ${c.method} ${c.path.slice(0, 120)}: ${res.status} ${text.slice(0, 160)}`);
      } catch (e) {
        if (failures.length < 20) failures.push(`${c.label}: request failed: ${(e as Error).message}`);
      }
    }
  };
  const mqtt = async (worker: number): Promise<void> => {
    for (const sessionSeed of seeds(master + 1000 + worker, 1_000_000)) {
      if (Date.now() > until) return;
      await mqttSession(ws, sessionSeed, 200 + (sessionSeed % 2000));
      n++;
    }
  };
  await Promise.all([http(0), http(1), http(2), http(3), mqtt(0), mqtt(1)]);
  const tally = [...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}:${v}`)
    .join(' ');
  console.log(`surfaces: ${n} requests and MQTT sessions, statuses ${tally}, ${failures.length} failures`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  process.exit(failures.length > 0 ? 1 : 0);
}

/** Runs an attacker process; resolves with its exit code and its output's last lines. */
function attacker(name: string, args: string[]): Promise<{ name: string; code: number; tail: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
  child.stderr.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-4000)));
  return new Promise((resolve) =>
    child.once('exit', (code) =>
      resolve({ name, code: code ?? 1, tail: out.trim().split('\n').slice(-12).join('\n') }),
    ),
  );
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-hostile-'));
  const env = values.allocator === 'glibc' ? { LEDGER_NODE_ALLOCATOR: 'glibc' } : undefined;
  const node = await spawnNode(dataDir, [], { startScript: true, timeoutMs: 60_000, ...(env ? { env } : {}) });
  const pid = node.proc.child.pid!;
  const base = node.rest;
  let died = false;
  void node.proc.exited.then(() => (died = true));
  try {
    await sleep(5_000); // start-up settles (genesis, first milestone)
    const before = memoryOf(pid)!;
    console.log(
      `node pid ${pid} (${values.allocator}), REST ${base}, gRPC ${node.grpcPort}; ` +
        `RSS ${before.rss.toFixed(0)} MB, anon ${before.anon.toFixed(0)} MB; ` +
        `${seconds} s of hostile load`,
    );
    let peak = before;
    const started = Date.now();
    const sampler = setInterval(() => {
      const m = memoryOf(pid);
      if (!m) return;
      if (m.rss > peak.rss) peak = m;
      const t = Math.round((Date.now() - started) / 1000);
      if (t % 10 === 0) console.log(`  t=${t}s RSS ${m.rss.toFixed(0)} MB, anon ${m.anon.toFixed(0)} MB`);
    }, 1_000);
    const s = String(seconds);
    const results = await Promise.all([
      attacker('REST blocks and raw HTTP', ['scripts/fuzz.ts', '--node', base, '--seconds', s, '--seed', String(seed)]),
      attacker('gRPC doors', [
        'scripts/fuzz.ts',
        '--grpc',
        `127.0.0.1:${node.grpcPort}`,
        '--seconds',
        s,
        '--seed',
        String(seed),
      ]),
      attacker('REST surfaces and MQTT', [
        'scripts/hostile-load.ts',
        '--attack',
        base,
        '--seconds',
        s,
        '--seed',
        String(seed),
      ]),
    ]);
    const end = memoryOf(pid);
    console.log(`load over; ${values.rest} s without load`);
    await sleep(Number(values.rest) * 1000);
    clearInterval(sampler);
    const after = memoryOf(pid);
    const info = await fetch(`${base}/api/core/v2/info`).then(
      (r) => r.status,
      () => 0,
    );
    for (const r of results) console.log(`${r.name}: exit ${r.code}\n${r.tail.replace(/^/gm, '  ')}`);
    const fmt = (m: Memory | undefined): string => (m ? `${m.rss.toFixed(0)} MB (anon ${m.anon.toFixed(0)})` : 'gone');
    console.log(`RSS before ${fmt(before)}, peak ${fmt(peak)}, end of load ${fmt(end)}, after the rest ${fmt(after)}`);
    const growth = after ? after.rss - before.rss : Infinity;
    console.log(
      `growth after the rest: ${growth.toFixed(0)} MB (limit ${GROWTH_LIMIT_MB}); ` +
        `node alive: ${!died}, GET /info ${info}`,
    );
    const ok = !died && info === 200 && results.every((r) => r.code === 0) && growth <= GROWTH_LIMIT_MB;
    console.log(ok ? 'PASS' : 'FAIL');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await node.proc.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (values.attack !== undefined) await attackSurfaces(values.attack, seconds, seed);
else await main();
