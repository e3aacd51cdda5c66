/**
 * The event API under load: `npx tsx benchmarks/events/run.ts [--subscribers 1000] [--rate 500] [--seconds 30]
 * [--workers 2] [--target run|gateway] [--interval 1]`.
 *
 * Starts `ledger-node run` (RocksDB, min PoW score 0, a milestone every `--interval` s) on a fresh folder; with
 * `--target gateway` also a standalone `ledger-node gateway` whose MQTT the subscribers use (the load still goes to
 * the node). `--subscribers` real `mqtt` client connections over loopback (spread over `--workers` threads,
 * subscribers.ts) each follow `milestone-info/latest` and `blocks`. Then for `--seconds` the main thread POSTs
 * tagged-data blocks (JSON, parents and nonce left to the node) at `--rate` per second, and afterwards waits until
 * every subscriber has every block (or nothing arrived for 5 s; at most 120 s), the drain time. Reported: blocks
 * delivered / expected (every acknowledged block to every subscriber), milestones seen / expected, connections closed,
 * the delay from each POST's 201 to each subscriber's message (p50, p99, max; messages that came before the 201 count
 * as 0), and the CPU (share of one core) and RSS of the node, the gateway and this process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { cpuSeconds, rssMb, spawnGateway, spawnNode } from '../../harness/process.ts';
import { httpClient } from '../load/http.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const SUBSCRIBERS = Number(arg('subscribers', '1000'));
const RATE = Number(arg('rate', '500'));
const SECONDS = Number(arg('seconds', '30'));
const WORKERS = Number(arg('workers', '2'));
const TARGET = arg('target', 'run');
const INTERVAL = arg('interval', '1');

const now = (): number => performance.timeOrigin + performance.now();

/** utime + stime of a process in seconds, and its RSS in MB (Linux /proc). */
function usage(pid: number): { cpu: number; rssMb: number } {
  return { cpu: cpuSeconds([pid]), rssMb: rssMb(pid) };
}

