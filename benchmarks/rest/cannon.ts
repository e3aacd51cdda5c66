/**
 * The load generator of the REST benchmark (http.ts), in its own process so that the client does not share an event
 * loop with what it measures: autocannon (its API, one process, `connections` keep-alive connections).
 *   node --import tsx benchmarks/rest/cannon.ts <spec.json>
 * The spec names the URL, the method, the headers, the connections and either a duration in seconds or an amount of
 * requests, and the paths (GET: cycled through, one per request) or a file of bodies (POST: hex, one per line, each
 * sent once, in order, across all connections). Prints one line of JSON: requests, seconds, req/s, p50 / p99 ms and the
 * non-2xx, error and timeout counts.
 */
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

interface Spec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  connections: number;
  seconds?: number;
  amount?: number;
  /** The path of every POST. */
  path?: string;
  paths?: string[];
  bodiesFile?: string;
}

const spec = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Spec;
const paths = spec.paths ?? [];
const bodies = spec.bodiesFile
  ? readFileSync(spec.bodiesFile, 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((hex) => Buffer.from(hex, 'hex'))
  : [];
let next = 0;
const result = await autocannon({
  url: spec.url,
  connections: spec.connections,
  pipelining: 1,
  ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
  timeout: 10,
  requests: [
    {
      method: spec.method,
      ...(spec.path ? { path: spec.path } : {}),
      headers: spec.headers,
      // every request takes the next path or body: the bodies are distinct blocks, sent once each
      setupRequest: (req) =>
        bodies.length > 0
          ? { ...req, body: bodies[next++ % bodies.length] }
          : { ...req, path: paths[next++ % paths.length] },
    },
  ],
});
const seconds = result.duration;
console.log(
  JSON.stringify({
    requests: result.requests.total,
    seconds,
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: result.statusCodeStats,
  }),
);
