/**
 * The gateway's own Prometheus metrics (prom-client): the latency of every REST request as a histogram labelled by
 * method, route PATTERN (e.g. `/api/core/v2/blocks/:blockId`, never the raw URL, so the series stay bounded; `none`
 * when no route matched: 404, or refused before routing) and status, and the event API's connections and
 * subscriptions. In `ledger-node run` they join the node's registry on the node's /metrics; a standalone
 * `ledger-node gateway` serves its own with `--metrics-port` (and the default process metrics).
 */
import type { AddressInfo } from 'node:net';
import type { Middleware } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { createHttpServer } from './http-refusals.ts';
import type { MqttStats } from './mqtt/index.ts';

/** Seconds: from half a millisecond (a cached read) to the submission deadline (proof of work). */
export const REST_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/** The Koa middleware that times each request (first in the chain, so the status is the one sent). */
export function restMetrics(registry: Registry): Middleware {
  const histogram = new Histogram({
    name: 'ledger_rest_request_duration_seconds',
    help: 'REST requests by method, route pattern (none: no route matched) and status',
    labelNames: ['method', 'route', 'status'],
    buckets: REST_BUCKETS,
    registers: [registry],
  });
  // the labelled series, looked up once per (method, route, status) and kept: prom-client hashes a labels object on
  // every observe; bounded by the methods, route patterns and statuses (a raw URL never becomes a label)
  const series = new Map<string, { observe(v: number): void }>();
  return async (ctx, next) => {
    const t0 = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      const route = typeof matched === 'string' ? matched : 'none';
      const key = `${ctx.method} ${ctx.status} ${route}`;
      let child = series.get(key);
      if (child === undefined) {
        child = histogram.labels({ method: ctx.method, route, status: String(ctx.status) });
        series.set(key, child);
      }
      child.observe((performance.now() - t0) / 1000);
    }
  };
}

/** The event API's figures, read at each scrape (`stats` undefined: the event API is off). */
export function eventApiMetrics(registry: Registry, stats: () => MqttStats | undefined): void {
  const registers = [registry];
  new Gauge({
    name: 'ledger_mqtt_connections',
    help: 'Open event API (MQTT over WebSocket) connections',
    registers,
    collect() {
      this.set(stats()?.connections ?? 0);
    },
  });
  new Gauge({
    name: 'ledger_mqtt_subscriptions',
    help: 'Topics followed by the event API connections, all together',
    registers,
    collect() {
      this.set(stats()?.topics ?? 0);
    },
  });
  new Counter({
    name: 'ledger_mqtt_messages_delivered_total',
    help: 'Event messages delivered to subscribers',
    registers,
    collect() {
      this.reset();
      this.inc(stats()?.delivered ?? 0);
    },
  });
  new Counter({
    name: 'ledger_mqtt_subscribers_cut_off_total',
    help: 'Subscribers disconnected because they read too slowly',
    registers,
    collect() {
      this.reset();
      this.inc(stats()?.cutOff ?? 0);
    },
  });
}

/** A registry for a standalone gateway, with the default process metrics. */
export function gatewayRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` of `registry` on host:port (404 for anything else; parser refusals: http-refusals.ts), for
 * the standalone gateway and for `ledger-node run` (through src/node/rest.ts); a failed scrape answers 500 and is told
 * to `log`.
 */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  log?: (message: string, err: unknown) => void,
): Promise<MetricsServer> {
  const server = createHttpServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '/').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (err: unknown) => {
        log?.('metrics scrape failed', err);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics scrape failed\n');
      },
    );
  }, 'GET');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
