/**
 * LevelDB against RocksDB through the node's own store layer, on demand (never run by the tests):
 *   npx tsx benchmarks/storage/engines.ts [--blocks 100000,1000000] [--chunk 10000] [--group 100] [--reads 20000]
 *     [--read-rounds 5] [--concurrency 16] [--dir FOLDER]
 * For each N of `--blocks`, each engine runs in its own child process (so RSS is its own) on a new store under
 * `--dir` (default: the OS temp dir; pass a folder on the disk you care about, fsync cost depends on it), through
 * NodeStore exactly as the node writes:
 *   - group commits: `--group` blocks per atomic batch with sync on (the node's attach stores the blocks waiting when
 *     a write starts in one durable batch); per block its bytes (300 random bytes, incompressible like hashes and
 *     signatures), its metadata with cone root indexes, one children edge per parent (2 parents drawn from the tips
 *     as the group starts, like concurrent submissions), the tips table ops (the parents leave it, the block enters);
 *   - a confirmation every 5 groups: one durable batch rewriting the metadata of the blocks stored since the last one
 *     as referenced, plus the milestone record and ledger meta (what White-Flag confirmation writes besides the UTXO);
 *   - random reads: a block's bytes and its metadata for uniformly random stored blocks, `--concurrency` at a time.
 * Interleaved: the fill alternates between the engines chunk by chunk (`--chunk` blocks each, the order flipping
 * every chunk), then `--read-rounds` rounds of `--reads` reads each alternate the same way; so machine noise lands
 * on both. Reported: median rates over the chunks and rounds (and the median of the paired chunk ratios), fill
 * time, size on disk (allocated, like du) and the child's RSS after the fill and after the reads (and its peak).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { META, NodeStore, type BlockMetadata } from '../../src/core/store/index.ts';
import { DB_ENGINES, isDbEngine, openKeyValueStore, type DbEngine } from '../../src/storage/open.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

type Request =
  | { op: 'write'; from: number; count: number }
  | { op: 'read'; count: number; upTo: number; seed: number; concurrency: number }
  | { op: 'stats' }
  | { op: 'close' };
type Stats = { rss: number; maxRss: number; disk: number };
type Reply = { ok: true; ms?: number; stats?: Stats } | { ok: false; error: string };

const GROUP_DEFAULT = 100;
const CONFIRM_EVERY = 5; // groups per confirmation
const BLOCK_BYTES = 300;

/** A block ID (32 bytes spread like a hash) for block number i >= 1; the same i gives the same ID in every process. */
function blockId(i: number): Uint8Array {
  const id = new Uint8Array(32);
  const v = new DataView(id.buffer);
  let x = i >>> 0;
  let y = Math.floor(i / 2 ** 32) ^ 0x9e3779b9;
  for (let w = 0; w < 8; w++) {
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ Math.imul(y + w, 0xc2b2ae35);
    x ^= x >>> 13;
    y = Math.imul(y ^ (y >>> 15), 0x27d4eb2f) + x;
    v.setUint32(w * 4, (x ^ y) >>> 0);
  }
  return id;
}

