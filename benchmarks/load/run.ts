/**
 * Sustained write load through REST, and the ledger's heartbeat under it and after it:
 * `npx tsx benchmarks/load/run.ts [--seconds 120] [--concurrency 32] [--mode raw|json] [--interval 1] [--after 60]
 * [--sample 5] [--data-dir DIR]`.
 *
 * Starts `ledger-node run` (min PoW score 0, a milestone every `--interval` s) on a fresh folder; `concurrency`
 * clients POST blocks for `--seconds`: `raw` = pre-built serializer bytes on the tips a client last read (GET /tips,
 * refreshed every 50 blocks), `json` = tagged data without parents or nonce (the node selects tips). Every `sample`
 * seconds one row: accepted blocks/s, milestones/s, the confirmed index, the node's RSS. A sample of the accepted
 * blocks (1 in 20) is followed until a milestone references it: the time from the 201 to `referencedByMilestoneIndex`
 * (p50/p95/p99, and the share referenced within 5 s). Then the load stops and for `--after` seconds the milestones'
 * pace is watched: a node that fell behind must return to its interval by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeBlock } from '../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../src/core/ids/index.ts';
import { fromHex0x, toHex0x } from '../../src/core/bytes.ts';
import { rssMb, spawnNode } from '../../harness/process.ts';
import { httpClient, percentile } from './http.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const SECONDS = Number(arg('seconds', '120'));
const CONCURRENCY = Number(arg('concurrency', '32'));
const MODE = arg('mode', 'raw');
const INTERVAL = arg('interval', '1');
const AFTER = Number(arg('after', '60'));
const SAMPLE = Number(arg('sample', '5'));

async function main(): Promise<void> {
  const dir = arg('data-dir', '') || mkdtempSync(join(tmpdir(), 'ledger-bench-load-'));
  const node = await spawnNode(dir, ['--min-pow-score', '0', '--milestone-interval', INTERVAL, '--pow-workers', '0']);
  const http = httpClient(node.rest, CONCURRENCY + 8);
  const confirmedIndex = async (): Promise<number> =>
    (
      JSON.parse((await http.call('GET', '/api/core/v2/info')).text) as {
        status: { confirmedMilestone: { index: number } };
      }
    ).status.confirmedMilestone.index;
  let accepted = 0;
  let refused = 0;
  const followed: { id: string; at: number }[] = [];
  const referencedAfter: number[] = [];
  const encoder = new TextEncoder();
  const started = Date.now();
  let running = true;
  const client = async (c: number): Promise<void> => {
    let tips: Uint8Array[] = [];
    for (let i = 0; running; i++) {
      let res: Awaited<ReturnType<typeof http.call>>;
      if (MODE === 'json') {
        res = await http.call(
          'POST',
          '/api/core/v2/blocks',
          JSON.stringify({
            protocolVersion: 2,
            payload: { type: 5, tag: toHex0x(encoder.encode('load')), data: toHex0x(encoder.encode(`${c}:${i}`)) },
          }),
          'application/json',
        );
      } else {
        if (i % 50 === 0 || tips.length === 0)
          tips = (JSON.parse((await http.call('GET', '/api/core/v2/tips')).text) as { tips: string[] }).tips.map((t) =>
            fromHex0x(t),
          );
        const bytes = encodeBlock({
          protocolVersion: 2,
          parents: tips,
          payload: { type: 5, tag: encoder.encode('load'), data: encoder.encode(`${c}:${i}`) },
          nonce: 1n,
        });
        res = await http.call('POST', '/api/core/v2/blocks', bytes, 'application/vnd.iota.serializer-v1');
        if (res.status === 201)
          tips = [
            ...new Map([
              [toHex0x(blockIdOf(bytes)), blockIdOf(bytes)],
              ...tips.slice(0, 3).map((t) => [toHex0x(t), t] as const),
            ]).values(),
          ].sort((a, b) => Buffer.compare(a, b));
      }
      if (res.status === 201) {
        accepted++;
        if (accepted % 20 === 0)
          followed.push({ id: (JSON.parse(res.text) as { blockId: string }).blockId, at: Date.now() });
      } else refused++;
    }
  };
  let followUntil = Number.POSITIVE_INFINITY;
  const follower = async (): Promise<void> => {
    while ((running || followed.length > 0) && Date.now() < followUntil) {
      const now = Date.now();
      const batch = followed.splice(0, 50);
      for (const f of batch) {
        const md = JSON.parse((await http.call('GET', `/api/core/v2/blocks/${f.id}/metadata`)).text) as {
          referencedByMilestoneIndex?: number;
        };
        if (md.referencedByMilestoneIndex !== undefined) referencedAfter.push(now - f.at);
        else if (now - f.at < 120_000) followed.push(f);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  console.log(
    `load: ${CONCURRENCY} clients, ${MODE} POSTs, ${SECONDS} s, a milestone every ${INTERVAL} s; ` +
      `then ${AFTER} s without load`,
  );
  let last = { at: started, accepted: 0, index: await confirmedIndex() };
  const firstIndex = last.index;
  const sampler = setInterval(() => {
    void confirmedIndex().then((index) => {
      const now = Date.now();
      const dt = (now - last.at) / 1000;
      console.log(
        `${((now - started) / 1000).toFixed(0).padStart(4)} s  ${running ? 'load' : 'idle'}  ` +
          `${((accepted - last.accepted) / dt).toFixed(0).padStart(5)} blocks/s  ` +
          `${((index - last.index) / dt).toFixed(2)} milestones/s  confirmed ${index}  ` +
          `RSS ${rssMb(node.proc.child.pid!).toFixed(0)} MB`,
      );
      last = { at: now, accepted, index };
    });
  }, SAMPLE * 1000);
  const follow = follower();
  await Promise.race([
    Promise.all(Array.from({ length: CONCURRENCY }, (_, c) => client(c))),
    new Promise((r) => setTimeout(r, SECONDS * 1000)),
  ]);
  running = false;
  const loadEnd = Date.now();
  followUntil = loadEnd + AFTER * 1000;
  const indexAtEnd = await confirmedIndex();
  await new Promise((r) => setTimeout(r, AFTER * 1000));
  const indexAfter = await confirmedIndex();
  await follow;
  clearInterval(sampler);
  const unreferenced = followed.length;
  const loadSeconds = (loadEnd - started) / 1000;
  console.log(
    `\nunder load: ${accepted} blocks accepted (${(accepted / loadSeconds).toFixed(0)}/s), ${refused} refused; ` +
      `${indexAtEnd - firstIndex} milestones in ${loadSeconds.toFixed(0)} s ` +
      `(${((indexAtEnd - firstIndex) / loadSeconds).toFixed(2)}/s)`,
  );
  const watched = Math.max(1, referencedAfter.length + unreferenced);
  const within5s = ((100 * referencedAfter.filter((t) => t <= 5000).length) / watched).toFixed(1);
  console.log(
    `time to reference (1 in 20 blocks, ${referencedAfter.length} followed): ` +
      `p50 ${percentile(referencedAfter, 50)} ms, p95 ${percentile(referencedAfter, 95)} ms, ` +
      `p99 ${percentile(referencedAfter, 99)} ms; within 5 s: ${within5s}%; ` +
      `${unreferenced} still unreferenced ${AFTER} s after the load`,
  );
  console.log(
    `after the load: ${indexAfter - indexAtEnd} milestones in ${AFTER} s ` +
      `(${((indexAfter - indexAtEnd) / AFTER).toFixed(2)}/s)`,
  );
  await node.proc.stop(10_000);
  if (!arg('data-dir', '')) rmSync(dir, { recursive: true, force: true });
  http.close();
}

await main();
