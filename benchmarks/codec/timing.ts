/** Small timing helpers for the codec benchmarks (Node; `performance.now`). */

/** Median of a non-empty list. */
export function median(xs: number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

let sink: unknown;
/** Keeps results alive so the optimizer cannot drop the measured work. */
export function consume(v: unknown): void {
  sink = v;
}
export function lastSink(): unknown {
  return sink;
}

/** Runs `f` repeatedly for about `ms` milliseconds (after a short warm-up) and returns operations per second. */
export function timeOps(f: () => unknown, ms: number): number {
  const warmEnd = performance.now() + Math.min(50, ms / 4);
  while (performance.now() < warmEnd) consume(f());
  let n = 0;
  let batch = 16;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < batch; i++) consume(f());
    n += batch;
    if (batch < 4096) batch *= 2;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}
