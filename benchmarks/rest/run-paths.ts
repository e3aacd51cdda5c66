/**
 * The command line of the REST benchmark (run.ts, whose header describes the flags) and what it measures: the
 * operations, the paths from the Koa ceiling to the service in process, and which (path, operation) pairs are measured.
 */
import { scriptArg, scriptSwitch } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
export const RUNS = Number(arg('runs', '3'));
export const MS = Number(arg('ms', '1000'));
export const POSTS = Number(arg('posts', '100'));
export const BLOCKS = Number(arg('blocks', '200'));
export const CONCURRENCY = arg('concurrency', '1,32').split(',').map(Number);
export const GET_ONLY = scriptSwitch('get-only');
export const CPU_PROF = arg('cpu-prof', '');
for (const [k, v] of Object.entries({ RUNS, MS, POSTS, BLOCKS })) {
  if (!Number.isInteger(v) || v < 1 || v > 100000) throw new Error(`--${k.toLowerCase()} must be an integer 1..100000`);
}
export const WARMUP = 20;
if (POSTS <= 2 * WARMUP) throw new Error(`--posts must be more than ${2 * WARMUP}`);
if (CONCURRENCY.some((c) => !Number.isInteger(c) || c < 1 || c > 256))
  throw new Error('--concurrency must list integers 1..256');

export type Op = 'GET block JSON' | 'GET block raw' | 'POST block raw' | 'POST block JSON';
export const OPS: Op[] = GET_ONLY
  ? ['GET block JSON', 'GET block raw']
  : ['GET block JSON', 'GET block raw', 'POST block raw', 'POST block JSON'];
export const MUX_STREAMS = arg('mux-streams', '1').split(',').map(Number);
if (MUX_STREAMS.some((n) => !Number.isInteger(n) || n < 1 || n > 64))
  throw new Error('--mux-streams must list integers 1..64');
/** The standalone gateway over the mux with `n` streams. */
export const muxPath = (n: number): string => (n === 1 ? 'gateway/mux' : `gateway/mux${n}`);
export type PathName = string;
export const GATEWAY_PATHS: PathName[] = ['gateway', ...MUX_STREAMS.map(muxPath)];
export const ALL_PATHS: PathName[] = ['koa', 'run', 'run/gRPC', ...GATEWAY_PATHS, 'gRPC', 'gRPC/mux', 'service'];
export const PATHS = arg('paths', ALL_PATHS.join(',')).split(',') as PathName[];
if (PATHS.some((p) => !ALL_PATHS.includes(p))) throw new Error(`--paths must list some of ${ALL_PATHS.join(',')}`);
/** The paths that answer over HTTP (their rps is compared with the Koa ceiling). */
export const HTTP_PATHS: PathName[] = ['koa', 'run', 'run/gRPC', ...GATEWAY_PATHS];
export const measures = (p: PathName, op: Op): boolean => PATHS.includes(p) && (p !== 'koa' || op.startsWith('GET'));