const SUBSCRIBERS_MODULE = JSON.stringify(new URL('./subscribers.ts', import.meta.url).href);
const BOOTSTRAP = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${SUBSCRIBERS_MODULE}); });`;

interface Report {
  delivered: number;
  duplicates: number;
  beforeAck: number;
  other: number;
  closed: number;
  milestonesSeen: number;
  histogram: Uint32Array;
}

function percentileOf(h: Uint32Array, total: number, p: number): number {
  const rank = Math.ceil((p / 100) * total);
  let seen = 0;
  for (let i = 0; i < h.length; i++) {
    seen += h[i]!;
    if (seen >= rank) return i / 10;
  }
  return NaN;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-events-'));
  const node = await spawnNode(dir, [
    '--min-pow-score',
    '0',
    '--milestone-interval',
    INTERVAL,
    '--pow-workers',
    '0',
    '--mqtt-max-connections',
    String(SUBSCRIBERS + 100),
  ]);
  const gateway = TARGET === 'gateway' ? await spawnGateway(node.grpcPort) : undefined;
  const mqttPort = gateway?.port ?? node.restPort;
  const http = httpClient(node.rest, 64);
  const latestIndex = async (): Promise<number> =>
    (
      JSON.parse((await http.call('GET', '/api/core/v2/info')).text) as {
        status: { latestMilestone: { index: number } };
      }
    ).status.latestMilestone.index;
  const maxBlocks = Math.ceil(RATE * SECONDS * 1.2) + 1000;
  const acksBuffer = new SharedArrayBuffer(8 * maxBlocks);
  const acks = new Float64Array(acksBuffer);
  const workers: Worker[] = [];
  const t0 = Date.now();
  for (let w = 0; w < WORKERS; w++) {
    const clients = Math.floor(SUBSCRIBERS / WORKERS) + (w < SUBSCRIBERS % WORKERS ? 1 : 0);
    workers.push(
      new Worker(BOOTSTRAP, {
        eval: true,
        workerData: { url: `ws://127.0.0.1:${mqttPort}/api/mqtt/v1`, clients, acks: acksBuffer },
      }),
    );
  }
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          w.once('message', () => resolve());
          w.once('error', reject);
        }),
    ),
  );
  console.log(
    `${SUBSCRIBERS} subscribers connected ` +
      `to ${TARGET === 'gateway' ? 'a standalone gateway' : 'ledger-node run'} ` +
      `in ${Date.now() - t0} ms`,
  );
  await new Promise((r) => setTimeout(r, 2000));

  const from = (await latestIndex()) + 1;
  const pids = { node: node.proc.child.pid!, gateway: gateway?.proc.child.pid };
  const before = {
    node: usage(pids.node),
    gateway: pids.gateway ? usage(pids.gateway) : undefined,
    self: process.cpuUsage(),
  };
  const rss = { node: [] as number[], gateway: [] as number[] };
  const sampler = setInterval(() => {
    rss.node.push(usage(pids.node).rssMb);
    if (pids.gateway) rss.gateway.push(usage(pids.gateway).rssMb);
  }, 1000);
  let seq = 0;
  let acked = 0;
  let refused = 0;
  let inFlight = 0;
  const started = now();
  const post = (): void => {
    if (seq >= maxBlocks) return;
    const s = seq++;
    const data = Buffer.alloc(4);
    data.writeUInt32LE(s);
    inFlight++;
    http
      .call(
        'POST',
        '/api/core/v2/blocks',
        JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x6576', data: `0x${data.toString('hex')}` } }),
        'application/json',
      )
      .then(
        (r) => {
          if (r.status === 201) {
            acks[s] = now();
            acked++;
          } else refused++;
        },
        () => refused++,
      )
      .finally(() => inFlight--);
  };
  while (now() - started < SECONDS * 1000) {
    const due = Math.floor(((now() - started) / 1000) * RATE);
    while (seq < due && inFlight < 256) post();
    await new Promise((r) => setTimeout(r, 5));
  }
  const loadSeconds = (now() - started) / 1000;
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  const to = await latestIndex();
  const drainStart = now();
  const count = (): Promise<number> =>
    Promise.all(
      workers.map(
        (w) =>
          new Promise<number>((resolve) => {
            w.once('message', (m: { delivered: number }) => resolve(m.delivered));
            w.postMessage({ type: 'count' });
          }),
      ),
    ).then((xs) => xs.reduce((a, b) => a + b, 0));
  for (let last = -1, still = 0; now() - drainStart < 120_000 && still < 5; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const n = await count();
    if (n >= acked * SUBSCRIBERS) break;
    still = n === last ? still + 1 : 0;
    last = n;
  }
  const drainSeconds = (now() - drainStart) / 1000;
  clearInterval(sampler);
  const after = {
    node: usage(pids.node),
    gateway: pids.gateway ? usage(pids.gateway) : undefined,
    self: process.cpuUsage(before.self),
  };

  const reports = await Promise.all(
    workers.map(
      (w) =>
        new Promise<Report>((resolve) => {
          w.once('message', (m: Report) => resolve(m));
          w.postMessage({ type: 'report', from, to });
        }),
    ),
  );
  const histogram = new Uint32Array(reports[0]!.histogram.length);
  for (const r of reports) for (let i = 0; i < histogram.length; i++) histogram[i]! += r.histogram[i]!;
  const total = (k: keyof Omit<Report, 'histogram'>): number => reports.reduce((a, r) => a + r[k], 0);
  const timed = histogram.reduce((a, b) => a + b, 0);
  const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const seconds = (b: { cpu: number } | undefined, a: { cpu: number } | undefined): number =>
    a && b ? a.cpu - b.cpu : 0;
  const cpu = (b: { cpu: number } | undefined, a: { cpu: number } | undefined): string =>
    a && b ? `${seconds(b, a).toFixed(1)} s (${((seconds(b, a) / loadSeconds) * 100).toFixed(0)}%)` : '-';
  const serving = seconds(before.node, after.node) + seconds(before.gateway, after.gateway);
  console.log(
    `load: ${acked} blocks acknowledged in ${loadSeconds.toFixed(1)} s ` +
      `(${(acked / loadSeconds).toFixed(0)}/s), ${refused} refused; milestones ${from}..${to}`,
  );
  const deliveredShare = ((100 * total('delivered')) / (acked * SUBSCRIBERS)).toFixed(3);
  console.log(
    `blocks delivered: ${total('delivered')} of ${acked * SUBSCRIBERS} expected ` +
      `after a drain of ${drainSeconds.toFixed(1)} s (${deliveredShare}%), ` +
      `duplicates ${total('duplicates')}, ${total('beforeAck')} before the 201`,
  );
  console.log(
    `milestone-info/latest: ${total('milestonesSeen')} of ${(to - from + 1) * SUBSCRIBERS} expected; ` +
      `connections closed: ${total('closed')}`,
  );
  console.log(
    `delay 201 -> message: p50 ${percentileOf(histogram, timed, 50).toFixed(1)} ms, ` +
      `p99 ${percentileOf(histogram, timed, 99).toFixed(1)} ms, ` +
      `max ${percentileOf(histogram, timed, 100).toFixed(1)} ms (${timed} messages timed)`,
  );
  console.log(
    `CPU time over load and drain (share of one core over the load's ${loadSeconds.toFixed(0)} s): ` +
      `node ${cpu(before.node, after.node)}, gateway ${cpu(before.gateway, after.gateway)}, ` +
      `benchmark ${((after.self.user + after.self.system) / 1e6).toFixed(1)} s; ` +
      `node + gateway per delivered message ${((serving / Math.max(1, total('delivered'))) * 1e6).toFixed(2)} µs`,
  );
  console.log(
    `RSS median / max: node ${median(rss.node).toFixed(0)} / ${Math.max(...rss.node).toFixed(0)} MB` +
      (pids.gateway ? `, gateway ${median(rss.gateway).toFixed(0)} / ${Math.max(...rss.gateway).toFixed(0)} MB` : ''),
  );

  const notes = [node.proc.output(), gateway?.proc.output() ?? '']
    .join('\n')
    .split('\n')
    .filter((l) => /cut off|events stream|too slow/.test(l));
  if (notes.length > 0) console.log(`logged:\n  ${notes.slice(0, 10).join('\n  ')}`);
  for (const w of workers) w.postMessage({ type: 'close' });
  http.close();
  await gateway?.proc.stop();
  await node.proc.stop();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
