/**
 * The REST gateway, started in the node's process. It is the same Koa app a standalone `ledger-node gateway`
 * serves and reaches the node only through its gRPC client (on the node's own gRPC port), so both deployments
 * behave identically. This is the node's only import of gateway/.
 */
import { startGateway } from '../../gateway/index.ts';
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

export async function startRest(options: { host: string; port: number; grpcAddress: string; logger: Logger; limits?: RestLimits }): Promise<RestHandle> {
  const l = options.limits ?? {};
  const gw = await startGateway({
    nodeAddress: options.grpcAddress,
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
