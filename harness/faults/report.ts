/**
 * The fault suite's figures (what scripts/faults.ts prints and suite.test.ts asserts on): faults survived,
 * submissions acknowledged / refused / unanswered, acknowledged blocks lost and orphaned (by the fault under way when
 * they were acknowledged), divergent milestones, UTXO changes and metadata, the double spends' verdicts, catch-up
 * time p50 and max per fault kind (every node's time after every heal), and the gateway's answers while its node was
 * down.
 */
import { survived } from './cycle.ts';
import type { Ack } from './journal.ts';
import type { FaultSuiteResult } from './run.ts';

export interface Figures {
  cycles: number;
  survived: number;
  acknowledged: number;
  lost: number;
  orphaned: number;
  divergentMilestones: number;
  divergentUtxo: number;
  divergentMetadata: number;
  doubleViolations: number;
  /** Catch-up ms per fault kind: median and max over every node after every heal of that kind. */
  catchUp: Map<string, { p50: number; max: number; n: number }>;
  /** The gateway's unanswered probes while its node was down (it must answer errors instead). */
  gatewaySilent: number;
}

/** The `p`-quantile (0..1) of `xs` by the nearest rank; NaN for none. */
export function quantile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
}

export function figures(r: FaultSuiteResult): Figures {
  const byKind = new Map<string, number[]>();
  for (const c of r.cycles) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), ...c.catchUp.ms.values()]);
  const catchUp = new Map(
    [...byKind].map(([k, xs]) => [k, { p50: quantile(xs, 0.5), max: Math.max(...xs), n: xs.length }] as const),
  );
  return {
    cycles: r.cycles.length,
    survived: r.cycles.filter(survived).length,
    acknowledged: r.acks.total,
    lost: r.acks.lost.length,
    orphaned: r.acks.orphanedEverywhere.length + r.acks.orphanedLocal.length,
    divergentMilestones: r.milestones.divergentIds.length,
    divergentUtxo: r.milestones.divergentUtxo.length,
    divergentMetadata: r.acks.divergent.length,
    doubleViolations: r.doubles.violations.length,
    catchUp,
    gatewaySilent: r.cycles.reduce((s, c) => s + (c.gateway?.answers.get(0) ?? 0), 0),
  };
}

const ms = (x: number): string => (Number.isFinite(x) ? `${Math.round(x)}` : 'never');
const counts = (m: Map<number, number>): string =>
  [...m]
    .sort(([a], [b]) => a - b)
    .map(([s, c]) => `${s === 0 ? 'no answer' : s} x${c}`)
    .join(', ');

function kindsDropped(r: FaultSuiteResult): string {
  const by = new Map<string, number>();
  for (const c of r.cycles) if (c.dropped > 0) by.set(c.kind, (by.get(c.kind) ?? 0) + c.dropped);
  return [...by].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
}

