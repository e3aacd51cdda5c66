/**
 * The REST gateway, started in the node's process. It is the same Koa app a standalone `ledger-node gateway`
 * serves and reaches the node only through the port of src/grpc/port.ts: here the service itself (grpc/port.ts:
 * direct calls, no HTTP/2 or protobuf on the way), or a gRPC client of the node's own port (`grpcAddress`), so both
 * deployments behave identically. This is the node's only import of gateway/.
 */
import { startGateway, type NodeChannelSecurity, type NodeTransport } from '../../gateway/index.ts';
import type { EventsPort, NodePort } from '../grpc/port.ts';
import type { Registry } from 'prom-client';
import { accessOptions, limitOptions, type AccessValues, type LimitValues } from '../../gateway/settings/gateway.ts';
import type { Logger } from './logger.ts';

/** The gateway's HTTP server, whose own refusals answer the REST error body; the node's /metrics listener uses it. */
export { createHttpServer, serveMetrics } from '../../gateway/index.ts';
/** The REST gateway's settings and the kit they are declared with, for the node's declaration (settings.ts). */
export * from '../../gateway/settings/kit.ts';
export {
  ACCESS_SETTINGS,
  checkShared,
  GATEWAY_SETTINGS,
  JWT_SECRET,
  limitOptions,
  LIMIT_SETTINGS,
  METRICS_SETTINGS,
  REST_PORT,
} from '../../gateway/settings/gateway.ts';

export interface RestHandle {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The abuse limits and route lists of the REST gateway among the node's configuration (`--rate-limit`, `--mqtt-*`,
 * `--public-route`, ...).
 */
export type RestLimits = LimitValues & AccessValues;

/**
 * How the gateway reaches the node: its ports (the service and the event bus in this process, grpc/port.ts and
 * grpc/events-port.ts), or the node's gRPC `host:port` (unary calls by default; `security`: the door's TLS certificate
 * and the token the node made for itself when the door is guarded).
 */
export type RestNode =
  | { port: NodePort; events?: EventsPort }
  | { grpcAddress: string; transport?: NodeTransport; security?: NodeChannelSecurity };

/**
 * `metrics`: the node's registry, which the gateway's REST and event API metrics join; `jwtSecret`: of protected
 * routes.
 */
export async function startRest(options: {
  host: string;
  port: number;
  node: RestNode;
  logger: Logger;
  limits?: RestLimits;
  metrics?: Registry;
  jwtSecret?: string;
}): Promise<RestHandle> {
  const l = options.limits ?? {};
  const gw = await startGateway({
    ...('port' in options.node
      ? { node: options.node.port, ...(options.node.events ? { events: options.node.events } : {}) }
      : {
          nodeAddress: options.node.grpcAddress,
          nodeTransport: options.node.transport ?? 'unary',
          ...(options.node.security ? { nodeSecurity: options.node.security } : {}),
        }),
    ...limitOptions(l),
    ...accessOptions(l),
    host: options.host,
    port: options.port,
    ...(options.metrics ? { metrics: options.metrics } : {}),
    ...(options.jwtSecret ? { jwtSecret: options.jwtSecret } : {}),
    log: (message, err) => options.logger.error(`REST gateway: ${message}`, err),
  });
  return { port: gw.port, close: () => gw.close() };
}
