/**
 * The fault suite (scripts/faults.ts, and bounded test/e2e/faults/suite.test.ts): a cluster (cluster.ts) under the
 * workload (workload.ts), one fault per cycle (faults.ts, cycle.ts), then the checker after the last heal: the
 * workload stopped, every node past max depth for every acknowledged block, the remaining milestones compared, every
 * acknowledged block and double spend judged (check-blocks.ts). Nft rules and processes are removed at the end, also
 * on failure and on SIGINT/SIGTERM.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prng } from '../crash/load.ts';
import { NftFaults } from '../nft.ts';
import {
  classifyAcks,
  judgeDoubles,
  readMetadata,
  type AckVerdicts,
  type DoubleVerdicts,
  type Metadata,
} from './check-blocks.ts';
import { emptyComparison, type MilestoneComparison } from './check-milestones.ts';
import { compareMilestones } from './check-milestones.ts';
import { Cluster } from './cluster.ts';
import { latestIndex, settled } from './converge.ts';
import { runCycle, type CycleContext, type CycleRecord } from './cycle.ts';
import { possibleKinds, schedule, type FaultKind, type FaultTiming } from './faults.ts';
import { fund } from './funding.ts';
import { Journal } from './journal.ts';
import { Wallet } from './wallet.ts';
import { Workload, type WorkloadOptions } from './workload.ts';

export interface FaultSuiteOptions extends FaultTiming {
  cycles: number;
  seed: number;
  /** Nodes (default 3). */
  size?: number;
  /** The first node's loopback address (default 127.0.0.2). */
  firstAddress?: string;
  /** Seconds between milestones (default 0.5). */
  milestoneInterval?: number;
  /** A standalone gateway over the last node (default true). */
  gateway?: boolean;
  /** The fault kinds to draw from (default: every kind the cluster can have). */
  kinds?: FaultKind[];
  /** How long a heal may take to converge (default 30 s). */
  catchUpTimeoutMs?: number;
  /** Pause after each cycle (default 1 s). */
  settleMs?: number;
  workload?: WorkloadOptions;
  /** The nft binary (default: found by harness/nft.ts). */
  nftPath?: string;
  /** Keep the data folders (their folder is in the result). */
  keep?: boolean;
  log?: (line: string) => void;
}

export interface FaultSuiteResult {
  seed: number;
  cycles: CycleRecord[];
  journal: Journal;
  acks: AckVerdicts;
  doubles: DoubleVerdicts;
  milestones: MilestoneComparison;
  /** Every acknowledged block's metadata on each node (in the cluster's order), as the checker read it. */
  metadata: Metadata;
  nodeNames: string[];
  /** The last milestone index every node confirmed. */
  finalIndex: number;
  durationMs: number;
  /** The data folders' folder, when kept. */
  root?: string;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function runFaultSuite(o: FaultSuiteOptions): Promise<FaultSuiteResult> {
  const started = Date.now();
  const log = o.log ?? (() => undefined);
  const random = prng(o.seed);
  const catchUpTimeoutMs = o.catchUpTimeoutMs ?? 30000;
  const nft = await NftFaults.open(o.nftPath);
  const root = mkdtempSync(join(tmpdir(), 'fault-suite-'));
  let cluster: Cluster | undefined;
  let workload: Workload | undefined;
  let cleaning: Promise<void> | undefined;
  const cleanup = (): Promise<void> =>
    (cleaning ??= (async () => {
      await workload?.stop();
      await cluster?.stop();
      await nft.close();
      if (!o.keep) rmSync(root, { recursive: true, force: true });
    })());
  const onSignal = (): void => void cleanup().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    cluster = await Cluster.start({
      root,
      nft,
      ...(o.size ? { size: o.size } : {}),
      ...(o.firstAddress ? { firstAddress: o.firstAddress } : {}),
      ...(o.milestoneInterval ? { milestoneInterval: o.milestoneInterval } : {}),
      ...(o.gateway === false ? { gateway: false as const } : {}),
      log,
    });
    await settled(cluster, (await latestIndex(cluster)) + 1, 30000);
    const journal = new Journal();
    const wallet = new Wallet(cluster.genesis.protocol.networkName);
    const coins = await fund(cluster, wallet, cluster.nodes.length, o.cycles);
    log(`funded: ${coins.lanes.length} transfer lanes, ${coins.pool.length} coins for double spends`);
    workload = new Workload(cluster, journal, wallet, coins.lanes, coins.pool, o.workload);
    workload.start();
    await pause(o.settleMs ?? 1000);
    const kinds = o.kinds ?? possibleKinds(cluster);
    const ctx: CycleContext = {
      cluster,
      nft,
      workload,
      journal,
      random,
      timing: o,
      catchUpTimeoutMs,
      comparison: emptyComparison(),
      checkedTo: 0,
    };
    const records: CycleRecord[] = [];
    for (const [i, kind] of schedule(kinds, o.cycles, random).entries()) {
      const r = await runCycle(ctx, i + 1, kind);
      records.push(r);
      const times = [...r.catchUp.ms].map(([n, ms]) => `${n} ${Number.isFinite(ms) ? ms : 'never'}`).join(', ');
      const gw = r.gateway ? `; gateway answers ${[...r.gateway.answers].map(([s, c]) => `${s}x${c}`).join(' ')}` : '';
      const cut = r.dropped > 0 ? `; ${r.dropped} packets dropped` : '';
      log(`cycle ${i + 1}/${o.cycles} ${kind}: ${r.what}${cut}; caught up (ms) ${times}${gw}`);
      for (const c of r.crashed) log(`  CRASH: ${c}`);
      if (r.foreign.length > 0)
        log(`  warning: other processes' fault rules name these nodes: ${r.foreign.join(', ')}`);
      await pause(o.settleMs ?? 1000);
    }
    await workload.stop();
    // past max depth for every acknowledged block: none can be referenced any more
    const depth = Number(cluster.genesis.protocol.belowMaxDepth);
    const finalIndex = await settled(cluster, (await latestIndex(cluster)) + depth + 1, 60000);
    await compareMilestones(cluster, ctx.checkedTo + 1, finalIndex, ctx.comparison);
    const ids = [...journal.acks.map((a) => a.blockId), ...journal.doubles.flatMap((d) => d.blockIds)];
    const meta = await readMetadata(
      cluster,
      ids.filter((id): id is string => id !== undefined),
    );
    return {
      seed: o.seed,
      cycles: records,
      journal,
      acks: classifyAcks(journal.acks, meta),
      doubles: judgeDoubles(journal.doubles, meta),
      milestones: ctx.comparison,
      metadata: meta,
      nodeNames: cluster.nodes.map((n) => n.name),
      finalIndex,
      durationMs: Date.now() - started,
      ...(o.keep ? { root } : {}),
    };
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
