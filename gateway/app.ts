/**
 * The Koa app: one error middleware at the top, then CORS, gzip, the access check, and the routes.
 *
 *   errors -> cors (answers preflights) -> rate limit (429, when configured) -> gzip (JSON answers) -> access (403 /
 * JWT)
 *   -> routes -> 404 / 405
 */
import Koa, { type Context, type Middleware } from 'koa';
import type { NodePort } from '../src/grpc/port.ts';
import { accessControl, type AccessOptions } from './access.ts';
import { DEFAULT_BODY_LIMIT_BYTES } from './body.ts';
import { cors, type CorsOptions } from './cors.ts';
import { HttpProblem, malformedTarget, NodeCallError, toRestAnswer } from './errors.ts';
import { DEFAULT_GZIP_MIN_BYTES, gzipJson } from './gzip.ts';
import type { Registry } from 'prom-client';
import { restMetrics } from './metrics.ts';
import { routeCall } from './node-client.ts';
import { createRoutes } from './routes.ts';
import { rateLimit, type RateLimitOptions } from './rate-limit.ts';

export interface GatewayOptions extends AccessOptions {
  /**
   * The node's API (src/grpc/port.ts): the service itself in `ledger-node run`, a client's port (connectNode)
   * otherwise.
   */
  node: NodePort;
  /** Whether the event API is mounted beside the routes (startGateway: server.ts): `/api/routes` lists it. */
  eventApi?: boolean;
  /** Largest accepted request body; 1 MiB by default. Larger: 413. */
  bodyLimitBytes?: number;
  /** CORS: on (`*`) by default; `false` turns it off. */
  cors?: boolean | CorsOptions;
  /** gzip JSON answers of at least this many bytes (1024 by default); `false` turns it off. */
  gzipMinBytes?: number | false;
  /** Deadline of read calls to the node; 15 s by default. */
  timeoutMs?: number;
  /** Deadline of block submissions (the node may select tips and do proof of work); 120 s by default. */
  submitTimeoutMs?: number;
  /** Per-client token-bucket rate limit (429 + Retry-After; loopback exempt unless `limitLoopback`); off by default. */
  rateLimit?: RateLimitOptions;
  /** Deepest accepted JSON nesting of a submitted block; 64 by default (json-guard.ts). */
  maxJsonDepth?: number;
  /** Where the REST latency histogram goes (metrics.ts); none by default. */
  metrics?: Registry;
  /** Where unexpected gateway errors are reported (they answer a bare 500); console.error by default. */
  log?: (message: string, err: unknown) => void;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_SUBMIT_TIMEOUT_MS = 120_000;

/**
 * The request's path, or undefined when its target does not parse (Koa's `ctx.path` throws then, e.g. on
 * `http://[::1`). A target other than a path (absolute-form) must be a URL first: Node's legacy parser behind
 * `ctx.path` would warn about a bad one, then throw or guess.
 */
function pathOf(ctx: Context): string | undefined {
  try {
    return ctx.url.startsWith('/') || URL.canParse(ctx.url, 'http://gateway') ? ctx.path : undefined;
  } catch {
    return undefined;
  }
}

/** Renders every failure as the JSON error body; a handled status without body (404, 405, 501) too. */
function errorMiddleware(log: (message: string, err: unknown) => void): Middleware {
  return async (ctx, next) => {
    const path = pathOf(ctx);
    try {
      if (path === undefined) throw malformedTarget(ctx.url);
      await next();
      if (ctx.body == null && ctx.status >= 400 && ctx.state.bareStatus !== true) {
        const reason =
          ctx.status === 404 ? `no route ${ctx.method} ${path}` : `method ${ctx.method} is not allowed on ${path}`;
        throw new HttpProblem(ctx.status, reason);
      }
    } catch (err) {
      if (!(err instanceof HttpProblem) && !(err instanceof NodeCallError))
        log(`unexpected error on ${ctx.method} ${path ?? ctx.url}`, err);
      const answer = toRestAnswer(err);
      ctx.remove('Content-Encoding');
      ctx.remove('Location');
      for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
      ctx.status = answer.status;
      ctx.body = answer.body;
    }
  };
}

/** The gateway app for `options.client`; serve it with `app.callback()` or startGateway. */
export function createGateway(options: GatewayOptions): Koa {
  const app = new Koa();
  app.silent = true;
  const log = options.log ?? ((message: string, err: unknown) => console.error(message, err));
  if (options.metrics) app.use(restMetrics(options.metrics));
  app.use(errorMiddleware(log));
  if (options.cors !== false) app.use(cors(options.cors === true || options.cors === undefined ? {} : options.cors));
  if (options.rateLimit) app.use(rateLimit(options.rateLimit));
  if (options.gzipMinBytes !== false) app.use(gzipJson(options.gzipMinBytes ?? DEFAULT_GZIP_MIN_BYTES));
  app.use(accessControl(options));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const routes = createRoutes({
    node: options.node,
    call: routeCall(timeoutMs),
    bodyLimitBytes: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    timeoutMs,
    submitTimeoutMs: options.submitTimeoutMs ?? DEFAULT_SUBMIT_TIMEOUT_MS,
    ...(options.maxJsonDepth !== undefined ? { maxJsonDepth: options.maxJsonDepth } : {}),
    ...(options.eventApi ? { eventApi: true } : {}),
  });
  app.use(routes.middleware());
  return app;
}
