/**
 * A wide tip pool, as anyone can make one: `npx tsx benchmarks/load/wide.ts [--blocks 10000] [--probes 200]`.
 * Starts `ledger-node run` (min PoW score 0), POSTs `blocks` raw blocks side by side on the same 8 parents (every one
 * a tip), then measures node-filled POSTs (JSON without parents or nonce: tip selection on that pool) one at a time:
 * median and p99 latency before and after the wide pool, and after the next milestone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHex0x, toHex0x } from '../../src/core/bytes.ts';
import { encodeBlock } from '../../src/core/codec/index.ts';
import { spawnNode } from '../../harness/process.ts';
import { httpClient, percentile, type HttpClient } from './http.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const BLOCKS = Number(arg('blocks', '10000'));
const PROBES = Number(arg('probes', '200'));

const encoder = new TextEncoder();

async function probe(http: HttpClient, label: string): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const t0 = performance.now();
    const res = await http.call(
      'POST',
      '/api/core/v2/blocks',
      JSON.stringify({
        protocolVersion: 2,
        payload: { type: 5, tag: toHex0x(encoder.encode('probe')), data: toHex0x(encoder.encode(`${label}${i}`)) },
      }),
      'application/json',
    );
    if (res.status !== 201) throw new Error(`probe: ${res.status} ${res.text}`);
    ms.push(performance.now() - t0);
  }
  console.log(
    `${label.padEnd(34)} node-filled POST: median ${percentile(ms, 50).toFixed(2)} ms, ` +
      `p99 ${percentile(ms, 99).toFixed(2)} ms`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-wide-'));
const node = await spawnNode(dir, ['--min-pow-score', '0', '--milestone-interval', '1', '--pow-workers', '0']);
const http = httpClient(node.rest, 64);
try {
  await probe(http, 'before');
  // 8 parents: grow the tangle until GET /tips gives 4, twice.
  const parents = new Map<string, Uint8Array>();
  while (parents.size < 8) {
    for (const t of (JSON.parse((await http.call('GET', '/api/core/v2/tips')).text) as { tips: string[] }).tips)
      parents.set(t, fromHex0x(t));
    if (parents.size < 8)
      await http.call(
        'POST',
        '/api/core/v2/blocks',
        JSON.stringify({
          protocolVersion: 2,
          payload: { type: 5, tag: '0x', data: toHex0x(encoder.encode(String(parents.size))) },
        }),
        'application/json',
      );
  }
  const same = [...parents.values()].slice(0, 8).sort((a, b) => Buffer.compare(a, b));
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < BLOCKS) {
        const i = next++;
        const bytes = encodeBlock({
          protocolVersion: 2,
          parents: same,
          payload: { type: 5, tag: encoder.encode('wide'), data: encoder.encode(String(i)) },
          nonce: 1n,
        });
        const res = await http.call('POST', '/api/core/v2/blocks', bytes, 'application/vnd.iota.serializer-v1');
        if (res.status !== 201) throw new Error(`wide: ${res.status} ${res.text}`);
      }
    }),
  );
  console.log(`${BLOCKS} blocks on the same 8 parents in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await probe(http, `after ${BLOCKS} side by side`);
  await new Promise((r) => setTimeout(r, 2500));
  await probe(http, 'after the next milestones');
} finally {
  await node.proc.stop(10_000);
  rmSync(dir, { recursive: true, force: true });
  http.close();
}