/** The report's lines. */
export function reportLines(r: FaultSuiteResult, f: Figures = figures(r)): string[] {
  const j = r.journal;
  const kindOf = new Map(r.cycles.map((c) => [c.cycle, c.kind]));
  // orphans by the fault under way when they were acknowledged, and by cycle within it
  const orphans = new Map<string, Map<number, number>>();
  for (const a of [...r.acks.orphanedEverywhere, ...r.acks.orphanedLocal]) {
    const k = kindOf.get(a.cycle) ?? 'before the faults';
    const cycles = orphans.get(k) ?? new Map<number, number>();
    orphans.set(k, cycles.set(a.cycle, (cycles.get(a.cycle) ?? 0) + 1));
  }
  const kinds = (xs: readonly string[]): string => [...new Set(xs)].join(', ');
  const byFault =
    [...orphans]
      .map(([k, cs]) => {
        const total = [...cs.values()].reduce((x, y) => x + y, 0);
        return `${k} ${total} (${[...cs].map(([c, n]) => `cycle ${c}: ${n}`).join(', ')})`;
      })
      .join(', ') || '-';
  const d = r.doubles;
  const lines = [
    `seed ${r.seed}, ${f.cycles} cycles, ${(r.durationMs / 1000).toFixed(1)} s, final milestone ${r.finalIndex}`,
    `faults survived:        ${f.survived} of ${f.cycles} (${kinds(r.cycles.map((c) => c.kind))})`,
    `blocks acknowledged:    ${f.acknowledged} (data ${j.acks.filter((a) => a.kind === 'data').length}, ` +
      `transfers ${j.acks.filter((a) => a.kind === 'transfer').length}, ` +
      `double-spend sides ${j.acks.filter((a) => a.kind === 'double').length}; ` +
      `through the gateway ${j.acks.filter((a) => a.via === 'gateway').length})`,
    `refused (503):          ${j.refused} (through the gateway ${j.refusedViaGateway})`,
    `unanswered:             ${j.unanswered} (through the gateway ${j.unansweredViaGateway}; outcome unknown)`,
    `other answers:          ${j.others.size === 0 ? 'none' : counts(j.others)}`,
    `lost:                   ${f.lost}`,
    `orphaned:               ${f.orphaned} acknowledged, never referenced (stored on every node ` +
      `${r.acks.orphanedEverywhere.length}, on some only ${r.acks.orphanedLocal.length}; by fault: ${byFault})`,
    `referenced, same metadata everywhere: ${r.acks.referenced}; divergent metadata: ${f.divergentMetadata}`,
    `milestones compared:    ${r.milestones.compared}; divergent IDs ${f.divergentMilestones}, ` +
      `divergent UTXO changes ${f.divergentUtxo}`,
    `double spends:          ${d.tried} tried, ${d.bothAcknowledged} with both sides acknowledged: ` +
      `${d.decided} decided the same everywhere,`,
    `                        ${d.undecided} undecided (neither side referenced), ${f.doubleViolations} violations; ` +
      `${d.oneSided} with one side refused or unanswered`,
    'catch-up after heal (ms, every node after every heal):',
    ...[...f.catchUp].map(
      ([k, c]) => `  ${k.padEnd(20)} p50 ${ms(c.p50).padStart(6)}  max ${ms(c.max).padStart(6)}  (${c.n})`,
    ),
    `packets dropped by the network faults: ${kindsDropped(r)}`,
  ];
  const disturbed = r.cycles.filter((c) => c.foreign.length > 0).map((c) => c.cycle);
  if (disturbed.length > 0)
    lines.push(
      `WARNING: other processes' fault rules were present in cycles ${disturbed.join(' ')} (not this suite's)`,
    );
  const gw = r.cycles.filter((c) => c.gateway);
  if (gw.length > 0) {
    const answers = new Map<number, number>();
    for (const c of gw) for (const [s, n] of c.gateway!.answers) answers.set(s, (answers.get(s) ?? 0) + n);
    const rec = gw.map((c) => c.gateway!.recoveryMs);
    lines.push(
      `gateway, node down:     answers ${counts(answers)}; serves again after (ms) p50 ${ms(quantile(rec, 0.5))}, ` +
        `max ${ms(Math.max(...rec))}`,
    );
  }
  const when = (a: Ack): string => {
    const c = r.cycles.find((x) => x.cycle === a.cycle);
    if (!c) return 'before the faults';
    const s = (t: number): string => `${((a.at - t) / 1000).toFixed(1)} s`;
    const at = a.at < c.healedAt ? `${s(c.appliedAt)} into it` : `${s(c.healedAt)} after its heal`;
    return `cycle ${c.cycle} ${c.kind}, ${at}`;
  };
  const describe = (a: Ack): string =>
    `${a.blockId} (${a.kind} via ${a.node}${a.via === 'gateway' ? ' and the gateway' : ''}; ${when(a)})`;
  for (const a of r.acks.lost) lines.push(`  LOST ${describe(a)}`);
  const orphaned = [...r.acks.orphanedEverywhere, ...r.acks.orphanedLocal];
  for (const a of orphaned.slice(0, 20)) {
    const where = (r.metadata.get(a.blockId) ?? []).map((m, i) => {
      const state =
        m === undefined ? 'absent' : `${m.solid ? 'solid' : 'not solid'}${m.reattach ? ', below max depth' : ''}`;
      return `${r.nodeNames[i]} ${state}`;
    });
    lines.push(`  orphaned ${describe(a)}: ${where.join('; ')}`);
  }
  if (orphaned.length > 20) lines.push(`  ... ${orphaned.length - 20} more orphaned`);
  for (const a of r.acks.divergent) lines.push(`  DIVERGENT METADATA ${a.blockId} (cycle ${a.cycle})`);
  for (const v of d.violations) lines.push(`  DOUBLE SPEND ${v}`);
  if (f.divergentMilestones > 0) lines.push(`  divergent milestone IDs at ${r.milestones.divergentIds.join(' ')}`);
  if (f.divergentUtxo > 0) lines.push(`  divergent UTXO changes at ${r.milestones.divergentUtxo.join(' ')}`);
  for (const c of r.cycles) for (const x of c.crashed) lines.push(`  CRASH in cycle ${c.cycle}: ${x}`);
  return lines;
}
