/**
 * Runs a gateway on an HTTP port against a node: its gRPC address (the gateway makes and closes the client; over the
 * multiplexed transport unless `nodeTransport` says 'unary'), or the node's port (src/grpc/port.ts: e.g. the node's
 * service in `ledger-node run`; the caller owns it). Several gateways can serve one node.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, DEFAULT_TIMEOUT_MS, type GatewayOptions } from './app.ts';
import { CORS_METHODS } from './cors.ts';
import { createHttpServer } from './http-refusals.ts';
import { eventApiMetrics, gatewayRegistry, serveMetrics } from './metrics.ts';
import { startEventApi, type EventApi, type EventApiOptions } from './mqtt/index.ts';
import type { MuxClientOptions } from './mux-client.ts';
import type { NodeChannelSecurity } from './node-channel.ts';
import type { NodePort } from '../src/grpc/port.ts';
import { connectNode, type NodeTransport } from './node-client.ts';

/** Hornet's REST port. */
export const DEFAULT_REST_PORT = 14265;

interface ListenOptions extends Omit<GatewayOptions, 'node'>, EventApiOptions {
  /** Listen address; 127.0.0.1 by default. */
  host?: string;
  /** Listen port; 14265 by default, 0 for any free port. */
  port?: number;
  /**
   * Serve Prometheus metrics (REST latency, event API, process) at http://metricsHost:metricsPort/metrics; off when
   * absent.
   */
  metricsPort?: number;
  /** Address of the metrics listener; 127.0.0.1 by default. */
  metricsHost?: string;
}

/** How the gateway calls the node at `nodeAddress`: 'mux' by default (mux-client.ts), 'unary' for plain gRPC calls. */
interface AddressOptions {
  nodeAddress: string;
  node?: undefined;
  nodeTransport?: NodeTransport;
  /** Options of the mux client (its number of streams, where a fallback to unary calls is told). */
  mux?: MuxClientOptions;
  /** TLS and the bearer token of the node's service door (node-channel.ts), for every client of the node. */
  nodeSecurity?: NodeChannelSecurity;
}

/** Either `nodeAddress` (the node's gRPC `host:port`) or `node` (the node's port, e.g. its service in process). */
export type StartGatewayOptions = ListenOptions &
  (
    | AddressOptions
    | { node: NodePort; nodeAddress?: undefined; nodeTransport?: undefined; mux?: undefined; nodeSecurity?: undefined }
  );

export interface RunningGateway {
  /** The port actually bound. */
  port: number;
  server: Server;
  /** The TIP-28 event API at /api/mqtt/v1 (mqtt/index.ts). */
  events: EventApi;
  /** The /metrics port, when `metricsPort` was given. */
  metricsPort?: number;
  close(): Promise<void>;
}

export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const {
    nodeAddress,
    node: given,
    nodeTransport = 'mux',
    mux,
    nodeSecurity,
    host = '127.0.0.1',
    port = DEFAULT_REST_PORT,
    events: nodeEvents,
    mqtt,
    metricsPort,
    metricsHost = '127.0.0.1',
    ...rest
  } = options;
  if (metricsPort !== undefined) rest.metrics ??= gatewayRegistry();
  if ((nodeAddress === undefined) === (given === undefined))
    throw new TypeError('startGateway: give either nodeAddress or node');
  const connection = given === undefined ? connectNode(nodeAddress!, nodeTransport, mux, nodeSecurity) : undefined;
  const node = given ?? connection!.port;
  const closeClient = (): void => connection?.close();
  // The HTTP layer's own refusals (parse errors, CONNECT, no Host) answer the JSON error body too (http-refusals.ts).
  // the event API is mounted when it can follow the node's events (mqtt/index.ts startEventApi)
  const servesEvents = mqtt !== false && (nodeEvents !== undefined || nodeAddress !== undefined);
  const server = createHttpServer(createGateway({ ...rest, node, eventApi: servesEvents }).callback(), CORS_METHODS);
  let events: EventApi | undefined;
  let metricsServer: { port: number; close(): Promise<void> } | undefined;
  try {
    events = await startEventApi(server, {
      ...rest,
      nodeAddress,
      nodeSecurity,
      node,
      events: nodeEvents,
      mqtt,
      timeoutMs: rest.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (metricsPort !== undefined) metricsServer = await serveMetrics(rest.metrics!, metricsHost, metricsPort);
  } catch (err) {
    await events?.close();
    server.close();
    closeClient();
    throw err;
  }
  const eventApi = events;
  if (rest.metrics) eventApiMetrics(rest.metrics, () => eventApi.mqtt?.stats());
  return {
    port: (server.address() as AddressInfo).port,
    server,
    events: eventApi,
    ...(metricsServer ? { metricsPort: metricsServer.port } : {}),
    close: async () => {
      await metricsServer?.close();
      await eventApi.close();
      return new Promise<void>((resolve, reject) => {
        server.close((err) => {
          closeClient();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
