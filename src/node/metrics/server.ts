/**
 * The node's /metrics listener: `GET /metrics` answers the registry in Prometheus' text format; anything else is 404.
 * Off unless `--metrics-port` is given, and bound to 127.0.0.1 unless `--metrics-host` says otherwise (Hornet's
 * Prometheus plugin: off by default, localhost:9311; docs/decisions.md §28).
 *
 * `createServer` makes the HTTP server; the node passes the gateway's (gateway/http-refusals.ts, through rest.ts, as
 * src/node imports gateway/ nowhere else), so that the HTTP layer's own refusals (parse errors, CONNECT) answer the
 * REST error body here too. Node's plain createServer otherwise.
 */
import { createServer as createPlainServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Makes an HTTP server for `handler`, which serves the `allowedMethods` (an Allow header's value). */
export type HttpServerFactory = (handler: RequestListener, allowedMethods: string) => Server;

export interface MetricsServerOptions {
  host: string;
  port: number;
  log?: (message: string, err: unknown) => void;
  createServer?: HttpServerFactory;
}

export async function startMetricsServer(registry: Registry, options: MetricsServerOptions): Promise<MetricsServer> {
  const createServer = options.createServer ?? ((handler: RequestListener) => createPlainServer(handler));
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('not found: GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType }).end(text),
      (err: unknown) => {
        options.log?.('metrics scrape failed', err);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('metrics scrape failed\n');
      },
    );
  }, 'GET');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
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
