/**
 * One fault cycle: the fault applied; the cycle's double spend submitted to two nodes on two sides of it; the fault
 * held, then healed; each node's catch-up time measured (converge.ts); for the gateway's fault, the gateway's answers
 * while its node was down and the time until it serves again; crashes looked for; and the milestones confirmed since
 * the last heal compared on every node (the cheap part of the checker, after every heal).
 */
import type { NftFaults } from '../nft.ts';
import { compareMilestones, type MilestoneComparison } from './check-milestones.ts';
import type { Cluster } from './cluster.ts';
import { milestones } from './client.ts';
import { catchUp, type CatchUp } from './converge.ts';
import { planFault, type FaultKind, type FaultTiming } from './faults.ts';
import { GatewayProbe } from './gateway-probe.ts';
import type { DoubleSpend, Journal } from './journal.ts';
import type { Workload } from './workload.ts';

export interface CycleContext {
  cluster: Cluster;
  nft: NftFaults;
  workload: Workload;
  journal: Journal;
  random: () => number;
  timing: FaultTiming;
  catchUpTimeoutMs: number;
  /** Every milestone comparison so far; `checkedTo` is the last index compared. */
  comparison: MilestoneComparison;
  checkedTo: number;
}

export interface CycleRecord {
  cycle: number;
  kind: FaultKind;
  what: string;
  appliedAt: number;
  healedAt: number;
  /** Packets the fault's nft rules dropped (0 for the faults without rules). */
  dropped: number;
  /** Other processes' fault tables naming these nodes' addresses during the cycle (they may have cut them too). */
  foreign: string[];
  catchUp: CatchUp;
  crashed: string[];
  /** The gateway's answers by status while its node was down, and its recovery time (the gateway's fault). */
  gateway?: { answers: Map<number, number>; recoveryMs: number };
  double?: DoubleSpend;
  /** Milestones compared after this heal, and how many of them diverged (ID or UTXO changes). */
  compared: number;
  divergent: number;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Whether a cycle ended well: every node caught up in time, nothing crashed, the gateway answered and came back. */
export function survived(r: CycleRecord): boolean {
  const caughtUp = [...r.catchUp.ms.values()].every(Number.isFinite);
  const gatewayOk = !r.gateway || (!r.gateway.answers.has(0) && Number.isFinite(r.gateway.recoveryMs));
  return caughtUp && r.crashed.length === 0 && gatewayOk && r.divergent === 0;
}

export async function runCycle(ctx: CycleContext, cycle: number, kind: FaultKind): Promise<CycleRecord> {
  const { cluster, journal } = ctx;
  journal.cycle = cycle;
  const fault = planFault(kind, cluster, ctx.nft, ctx.random, ctx.timing);
  const applied = Date.now();
  await fault.apply();
  const addresses = cluster.nodes.map((n) => n.address);
  const foreign = new Set(await ctx.nft.othersTouching(addresses));
  const probe = kind === 'gateway-node-kill' ? new GatewayProbe(cluster.gateway!.base) : undefined;
  const double = fault.spenders ? ctx.workload.doubleSpend(kind, ...fault.spenders) : Promise.resolve(undefined);
  await pause(Math.max(0, applied + fault.holdMs - Date.now()));
  const answers = await probe?.stop();
  const dropped = await ctx.nft.dropped();
  for (const t of await ctx.nft.othersTouching(addresses)) foreign.add(t);
  const healedAt = Date.now();
  // measured while the heal runs: a node the heal does not wait for (a restart does) counts from the same moment
  const [, up, recoveryMs] = await Promise.all([
    fault.heal(),
    catchUp(cluster, healedAt, ctx.catchUpTimeoutMs),
    probe?.recovery(healedAt, ctx.catchUpTimeoutMs),
  ]);
  const d = await double;
  const crashed = cluster.crashed();
  const views = await Promise.all(cluster.nodes.map((n) => milestones(n.base)));
  const low = Math.min(...views.map((v) => v?.confirmed ?? 0));
  const before = ctx.comparison.divergentIds.length + ctx.comparison.divergentUtxo.length;
  const from = ctx.checkedTo + 1;
  if (low >= from) {
    await compareMilestones(cluster, from, low, ctx.comparison);
    ctx.checkedTo = low;
  }
  return {
    cycle,
    kind,
    what: fault.what,
    appliedAt: applied,
    healedAt,
    dropped,
    foreign: [...foreign],
    catchUp: up,
    crashed,
    ...(answers ? { gateway: { answers, recoveryMs: recoveryMs! } } : {}),
    ...(d ? { double: d } : {}),
    compared: Math.max(0, low - from + 1),
    divergent: ctx.comparison.divergentIds.length + ctx.comparison.divergentUtxo.length - before,
  };
}
