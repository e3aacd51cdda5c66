/**
 * The node's /metrics listener: `GET /metrics` answers the registry in Prometheus' text format; anything else is 404.
 * Off unless `--metrics-port` is given, and bound to 127.0.0.1 unless `--metrics-host` says otherwise (Hornet's
 * Prometheus plugin: off by default, localhost:9311; docs/decisions.md §28).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(registry: Registry, options: { host: string; port: number; log?: (message: string, err: unknown) => void }): Promise<MetricsServer> {
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
  });
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
