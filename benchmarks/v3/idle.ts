/**
 * What an idle node costs over time: `ledger-node run` (the compiled node, bin/ledger-node.js) on a fresh data folder
 * with nothing submitted, sampled every `--window` seconds for `--windows` windows after `--warmup` seconds: CPU
 * (user + system of all threads, as a share of one core), RSS, and how fast the data folder grows (all of it, and the
 * store's write-ahead log and its sorted tables apart), as bytes a day. Medians of the windows at the end. On demand,
 * never run by the tests:
 *   bash scripts/build.sh
 *   npx tsx benchmarks/v3/idle.ts [--window 60] [--windows 5] [--warmup 20] [--a="FLAGS"] [--b="FLAGS"]
 *     [--b-bin FILE] [--cpu-prof DIR] [--keep]
 * `--a` (default: none, the default dev node) and `--b` are the extra flags of two nodes run side by side on folders of
 * their own, so both see the same machine (e.g. `--b="--validation-interval 0"` shows what the v3 validator costs).
 * `--b-bin FILE` runs node b from another checkout's bin/ledger-node.js (built; e.g. a `git worktree` of the commit
 * before a change), so the two commits' idle costs are measured at the same time. `--cpu-prof DIR` runs both under
 * `node --cpu-prof --cpu-prof-dir DIR` (profiles written when they stop); `--keep` leaves the data folders.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { folderSize } from '../../src/node/pruning/size.ts';
import { cpuSeconds, rssMb, spawnNode, type SpawnedNode } from '../../harness/process.ts';
import { scriptArg, scriptNumber, scriptOption, scriptSwitch } from '../../scripts/lib/args.ts';

const WINDOW_S = scriptNumber('window', 60, { positive: true });
const WINDOWS = scriptNumber('windows', 5, { positive: true });
const WARMUP_S = scriptNumber('warmup', 20);
const PROFILE_DIR = scriptOption('cpu-prof');
const KEEP = scriptSwitch('keep');
const DAY_S = 86_400;

interface Sample {
  cpu: number;
  total: number;
  wal: number;
  sst: number;
}

interface Runner {
  name: string;
  flags: string[];
  dir: string;
  node: SpawnedNode;
  last: Sample;
  rows: { cpuPct: number; rss: number; totalPerDay: number; walPerDay: number; sstPerDay: number }[];
}

/** Bytes of the files in the store folder whose names end with `suffix` (`.log`: the WAL, `.sst`/`.ldb`: tables). */
function filesEnding(folder: string, suffixes: readonly string[]): number {
  let n = 0;
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!suffixes.some((s) => name.endsWith(s))) continue;
    try {
      n += statSync(join(folder, name)).size;
    } catch {
      // removed by a compaction meanwhile
    }
  }
  return n;
}

function sample(r: { dir: string; node: SpawnedNode }): Sample {
  const db = readdirSync(r.dir).find((n) => n.startsWith('db')) ?? 'db-rocksdb';
  return {
    cpu: cpuSeconds([r.node.proc.child.pid!]),
    total: folderSize(r.dir),
    wal: filesEnding(join(r.dir, db), ['.log']),
    sst: filesEnding(join(r.dir, db), ['.sst', '.ldb']),
  };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const mbDay = (bytesPerS: number): string => ((bytesPerS * DAY_S) / 1e6).toFixed(1);

async function start(name: string, flagText: string, bin?: string): Promise<Runner> {
  const flags = flagText.trim() === '' ? [] : flagText.trim().split(/\s+/);
  const dir = mkdtempSync(join(tmpdir(), `idle-${name}-`));
  const nodeFlags = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', join(PROFILE_DIR, name)] : [];
  const node = await spawnNode(dir, flags, { nodeFlags, timeoutMs: 120_000, ...(bin ? { bin } : {}) });
  return { name, flags, dir, node, last: sample({ dir, node }), rows: [] };
}

const variants = [['a', scriptArg('a', '')]] as [string, string][];
const b = scriptOption('b') ?? (scriptOption('b-bin') !== undefined ? '' : undefined);
if (b !== undefined) variants.push(['b', b]);
const runners: Runner[] = [];
try {
  const bBin = scriptOption('b-bin');
  for (const [name, flags] of variants) runners.push(await start(name, flags, name === 'b' ? bBin : undefined));
  for (const r of runners)
    console.log(
      `${r.name}: ledger-node run ${r.flags.join(' ') || '(defaults)'}${r.name === 'b' && bBin ? ` (${bBin})` : ''}`,
    );
  await sleep(WARMUP_S * 1000);
  for (const r of runners) r.last = sample(r);
  console.log('window | node | CPU % of a core | RSS MB | folder MB/day | WAL MB/day | tables MB/day');
  for (let w = 1; w <= WINDOWS; w++) {
    await sleep(WINDOW_S * 1000);
    for (const r of runners) {
      const now = sample(r);
      const row = {
        cpuPct: ((now.cpu - r.last.cpu) / WINDOW_S) * 100,
        rss: rssMb(r.node.proc.child.pid!),
        totalPerDay: (now.total - r.last.total) / WINDOW_S,
        walPerDay: (now.wal - r.last.wal) / WINDOW_S,
        sstPerDay: (now.sst - r.last.sst) / WINDOW_S,
      };
      r.rows.push(row);
      r.last = now;
      console.log(
        `${w} | ${r.name} | ${row.cpuPct.toFixed(2)} | ${row.rss.toFixed(1)} | ${mbDay(row.totalPerDay)} | ` +
          `${mbDay(row.walPerDay)} | ${mbDay(row.sstPerDay)}`,
      );
    }
  }
  console.log(`medians of ${WINDOWS} windows of ${WINDOW_S} s:`);
  for (const r of runners) {
    const m = (f: (x: Runner['rows'][number]) => number): number => median(r.rows.map(f));
    console.log(
      `${r.name} (${r.flags.join(' ') || 'defaults'}): CPU ${m((x) => x.cpuPct).toFixed(2)}% of a core, ` +
        `RSS ${m((x) => x.rss).toFixed(1)} MB, folder +${mbDay(m((x) => x.totalPerDay))} MB/day ` +
        `(WAL ${mbDay(m((x) => x.walPerDay))}, tables ${mbDay(m((x) => x.sstPerDay))}), ` +
        `${(folderSize(r.dir) / 1e6).toFixed(1)} MB now`,
    );
  }
} finally {
  for (const r of runners) {
    await r.node.proc.stop();
    if (!KEEP) rmSync(r.dir, { recursive: true, force: true });
  }
}