/** A small fast PRNG (mulberry32): reproducible block bytes, parents and read keys. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function du(path: string): number {
  let total = 0;
  for (const name of readdirSync(path)) {
    const st = statSync(join(path, name));
    total += st.isDirectory() ? du(join(path, name)) : st.blocks * 512;
  }
  return total;
}

// ---------------------------------------------------------------------------------------------------------------
// Child: one engine, one store, commands over IPC.

async function child(engine: DbEngine, location: string, group: number): Promise<void> {
  const store = await NodeStore.open(await openKeyValueStore(engine, location), { networkName: 'bench' });
  const random = prng(0x5eed);
  let tips: number[] = []; // the blocks without children (block numbers), as in the store's tips table
  let unconfirmed: { id: Uint8Array; metadata: BlockMetadata }[] = [];
  let groups = 0;
  let milestone = 0;

  /** One group: its blocks pick 2 parents each among the tips when the group starts (like concurrent submissions). */
  async function writeBlocks(from: number, count: number): Promise<void> {
    for (let start = from; start < from + count; start += group) {
      const batch = store.batch();
      const used = new Set<number>();
      const added: number[] = [];
      for (let i = start; i < Math.min(start + group, from + count); i++) {
        const id = blockId(i);
        const parents =
          tips.length === 0 ? [] : [...new Set([0, 1].map(() => tips[Math.floor(random() * tips.length)]!))];
        const bytes = new Uint8Array(BLOCK_BYTES);
        const view = new DataView(bytes.buffer);
        for (let b = 0; b < BLOCK_BYTES; b += 4) view.setUint32(b, (random() * 4294967296) >>> 0);
        const metadata: BlockMetadata = {
          protocolVersion: 2,
          solid: true,
          arrivalTime: Date.now(),
          coneRoots: { ycri: milestone, ocri: Math.max(0, milestone - 1), ci: milestone },
        };
        batch.addBlock({
          blockId: id,
          bytes,
          parents: parents.length > 0 ? parents.map(blockId) : [new Uint8Array(32)],
          metadata,
        });
        for (const p of parents) used.add(p);
        added.push(i);
        batch.addTip(id);
        unconfirmed.push({ id, metadata });
      }
      for (const p of used) batch.removeTip(blockId(p));
      tips = tips.filter((t) => !used.has(t)).concat(added);
      await batch.commit({ sync: true });
      if (++groups % CONFIRM_EVERY === 0) await confirm();
    }
  }

  async function confirm(): Promise<void> {
    milestone++;
    const batch = store.batch();
    unconfirmed.forEach(({ id, metadata }, whiteFlagIndex) => {
      batch.putBlockMetadata(id, {
        ...metadata,
        referenced: {
          milestoneIndex: milestone,
          whiteFlagIndex,
          ledgerInclusionState: 'noTransaction',
          conflictReason: 0,
        },
      });
    });
    const last = unconfirmed[unconfirmed.length - 1]!.id;
    batch.putMilestone(milestone, {
      milestoneId: blockId(2 ** 40 + milestone),
      blockId: last,
      timestamp: Math.floor(Date.now() / 1000),
    });
    batch
      .putMeta(META.latestMilestoneIndex, milestone)
      .putMeta(META.confirmedMilestoneIndex, milestone)
      .putMeta(META.ledgerIndex, milestone);
    await batch.commit({ sync: true });
    unconfirmed = [];
  }

  async function read(count: number, upTo: number, seed: number, concurrency: number): Promise<void> {
    const r = prng(seed);
    let left = count;
    const lane = async (): Promise<void> => {
      while (left-- > 0) {
        const id = blockId(1 + Math.floor(r() * upTo));
        const [bytes, metadata] = [await store.getBlock(id), await store.getBlockMetadata(id)];
        if (bytes?.length !== BLOCK_BYTES || metadata === undefined) throw new Error('a stored block is missing');
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
  }

  const stats = (): Stats => ({
    rss: process.memoryUsage().rss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    disk: du(location),
  });

  process.on('message', (m: Request) => {
    const t0 = performance.now();
    const done = (p: Promise<unknown>, withStats = false): void => {
      p.then(
        () =>
          process.send!({
            ok: true,
            ms: performance.now() - t0,
            ...(withStats ? { stats: stats() } : {}),
          } satisfies Reply),
        (e: unknown) => process.send!({ ok: false, error: String((e as Error)?.stack ?? e) } satisfies Reply),
      );
    };
    if (m.op === 'write') done(writeBlocks(m.from, m.count));
    else if (m.op === 'read') done(read(m.count, m.upTo, m.seed, m.concurrency));
    else if (m.op === 'stats') done(Promise.resolve(), true);
    else store.close().then(() => process.send!({ ok: true } satisfies Reply, () => process.disconnect()));
  });
  process.send!({ ok: true } satisfies Reply);
}

// ---------------------------------------------------------------------------------------------------------------
// Parent: spawns one child per engine, interleaves them, reports.

class EngineProcess {
  private readonly proc: ChildProcess;
  private waiting: ((r: Reply) => void) | undefined;
  readonly ready: Promise<void>;

  constructor(
    readonly engine: DbEngine,
    location: string,
    group: number,
  ) {
    this.proc = fork(fileURLToPath(import.meta.url), ['--child', engine, location, String(group)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.proc.on('message', (r: Reply) => {
      const w = this.waiting;
      this.waiting = undefined;
      w?.(r);
    });
    this.ready = new Promise((resolve, reject) => {
      this.waiting = (r) => (r.ok ? resolve() : reject(new Error(r.error)));
      this.proc.once('exit', (code) => reject(new Error(`${engine} child exited with ${code}`)));
    });
  }

  request(req: Request): Promise<{ ms: number; stats?: Stats }> {
    return new Promise((resolve, reject) => {
      this.waiting = (r) =>
        r.ok
          ? resolve({ ms: r.ms ?? 0, ...(r.stats ? { stats: r.stats } : {}) })
          : reject(new Error(`${this.engine}: ${r.error}`));
      this.proc.send(req);
    });
  }

  async close(): Promise<void> {
    const exited = new Promise((r) => this.proc.once('exit', r));
    await this.request({ op: 'close' });
    await exited;
  }
}

const median = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const k = (x: number): string => Math.round(x).toLocaleString('en-US');
const mb = (x: number): string => `${(x / 2 ** 20).toFixed(0)} MB`;

function flag(name: string, dflt: string): string {
  return scriptArg(name, dflt);
}
function count(name: string, dflt: string): number[] {
  const xs = flag(name, dflt)
    .split(',')
    .map((s) => Number(s.replace(/_/g, '')));
  if (xs.some((x) => !Number.isSafeInteger(x) || x < 1))
    throw new Error(`--${name}: expected integers >= 1, got ${flag(name, dflt)}`);
  return xs;
}

async function compare(
  n: number,
  base: string,
  o: { chunk: number; group: number; reads: number; readRounds: number; concurrency: number },
): Promise<void> {
  const root = mkdtempSync(join(base, 'ledger-engines-'));
  const procs = DB_ENGINES.map((e) => new EngineProcess(e, join(root, e), o.group));
  try {
    await Promise.all(procs.map((p) => p.ready));
    const write: Record<string, number[]> = {};
    const fillMs: Record<string, number> = {};
    const pairRatios: number[] = [];
    const t0 = performance.now();
    let chunkNo = 0;
    for (let from = 1; from <= n; from += o.chunk, chunkNo++) {
      const count = Math.min(o.chunk, n - from + 1);
      const order = chunkNo % 2 === 0 ? procs : procs.slice().reverse();
      const rates: Record<string, number> = {};
      for (const p of order) {
        const { ms } = await p.request({ op: 'write', from, count });
        rates[p.engine] = count / (ms / 1000);
        write[p.engine] ??= [];
        write[p.engine]!.push(rates[p.engine]!);
        fillMs[p.engine] = (fillMs[p.engine] ?? 0) + ms;
      }
      pairRatios.push(rates.rocksdb! / rates.leveldb!);
      if (chunkNo % 10 === 9 || from + count > n) {
        process.stderr.write(
          `  ${k(from + count - 1)} blocks: ` +
            `${DB_ENGINES.map((e) => `${e} ${k(rates[e]!)}/s`).join(', ')} ` +
            `(${((performance.now() - t0) / 1000).toFixed(0)} s)\n`,
        );
      }
    }
    const afterFill: Record<string, Stats> = {};
    for (const p of procs) afterFill[p.engine] = (await p.request({ op: 'stats' })).stats!;
    const read: Record<string, number[]> = {};
    for (let round = 0; round < o.readRounds; round++) {
      const order = round % 2 === 0 ? procs : procs.slice().reverse();
      for (const p of order) {
        const { ms } = await p.request({
          op: 'read',
          count: o.reads,
          upTo: n,
          seed: 1000 + round,
          concurrency: o.concurrency,
        });
        read[p.engine] ??= [];
        read[p.engine]!.push(o.reads / (ms / 1000));
      }
    }
    const afterReads: Record<string, Stats> = {};
    for (const p of procs) afterReads[p.engine] = (await p.request({ op: 'stats' })).stats!;

    const [a, b] = DB_ENGINES;
    const row = (label: string, f: (e: DbEngine) => number, fmt: (x: number) => string, ratio = f(b) / f(a)): string =>
      `| ${label} | ${fmt(f(a))} | ${fmt(f(b))} | ${ratio.toFixed(2)} |`;
    console.log(
      `\n${k(n)} blocks (${Math.ceil(n / o.chunk)} interleaved chunks of ${k(o.chunk)}, ` +
        `groups of ${o.group} blocks per sync batch, confirmation every ${CONFIRM_EVERY} groups; ` +
        `${o.readRounds} read rounds of ${k(o.reads)}, ${o.concurrency} at a time)`,
    );
    console.log(`| | ${a} | ${b} | ${b} / ${a} |`);
    console.log('|---|---:|---:|---:|');
    console.log(row('blocks written/s, median of chunks', (e) => median(write[e]!), k, median(pairRatios)));
    console.log(
      row(
        'fill time',
        (e) => fillMs[e]! / 1000,
        (x) => `${x.toFixed(1)} s`,
      ),
    );
    console.log(row('block + metadata reads/s, median of rounds', (e) => median(read[e]!), k));
    console.log(row('size on disk after the fill', (e) => afterFill[e]!.disk, mb));
    console.log(row('size on disk after the reads', (e) => afterReads[e]!.disk, mb));
    console.log(row('RSS after the fill', (e) => afterFill[e]!.rss, mb));
    console.log(row('RSS after the reads', (e) => afterReads[e]!.rss, mb));
    console.log(row('peak RSS', (e) => afterReads[e]!.maxRss, mb));
  } finally {
    await Promise.allSettled(procs.map((p) => p.close()));
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') {
  const [, , , engine, location, group] = process.argv;
  if (!isDbEngine(engine) || !location) throw new Error('usage: engines.ts --child <engine> <folder> <group>');
  await child(engine, location, Number(group ?? GROUP_DEFAULT));
} else {
  const blocks = count('blocks', '100000');
  const [chunk, group, reads, readRounds, concurrency] = ['chunk', 'group', 'reads', 'read-rounds', 'concurrency'].map(
    (f, i) => count(f, ['10000', String(GROUP_DEFAULT), '20000', '5', '16'][i]!)[0]!,
  ) as [number, number, number, number, number];
  const base = flag('dir', tmpdir());
  console.log(
    `node ${process.version}; engines ${DB_ENGINES.join(', ')} (same cache 8 MB, write buffer 4 MB, ` +
      `bloom filters); stores under ${base === tmpdir() ? 'the OS temp dir' : base}`,
  );
  for (const n of blocks) await compare(n, base, { chunk, group, reads, readRounds, concurrency });
}
