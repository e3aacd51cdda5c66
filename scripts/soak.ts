/**
 * Load soak: `npx tsx scripts/soak.ts --seconds 120 [--concurrency 16] [--gateway] [--max-requests N]
 * [--sample 5] [--min-pow-score 10] [--milestone-interval 1] [--lanes 4] [--data-dir DIR] [--node-heap-mb N]`.
 *
 * Starts `ledger-node run` on a temp folder (loopback, free ports) and, with --gateway, a separate
 * `ledger-node gateway` in front of it; then `concurrency` workers send mixed traffic through the REST API until the
 * time or the request budget is used up: GET block JSON / raw, metadata, tips, info, POST tagged data, transfers from
 * the dev wallet (lanes, harness/crash/load.ts). Every `sample` seconds one row: throughput, p50/p95/p99 latency
 * over all routes and for the slowest route, errors by status, the node's VmRSS / RssAnon from /proc/<pid>/status
 * (and the gateway's). At the end: per-route percentiles and errors over the whole run, and a verdict: growth of the
 * memory the node allocated itself (RssAnon; total RSS is printed too) per minute (least squares after the first
 * quarter, the warm-up) and latency drift (p95 of the first vs the last full window after warm-up). `--node-heap-mb N`
 * starts the node (and gateway) with `--max-old-space-size=N`: with a cap the V8 heap has to collect instead of growing
 * lazily, so a run that stays up under the cap shows what the node really retains. `--data-dir DIR` keeps the store
 * (e.g. for `ledger-node tool check` afterwards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  makeLanes,
  postTagged,
  readDevWallet,
  request,
  SERIALIZER_V1,
  type Ack,
  type Lane,
  type Target,
} from '../harness/crash/load.ts';
import { memoryOf, spawnGateway, spawnNode, type Memory } from '../harness/process.ts';
import { scriptNumber, scriptOption, scriptSwitch } from './lib/args.ts';

/** soak's numbers are all positive. */
const POSITIVE = { positive: true };
const SECONDS = scriptNumber('seconds', 120, POSITIVE);
const CONCURRENCY = Math.floor(scriptNumber('concurrency', 16, POSITIVE));
const MAX_REQUESTS = Math.floor(scriptNumber('max-requests', 5_000_000, POSITIVE));
const SAMPLE = scriptNumber('sample', 5, POSITIVE);
const withGateway = scriptSwitch('gateway');
if (SECONDS > 3600) {
  console.error('--seconds: at most 3600');
  process.exit(2);
}

type Route =
  | 'GET block json'
  | 'GET block raw'
  | 'GET metadata'
  | 'GET tips'
  | 'GET info'
  | 'POST tagged'
  | 'POST transfer';
const MIX: [Route, number][] = [
  ['GET block json', 22],
  ['GET block raw', 13],
  ['GET metadata', 20],
  ['GET tips', 10],
  ['GET info', 10],
  ['POST tagged', 18],
  ['POST transfer', 7],
];
const TOTAL_WEIGHT = MIX.reduce((s, [, w]) => s + w, 0);

interface Window {
  lat: Map<Route, number[]>;
  status: Map<string, number>;
  count: number;
}
const newWindow = (): Window => ({ lat: new Map(), status: new Map(), count: 0 });

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function procStatus(pid: number | undefined): Memory {
  return (pid === undefined ? undefined : memoryOf(pid)) ?? { rss: NaN, anon: NaN };
}

