/**
 * Codec throughput against the reference client, on demand (never run by the tests):
 *   npx tsx benchmarks/codec/run.ts [--rounds=7] [--ms=250]
 *
 * Part 1, per real Shimmer block (shimmer_mainnet_milestones_17339_17341.json): decode + encode + block ID per second.
 *   ours          decodeBlock → encodeBlock → blockId (our BLAKE2b-256, src/core/crypto/blake2b.ts)
 *   ours + noble  the same with @noble/hashes blake2b for the ID (what the ID cost was before)
 *   iota.js       deserializeBlock → serializeBlock → Blake2b.sum256 (@iota/iota.js 2.0.0-rc.4, @iota/crypto.js)
 *   plus decode + encode alone for both codecs.
 * Part 2: BLAKE2b-256 µs per call on 100 B .. 32 KB for the noble paths (one-shot, create/update/digest, cloning a
 * prepared state into a reused hasher + digestInto) and ours.
 * Every round runs every variant once, interleaved, for `ms` milliseconds; tables show medians over the rounds.
 * The machine is shared and has 2 cores: read the medians and ratios, not single runs.
 */
import { cpus, loadavg } from 'node:os';
import { blake2b } from '@noble/hashes/blake2.js';
import { Blake2b } from '@iota/crypto.js';
import { deserializeBlock, serializeBlock } from '@iota/iota.js';
import { ReadStream, WriteStream } from '@iota/util.js';
import { fromHex, toHex } from '../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../src/core/codec/index.ts';
import { blake2b256 } from '../../src/core/crypto/blake2b.ts';
import { blockId } from '../../src/core/ids/index.ts';
import { loadVectors } from '../../harness/vectors.ts';
import { median, timeOps } from './timing.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: number): number => Number(scriptArg(name, String(dflt)));
const ROUNDS = arg('rounds', 7);
const MS = arg('ms', 250);

/** The real blocks measured (Shimmer mainnet, milestones 17339..17341). */
const PICK: { kind: string; id: string }[] = [
  { kind: 'tagged data', id: '0xa62cbf7fe64933c8aa1525971bb652b61c70e59ad319542f91346568e6478eff' },
  {
    kind: 'transaction 1 in / 2 out, signed',
    id: '0x28d171d774fbde727bf1defbfd80a8b23315fc3dc28eb2f7ea8fb19892027bf4',
  },
  { kind: 'milestone', id: '0x904351e0e82ec26389d96310fe060b050b056fddef701887b50baea07b62c35c' },
  {
    kind: 'transaction 3 in / 25 out (large)',
    id: '0xd79a2feb857ffe4791bfae2d2e991463bbcc6d9f9d2eeb1276d0931f16ae14dd',
  },
];

function realBlocks(): { kind: string; id: string; bytes: Uint8Array }[] {
  const file = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
  const byId = new Map<string, string>();
  for (const m of file.milestones) for (const c of m.coneInWhiteFlagOrder) byId.set(c.blockId, c.bytes);
  return PICK.map((p) => {
    const hex = byId.get(p.id);
    if (hex === undefined) throw new Error(`block ${p.id} not in the Shimmer vector file`);
    return { ...p, bytes: fromHex(hex) };
  });
}

const pipelines = {
  ours: (bytes: Uint8Array) => blockId(encodeBlock(decodeBlock(bytes))),
  oursNoble: (bytes: Uint8Array) => blake2b(encodeBlock(decodeBlock(bytes)), { dkLen: 32 }),
  iotajs: (bytes: Uint8Array) => {
    const ws = new WriteStream();
    serializeBlock(ws, deserializeBlock(new ReadStream(bytes)));
    return Blake2b.sum256(ws.finalBytes());
  },
  oursCodec: (bytes: Uint8Array) => encodeBlock(decodeBlock(bytes)),
  iotajsCodec: (bytes: Uint8Array) => {
    const ws = new WriteStream();
    serializeBlock(ws, deserializeBlock(new ReadStream(bytes)));
    return ws.finalBytes();
  },
};
type Pipeline = keyof typeof pipelines;

/** All pipelines must agree on the bytes and the ID before anything is timed. */
function check(b: { kind: string; id: string; bytes: Uint8Array }): void {
  const hex = toHex(b.bytes);
  for (const p of ['ours', 'oursNoble', 'iotajs'] as Pipeline[]) {
    const id = '0x' + toHex(pipelines[p](b.bytes) as Uint8Array);
    if (id !== b.id) throw new Error(`${p} gives block ID ${id} for ${b.kind}, expected ${b.id}`);
  }
  for (const p of ['oursCodec', 'iotajsCodec'] as Pipeline[]) {
    if (toHex(pipelines[p](b.bytes) as Uint8Array) !== hex)
      throw new Error(`${p} does not re-encode ${b.kind} identically`);
  }
}

