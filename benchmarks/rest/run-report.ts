/**
 * The REST benchmark's report (run.ts): per concurrency level a table of the medians over the runs of every measured
 * (operation, path), each HTTP path's share of the Koa ceiling; the per-call cost of each hop at concurrency 1; and
 * whether `ledger-node run` meets its GET targets at the highest concurrency.
 */
import {
  ALL_PATHS,
  CONCURRENCY,
  GATEWAY_PATHS,
  HTTP_PATHS,
  measures,
  OPS,
  PATHS,
  RUNS,
  type Op,
  type PathName,
} from './run-paths.ts';
import type { Sample } from './run-measure.ts';
import { fmt, median } from './servers.ts';

/** The samples of every measurement, under `${op}|${concurrency}|${path}`, one per run. */
export type Samples = Map<string, Sample[]>;

/** A row of the tables: operation | path | rps | p50 / p99 | cpu | gw + node | of koa, padded to their columns. */
function row(op: string, path: string, rps: string, lat: string, cpu: string, split: string, share: string): string {
  const cells = [rps.padStart(8), lat.padStart(17), cpu.padStart(5), split.padStart(11), share];
  return `${op.padEnd(17)}| ${path.padEnd(12)}| ${cells.join(' | ')}`;
}

export function report(samples: Samples): void {
  const maxC = Math.max(...CONCURRENCY);
  const med = (op: Op, c: number, p: PathName, f: (s: Sample) => number): number =>
    median((samples.get(`${op}|${c}|${p}`) ?? []).map(f));
  /**
   * rps of `p` over the rps of `base`, run by run (same run, same machine state), then the median; NaN when one is
   * not measured.
   */
  const ratio = (op: Op, c: number, p: PathName, base: PathName): number => {
    const a = samples.get(`${op}|${c}|${p}`);
    const b = samples.get(`${op}|${c}|${base}`);
    return a && b ? median(a.map((s, i) => s.rps / b[i]!.rps)) : NaN;
  };
  const ofKoa = (op: Op, c: number, p: PathName): number => ratio(op, c, p, 'koa');
  console.log(
    `\nmedians over ${RUNS} runs (rps = completed calls per second; p50 / p99 latency in ms; ` +
      `of koa = rps / the Koa ceiling's rps in the same run; cpu = CPU time of the serving processes per call, µs)`,
  );
  for (const c of CONCURRENCY) {
    console.log(`\nconcurrency ${c}`);
    console.log(row('operation', 'path', 'rps', 'p50 / p99 ms', 'cpu', 'gw + node', 'of koa'));
    for (const op of OPS) {
      for (const p of PATHS) {
        if (!measures(p, op)) continue;
        const lat = `${med(op, c, p, (x) => x.p50).toFixed(3)} / ${med(op, c, p, (x) => x.p99).toFixed(3)}`;
        const share =
          op.startsWith('GET') && HTTP_PATHS.includes(p) && PATHS.includes('koa')
            ? `${(ofKoa(op, c, p) * 100).toFixed(0).padStart(5)}%`
            : '';
        const cpu = med(op, c, p, (x) => x.cpuUs);
        const split = GATEWAY_PATHS.includes(p)
          ? `${fmt(med(op, c, p, (x) => x.cpuEach[0]!))} + ${fmt(med(op, c, p, (x) => x.cpuEach[1]!))}`
          : '';
        const cpuText = Number.isNaN(cpu) ? '' : fmt(cpu);
        console.log(row(op, p, fmt(med(op, c, p, (x) => x.rps)), lat, cpuText, split, share));
      }
    }
  }
  if (CONCURRENCY.includes(1) && ALL_PATHS.every((p) => PATHS.includes(p))) {
    console.log('\nper-call cost of each hop at concurrency 1 (differences of the median p50s, ms):');
    for (const op of OPS) {
      const p50 = (p: PathName) => med(op, 1, p, (x) => x.p50);
      const hop = (p: PathName, from: PathName): string => (p50(p) - p50(from)).toFixed(3);
      console.log(
        `  ${op.padEnd(16)} service ${p50('service').toFixed(3)}  + HTTP/gateway in process ${hop('run', 'service')} ` +
          `= run ${p50('run').toFixed(3)}  |  + gRPC hop ${hop('gRPC', 'service')} + HTTP/gateway ` +
          `${hop('run/gRPC', 'gRPC')} = run/gRPC ${p50('run/gRPC').toFixed(3)}`,
      );
    }
  }
  if (!PATHS.includes('run') || !PATHS.includes('koa')) return;
  console.log(
    `\n\`ledger-node run\` GET block at ${maxC} connections ` +
      `(target: at least 40% of the Koa ceiling, p99 under 10 ms):`,
  );
  for (const op of ['GET block JSON', 'GET block raw'] as const) {
    const share = ofKoa(op, maxC, 'run');
    const p99 = med(op, maxC, 'run', (x) => x.p99);
    const speedup = ratio(op, maxC, 'run', 'run/gRPC');
    const met = share >= 0.4 && p99 < 10;
    const rps = (p: PathName): string => fmt(med(op, maxC, p, (x) => x.rps));
    console.log(
      `  ${op.padEnd(15)} ${rps('run')} rps = ${(share * 100).toFixed(0)}% of koa (${rps('koa')} rps), ` +
        `p99 ${p99.toFixed(2)} ms, ${speedup.toFixed(2)}x run/gRPC: ${met ? 'met' : 'MISSED'}`,
    );
  }
}
