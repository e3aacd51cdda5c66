/**
 * The crash test (run by scripts/crash-test.ts and, bounded, by crash.test.ts): `ledger-node run` on a temp folder
 * (fast milestones, low PoW score) under a submission load of tagged-data blocks and transfer lanes, SIGKILLed at
 * seeded random moments and restarted each time without any repair; then one clean stop, every acknowledged (201)
 * block read back raw (same ID = same bytes, same payload as sent) and the consistency checker run on the store.
 * `engine` picks the storage engine (`--db-engine`); the checker opens the store with the engine the folder keeps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkDataDir } from '../../src/node/check/data-dir.ts';
import type { CheckReport } from '../../src/node/check/consistency.ts';
import { engineOfDataDir, type DbEngine } from '../../src/storage/open.ts';
import { spawnNode, type SpawnedNode } from '../process.ts';
import {
  makeLanes,
  postTagged,
  prng,
  readDevWallet,
  request,
  verifyAcks,
  type Ack,
  type Lane,
  type Target,
} from './load.ts';

export interface CrashOptions {
  kills: number;
  seed: number;
  /** Storage engine of the node (`--db-engine`; default: the node's default). */
  engine?: DbEngine;
  /** Data folder (default: a new temp folder, removed at the end unless `keep`). */
  dataDir?: string;
  keep?: boolean;
  /** Time between kills: uniform in [minUpMs, maxUpMs] after the node is ready. */
  minUpMs?: number;
  maxUpMs?: number;
  milestoneInterval?: number;
  taggedWorkers?: number;
  lanes?: number;
  log?: (line: string) => void;
}

export interface CrashResult {
  kills: number;
  acknowledged: number;
  acknowledgedTransfers: number;
  lost: string[];
  restartMs: number[];
  ledgerIndexBefore: number[];
  /** Submissions in flight (sent, not answered) at each kill: their outcome is unknown, they are not counted. */
  inFlightAtKill: number[];
  /**
   * Kills that hit between a milestone block's storage and its confirmation: the restarted node confirmed that
   * milestone while resuming (its "confirmed milestone" log line comes before "ledger at milestone").
   */
  midMilestone: number;
  check: CheckReport;
  dataDir: string;
  /** The engine of the store the node left (by its folder). */
  engine: DbEngine | undefined;
}

const median = (xs: number[]): number =>
  xs.length === 0 ? NaN : xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export { median };

async function ledgerIndex(target: Target): Promise<number | undefined> {
  const r = await request(target, '/api/core/v2/info', { headers: { accept: 'application/json' } });
  return (r.body as { status?: { confirmedMilestone?: { index?: number } } } | undefined)?.status?.confirmedMilestone
    ?.index;
}

export async function runCrashTest(o: CrashOptions): Promise<CrashResult> {
  const log = o.log ?? (() => undefined);
  const random = prng(o.seed);
  const root = o.dataDir === undefined ? mkdtempSync(join(tmpdir(), 'crash-test-')) : undefined;
  const dataDir = o.dataDir ?? join(root!, 'data');
  const args = [
    '--min-pow-score',
    '10',
    '--pow-workers',
    '1',
    '--milestone-interval',
    String(o.milestoneInterval ?? 0.2),
    ...(o.engine ? ['--db-engine', o.engine] : []),
  ];
  const target: Target = { base: undefined };
  const acks: Ack[] = [];
  const restartMs: number[] = [];
  const ledgerIndexBefore: number[] = [];
  const inFlightAtKill: number[] = [];
  let inFlight = 0;
  let midMilestone = 0;
  const counted = async <T>(p: () => Promise<T>): Promise<T> => {
    inFlight++;
    try {
      return await p();
    } finally {
      inFlight--;
    }
  };
  let node: SpawnedNode | undefined;
  let stopLoad = false;
  const loops: Promise<void>[] = [];
  const start = async (): Promise<void> => {
    const t = performance.now();
    node = await spawnNode(dataDir, args);
    restartMs.push(performance.now() - t);
    target.base = node.rest;
    const out = node.proc.output();
    const resumed = out.indexOf('confirmed milestone');
    if (resumed >= 0 && resumed < out.indexOf('ledger at milestone')) midMilestone++;
  };
  try {
    await start();
    restartMs.length = 0; // the first start creates the network: not a restart
    const wallet = readDevWallet(dataDir);
    const lanes: Lane[] = await makeLanes(target, acks, wallet, o.lanes ?? 4);
    let n = 0;
    const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
    for (let w = 0; w < (o.taggedWorkers ?? 2); w++) {
      loops.push(
        (async () => {
          while (!stopLoad) {
            const r = await counted(() => postTagged(target, acks, 'crash-test', `block ${n++} ${Date.now()}`));
            if (r.status !== 201) await pause(20);
          }
        })(),
      );
    }
    for (const lane of lanes) {
      loops.push(
        (async () => {
          while (!stopLoad) {
            const r = await counted(() => lane.step(target, acks));
            if (r === undefined || r.status !== 201) await pause(50);
          }
        })(),
      );
    }
    for (let k = 0; k < o.kills; k++) {
      const up = (o.minUpMs ?? 300) + random() * ((o.maxUpMs ?? 2500) - (o.minUpMs ?? 300));
      await pause(up);
      ledgerIndexBefore.push((await ledgerIndex(target)) ?? -1);
      inFlightAtKill.push(inFlight);
      const mid = midMilestone;
      target.base = undefined;
      node!.proc.child.kill('SIGKILL');
      await node!.proc.exited;
      log(
        `kill ${k + 1}/${o.kills} after ${Math.round(up)} ms up: ${acks.length} acknowledged so far, ` +
          `ledger index ${ledgerIndexBefore[k]}, ${inFlightAtKill[k]} submissions in flight`,
      );
      await start();
      const hit = ' (the kill hit a milestone between its block and its confirmation: confirmed on restart)';
      log(`  restarted in ${Math.round(restartMs[restartMs.length - 1]!)} ms${midMilestone > mid ? hit : ''}`);
    }
    // Let the ledger move on after the last restart: the node must keep confirming.
    const before = (await ledgerIndex(target)) ?? 0;
    const until = Date.now() + 20000;
    while (((await ledgerIndex(target)) ?? 0) < before + 2 && Date.now() < until) await pause(100);
    stopLoad = true;
    await Promise.all(loops);
    const lost = await verifyAcks(target, acks);
    target.base = undefined;
    const code = await node!.proc.stop();
    node = undefined;
    if (code !== 0) throw new Error(`the node did not stop cleanly (exit ${code})`);
    const check = await checkDataDir(dataDir);
    return {
      kills: o.kills,
      acknowledged: acks.length,
      acknowledgedTransfers: acks.filter((a) => a.kind === 'transfer').length,
      lost,
      restartMs,
      ledgerIndexBefore,
      inFlightAtKill,
      midMilestone,
      check,
      dataDir,
      engine: engineOfDataDir(dataDir),
    };
  } finally {
    stopLoad = true;
    await Promise.allSettled(loops);
    if (node) {
      node.proc.child.kill('SIGKILL');
      await node.proc.exited;
    }
    if (root && !o.keep) rmSync(root, { recursive: true, force: true });
  }
}
