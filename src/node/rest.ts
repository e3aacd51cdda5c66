/**
 * The REST gateway, started in the node's process. It is the same Koa app a standalone `ledger-node gateway`
 * serves and reaches the node only through an object of the generated gRPC client type: here the in-process
 * transport (grpc/in-process.ts: straight to the service's handlers, no HTTP/2 or protobuf on the way), or a real
 * gRPC client of the node's own port (`grpcAddress`), so both deployments behave identically. This is the node's only
 * import of gateway/.
 */
import { startGateway, type NodeServiceClient } from '../../gateway/index.ts';
import type { Logger } from './logger.ts';

export interface RestHandle {
  readonly port: number;
  close(): Promise<void>;
}

/** The abuse limits of the REST gateway, from the node's configuration (`--rate-limit`, `--max-json-depth`, ...). */
export interface RestLimits {
  rateLimit?: number;
  rateBurst?: number;
  rateLimitLoopback?: boolean;
  maxJsonDepth?: number;
}

/** How the gateway reaches the node: a ready client (left open), or the node's gRPC `host:port`. */
export type RestNode = { client: NodeServiceClient } | { grpcAddress: string };

export async function startRest(options: { host: string; port: number; node: RestNode; logger: Logger; limits?: RestLimits }): Promise<RestHandle> {
  const l = options.limits ?? {};
  const gw = await startGateway({
    ...('client' in options.node ? { client: options.node.client } : { nodeAddress: options.node.grpcAddress }),
    host: options.host,
    port: options.port,
    ...(l.rateLimit !== undefined
      ? { rateLimit: { requestsPerSecond: l.rateLimit, ...(l.rateBurst !== undefined ? { burst: l.rateBurst } : {}), ...(l.rateLimitLoopback !== undefined ? { limitLoopback: l.rateLimitLoopback } : {}) } }
      : {}),
    ...(l.maxJsonDepth !== undefined ? { maxJsonDepth: l.maxJsonDepth } : {}),
    log: (message, err) => options.logger.error(`REST gateway: ${message}`, err),
  });
  return { port: gw.port, close: () => gw.close() };
}
