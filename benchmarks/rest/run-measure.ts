/**
 * One measurement of the REST benchmark (run.ts): `concurrency` loops of calls, their latencies and the CPU time the
 * serving processes spent meanwhile.
 */
import { percentile } from '../load/http.ts';
import type { Call } from './run-client.ts';
import { cpuSeconds } from '../../harness/process.ts';

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  n: number;
  /** CPU time the serving processes spent per call, µs (NaN where not known). */
  cpuUs: number;
  /** The same per serving process, in the order of the target's pids (a gateway, then the node). */
  cpuEach: number[];
}

/** `concurrency` loops calling `call(i)` with i = 0, 1, ... until `limit` calls or `ms` elapsed. */
export async function measure(
  call: Call,
  concurrency: number,
  limit: number,
  ms: number,
  pids: readonly number[] = [],
): Promise<Sample> {
  const lat: number[] = [];
  let next = 0;
  const cpu0 = pids.length > 0 ? cpuSeconds(pids) : NaN;
  const each0 = pids.map((pid) => cpuSeconds([pid]));
  const start = performance.now();
  const deadline = start + ms;
  const loop = async (): Promise<void> => {
    while (next < limit && performance.now() < deadline) {
      const i = next++;
      const t = performance.now();
      await call(i);
      lat.push(performance.now() - t);
    }
  };
  // every loop ends before the first failure is reported (a rejection left behind would end the process unreported)
  const failed = (await Promise.allSettled(Array.from({ length: concurrency }, loop))).find(
    (r) => r.status === 'rejected',
  );
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const elapsed = performance.now() - start;
  const cpuUs = ((cpuSeconds(pids) - cpu0) * 1e6) / lat.length;
  const cpuEach = pids.map((pid, i) => ((cpuSeconds([pid]) - each0[i]!) * 1e6) / lat.length);
  return {
    rps: (lat.length / elapsed) * 1000,
    p50: percentile(lat, 50),
    p99: percentile(lat, 99),
    n: lat.length,
    cpuUs,
    cpuEach,
  };
}