const heapMb = scriptOption('node-heap-mb');
if (heapMb !== undefined) {
  const cap = Math.floor(scriptNumber('node-heap-mb', 256, POSITIVE));
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-old-space-size=${cap}`.trim();
}
const given = scriptOption('data-dir');
const root = given === undefined ? mkdtempSync(join(tmpdir(), 'soak-')) : undefined;
const dataDir = given ?? join(root!, 'data');
const node = await spawnNode(dataDir, [
  '--min-pow-score',
  String(scriptNumber('min-pow-score', 10, POSITIVE)),
  '--milestone-interval',
  String(scriptNumber('milestone-interval', 1, POSITIVE)),
]);
const gateway = withGateway ? await spawnGateway(node.grpcPort) : undefined;
const target: Target = { base: gateway?.rest ?? node.rest };
const acks: Ack[] = [];
let code = 0;
try {
  const through = withGateway
    ? `a separate gateway (${target.base})`
    : `the node's in-process gateway (${target.base})`;
  const heap = heapMb !== undefined ? `, node heap capped at ${heapMb} MB` : '';
  console.log(
    `soak: ${SECONDS} s, concurrency ${CONCURRENCY}, at most ${MAX_REQUESTS} requests, ` +
      `through ${through}; node pid ${node.proc.child.pid}${heap}`,
  );
  const lanes: Lane[] = await makeLanes(
    target,
    acks,
    readDevWallet(dataDir),
    Math.floor(scriptNumber('lanes', 4, POSITIVE)),
  );
  const busy = new Set<Lane>();
  for (let i = 0; i < 20; i++) await postTagged(target, acks, 'soak', `seed ${i}`);
  const ids = (): string => acks[Math.floor(Math.random() * acks.length)]!.blockId;

  let win = newWindow();
  const all = newWindow();
  let sent = 0;
  const t0 = Date.now();
  const deadline = t0 + SECONDS * 1000;
  const record = (route: Route, status: number, ms: number): void => {
    for (const w of [win, all]) {
      let l = w.lat.get(route);
      if (!l) {
        l = [];
        w.lat.set(route, l);
      }
      l.push(ms);
      w.count++;
      if (status < 200 || status >= 300) {
        const k = `${status === 0 ? 'network' : status} ${route}`;
        w.status.set(k, (w.status.get(k) ?? 0) + 1);
      }
    }
  };
  const pick = (): Route => {
    let x = Math.random() * TOTAL_WEIGHT;
    for (const [r, w] of MIX) {
      x -= w;
      if (x < 0) return r;
    }
    return 'GET info';
  };
  const one = async (): Promise<void> => {
    const route = pick();
    const json = { headers: { accept: 'application/json' } };
    switch (route) {
      case 'GET block json': {
        const r = await request(target, `/api/core/v2/blocks/${ids()}`, json);
        return record(route, r.status, r.ms);
      }
      case 'GET block raw': {
        const r = await request(target, `/api/core/v2/blocks/${ids()}`, { headers: { accept: SERIALIZER_V1 } });
        return record(route, r.status, r.ms);
      }
      case 'GET metadata': {
        const r = await request(target, `/api/core/v2/blocks/${ids()}/metadata`, json);
        return record(route, r.status, r.ms);
      }
      case 'GET tips': {
        const r = await request(target, '/api/core/v2/tips', json);
        return record(route, r.status, r.ms);
      }
      case 'GET info': {
        const r = await request(target, '/api/core/v2/info', json);
        return record(route, r.status, r.ms);
      }
      case 'POST tagged': {
        const r = await postTagged(target, acks, 'soak', `${Date.now()} ${Math.random()}`);
        return record(route, r.status, r.ms);
      }
      case 'POST transfer': {
        const lane = lanes.find((l) => !busy.has(l));
        if (!lane) return;
        busy.add(lane);
        try {
          const r = await lane.step(target, acks);
          if (r) record(route, r.status, r.ms);
        } finally {
          busy.delete(lane);
        }
      }
    }
  };
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (Date.now() < deadline && sent < MAX_REQUESTS) {
      sent++;
      await one();
    }
  });

  interface Sample {
    t: number;
    rps: number;
    p50: number;
    p95: number;
    p99: number;
    rss: number;
    anon: number;
    gwRss: number;
    errors: number;
  }
  const samples: Sample[] = [];
  const f = (x: number, d = 1): string => (Number.isNaN(x) ? '-' : x.toFixed(d));
  console.log(
    `| t (s) | req/s | p50 ms | p95 ms | p99 ms | slowest route p95 | errors | node RSS MB | ` +
      `node RssAnon MB |${gateway ? ' gateway RSS MB |' : ''} acked blocks |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|---|${gateway ? '---|' : ''}---|`);
  let last = Date.now();
  const sampler = setInterval(() => {
    const now = Date.now();
    const w = win;
    win = newWindow();
    const lat = [...w.lat.values()].flat();
    let slowest: [string, number] = ['-', NaN];
    for (const [r, l] of w.lat) {
      const p = pct(l, 95);
      if (Number.isNaN(slowest[1]) || p > slowest[1]) slowest = [r, p];
    }
    const errors = [...w.status.values()].reduce((a, b) => a + b, 0);
    const m = procStatus(node.proc.child.pid);
    const g = procStatus(gateway?.proc.child.pid);
    const s: Sample = {
      t: (now - t0) / 1000,
      rps: w.count / ((now - last) / 1000),
      p50: pct(lat, 50),
      p95: pct(lat, 95),
      p99: pct(lat, 99),
      rss: m.rss,
      anon: m.anon,
      gwRss: g.rss,
      errors,
    };
    last = now;
    samples.push(s);
    const byStatus = errors ? ' (' + [...w.status].map(([k, v]) => `${k}: ${v}`).join(', ') + ')' : '';
    console.log(
      `| ${f(s.t, 0)} | ${f(s.rps, 0)} | ${f(s.p50)} | ${f(s.p95)} | ${f(s.p99)} ` +
        `| ${slowest[0]} ${f(slowest[1])} | ${errors}${byStatus} | ${f(m.rss)} | ${f(m.anon)} |` +
        `${gateway ? ` ${f(g.rss)} |` : ''} ${acks.length} |`,
    );
  }, SAMPLE * 1000);
  await Promise.all(workers);
  clearInterval(sampler);
  const elapsed = (Date.now() - t0) / 1000;

  console.log('');
  console.log(
    `whole run: ${all.count} requests in ${elapsed.toFixed(1)} s ` +
      `= ${(all.count / elapsed).toFixed(0)} req/s; ${acks.length} blocks acknowledged`,
  );
  console.log('| route | requests | p50 ms | p95 ms | p99 ms | max ms | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [route] of MIX) {
    const l = all.lat.get(route) ?? [];
    const errs = [...all.status].filter(([k]) => k.endsWith(route)).map(([k, v]) => `${k.split(' ')[0]}: ${v}`);
    console.log(
      `| ${route} | ${l.length} | ${f(pct(l, 50))} | ${f(pct(l, 95))} | ${f(pct(l, 99))} ` +
        `| ${f(Math.max(...l))} | ${errs.length ? errs.join(', ') : 0} |`,
    );
  }

  // Verdict over the samples after warm-up (the first quarter).
  const steady = samples.slice(Math.floor(samples.length / 4));
  // Growth per minute by least squares. The verdict uses RssAnon, the memory the node allocated itself: total RSS
  // also counts LevelDB's memory-mapped table files, pages the kernel reclaims at will that rise and fall with
  // compaction and the size of the store, so they say nothing about what the node retains.
  const slope = (ys: number[]): number => {
    if (steady.length < 3) return NaN;
    const xs = steady.map((x) => x.t / 60);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    return xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  };
  const growth = slope(steady.map((x) => x.anon));
  const rssGrowth = slope(steady.map((x) => x.rss));
  const full = steady.filter((s) => s.t <= elapsed); // every window is full except possibly none
  const first = full[0];
  const lastS = full[full.length - 1];
  const drift = first && lastS ? lastS.p95 / first.p95 : NaN;
  const totalErrors = [...all.status].filter(([k]) => !k.startsWith('4')).reduce((a, [, v]) => a + v, 0);
  const rssMax = Math.max(...samples.map((s) => s.rss));
  console.log('');
  console.log(
    `node RSS: start ${f(samples[0]?.rss ?? NaN)} MB, end ${f(lastS?.rss ?? NaN)} MB, ` +
      `max ${f(rssMax)} MB; growth after warm-up ${f(rssGrowth, 2)} MB/min ` +
      `(includes LevelDB's mapped table files)`,
  );
  console.log(
    `node RssAnon (memory the node allocated): start ${f(samples[0]?.anon ?? NaN)} MB, ` +
      `end ${f(lastS?.anon ?? NaN)} MB; growth after warm-up ${f(growth, 2)} MB/min`,
  );
  console.log(
    `latency drift: p95 first steady window ${f(first?.p95 ?? NaN)} ms -> ` +
      `last ${f(lastS?.p95 ?? NaN)} ms (x${f(drift, 2)})`,
  );
  console.log(
    `errors (network or 5xx): ${totalErrors}; ` +
      `4xx: ${[...all.status].filter(([k]) => k.startsWith('4')).reduce((a, [, v]) => a + v, 0)}`,
  );
  const okMemory = !(growth > 10);
  const okLatency = !(drift > 2);
  const ok = okMemory && okLatency && totalErrors === 0;
  console.log(
    `verdict: ${ok ? 'STABLE' : 'NOT STABLE'} (memory ${okMemory ? 'ok' : 'growing'} ` +
      `[RssAnon, limit 10 MB/min], latency ${okLatency ? 'ok' : 'drifting'} [limit x2], ` +
      `errors ${totalErrors === 0 ? 'none' : totalErrors})`,
  );
  code = ok ? 0 : 1;
} finally {
  const alive = node.proc.child.exitCode === null && node.proc.child.signalCode === null;
  if (!alive) {
    console.log(
      `the node died during the soak ` +
        `(exit ${node.proc.child.exitCode ?? node.proc.child.signalCode}):\n${node.proc.output().slice(-2000)}`,
    );
    code = 1;
  }
  await gateway?.proc.stop();
  await node.proc.stop();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
}
process.exitCode = code;