const fmt = (n: number): string => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));

function codecTable(): string {
  const blocks = realBlocks();
  blocks.forEach(check);
  const names = Object.keys(pipelines) as Pipeline[];
  const rates = new Map<string, number[]>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const b of blocks)
      for (const p of names) {
        const key = `${b.kind}|${p}`;
        const f = pipelines[p];
        const list = rates.get(key) ?? [];
        list.push(timeOps(() => f(b.bytes), MS));
        rates.set(key, list);
      }
  }
  const m = (b: { kind: string }, p: Pipeline) => median(rates.get(`${b.kind}|${p}`)!);
  const lines = [
    '| block (real, Shimmer) | bytes | ours blocks/s | iota.js blocks/s | **ratio** | ' +
      'ours with noble BLAKE2b blocks/s | ratio with noble | decode+encode only: ours / iota.js | codec-only ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const b of blocks) {
    const o = m(b, 'ours'),
      i = m(b, 'iotajs'),
      n = m(b, 'oursNoble'),
      oc = m(b, 'oursCodec'),
      ic = m(b, 'iotajsCodec');
    lines.push(
      `| ${b.kind} | ${b.bytes.length} | ${fmt(o)} | ${fmt(i)} | **${(o / i).toFixed(1)}x** ` +
        `| ${fmt(n)} | ${(n / i).toFixed(1)}x | ${fmt(oc)} / ${fmt(ic)} ` +
        `| ${(oc / ic).toFixed(1)}x |`,
    );
  }
  return lines.join('\n');
}

function blakeTable(): string {
  const SIZES = [100, 300, 1000, 4096, 32768];
  const prepared = blake2b.create({ dkLen: 32 });
  const reused = blake2b.create({ dkLen: 32 });
  const out = new Uint8Array(32);
  const paths: Record<string, (d: Uint8Array) => unknown> = {
    'noble `blake2b(d, {dkLen: 32})` (before)': (d) => blake2b(d, { dkLen: 32 }),
    'noble `blake2b.create()` + update + digest': (d) => blake2b.create({ dkLen: 32 }).update(d).digest(),
    'noble `_cloneInto(reused)` + update + `digestInto`': (d) => {
      (prepared as unknown as { _cloneInto(to: unknown): void })._cloneInto(reused);
      reused.update(d);
      reused.digestInto(out);
      return out;
    },
    'ours `blake2b256(d)` (now)': (d) => blake2b256(d),
  };
  const names = Object.keys(paths);
  const us = new Map<string, number[]>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const size of SIZES) {
      const d = new Uint8Array(size).map((_, i) => (i * 31 + 7) & 0xff);
      for (const p of names) {
        const key = `${p}|${size}`;
        const list = us.get(key) ?? [];
        list.push(1e6 / timeOps(() => paths[p]!(d), MS / 2));
        us.set(key, list);
      }
    }
  }
  const m = (p: string, s: number) => median(us.get(`${p}|${s}`)!);
  const lines = [
    '| BLAKE2b-256 path | ' + SIZES.map((s) => `${s} B µs`).join(' | ') + ' |',
    '|---|' + SIZES.map(() => '---:').join('|') + '|',
  ];
  for (const p of names) lines.push(`| ${p} | ${SIZES.map((s) => m(p, s).toFixed(2)).join(' | ')} |`);
  const base = names[0]!;
  for (const p of names.slice(1))
    lines.push(
      `| speed-up of ${p.replace(/ \(now\)$/, '')} over noble one-shot ` +
        `| ${SIZES.map((s) => (m(base, s) / m(p, s)).toFixed(2) + 'x').join(' | ')} |`,
    );
  return lines.join('\n');
}

const before = loadavg()[0]!;
const started = Date.now();
const codec = codecTable();
const blake = blakeTable();
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`## Codec: decode + encode + block ID per second (medians of ${ROUNDS} interleaved rounds of ${MS} ms)\n`);
console.log(codec);
console.log(`\n## BLAKE2b-256 per call (medians of ${ROUNDS} rounds)\n`);
console.log(blake);
console.log(
  `\nnode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load average ` +
    `${before.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}, ${seconds} s`,
);
