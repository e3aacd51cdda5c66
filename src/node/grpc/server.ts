/**
 * The gRPC server of the node: NodeService on host:port (port 0 = any free port), and beside it NodeMux, the
 * multiplexed transport of the same service that standalone gateways use (mux-server.ts).
 */
import {
  Server,
  ServerCredentials,
  type ChannelOptions,
  type ServerInterceptor,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { NodeServiceService } from '../../grpc/gen/node.ts';
import { MAX_MESSAGE_BYTES } from '../../grpc/mux.ts';
import { safeStatusInterceptor } from '../../grpc/status.ts';
import { nodeServiceHandlers, type CallObserver } from './handlers.ts';
import { serveNodeMux } from './mux-server.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from './service.ts';

export interface GrpcServerHandle {
  readonly port: number;
  /** Graceful shutdown, forced after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/** Messages up to 4 MiB each way: blocks are at most 32 KiB; JSON text of a block stays far below. */
const MAX_MESSAGE = MAX_MESSAGE_BYTES;

/** A further service on the same server (NodeEvents; the PeerService on the peer door, src/node/doors.ts). */
export interface ExtraService {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

/**
 * Who may call and within which limits (the node service door's: src/node/doors.ts, guards.ts); plaintext without
 * `credentials`.
 */
export interface GrpcServerGuards {
  interceptors?: ServerInterceptor[];
  credentials?: ServerCredentials;
  serverOptions?: ChannelOptions;
}

/** `calls` is told about every NodeService call answered (unary and multiplexed; the metrics port). */
export async function startGrpcServer(
  service: NodeServiceImpl,
  options: {
    host: string;
    port: number;
    logger: Logger;
    services?: ExtraService[];
    calls?: CallObserver;
  } & GrpcServerGuards,
): Promise<GrpcServerHandle> {
  // Without channelz: grpc-js's per-call bookkeeping for its debugging service, which the node does not serve.
  const limits = {
    'grpc.max_receive_message_length': MAX_MESSAGE,
    'grpc.max_send_message_length': MAX_MESSAGE,
    'grpc.enable_channelz': 0,
    ...options.serverOptions,
  };
  // The status texts are made safe nearest the wire, after every other interceptor (src/grpc/status.ts).
  const server = new Server({ ...limits, interceptors: [safeStatusInterceptor, ...(options.interceptors ?? [])] });
  const handlers = nodeServiceHandlers(service, options.logger, options.calls);
  server.addService(NodeServiceService, handlers);
  const mux = serveNodeMux(server, service, {
    logger: options.logger,
    ...(options.calls ? { observe: muxCalls(options.calls) } : {}),
  });
  for (const extra of options.services ?? []) server.addService(extra.definition, extra.implementation);
  return bindServer(
    server,
    options.host,
    options.port,
    options.credentials ?? ServerCredentials.createInsecure(),
    () => mux.goAway(), // the gateways' streams end once their calls under way are answered
  );
}

/** The observer of the mux's calls: the port's observer, told they came over the mux. */
function muxCalls(calls: CallObserver): CallObserver {
  return (method, code, seconds) => calls(method, code, seconds, 'mux');
}

/**
 * Binds `server` to host:port (port 0 = any free port; an IPv6 address is put in brackets). `close` shuts it down
 * gracefully, forced after `graceMs`; `beforeClose` runs when closing starts. Every gRPC door of the node is bound so.
 */
export async function bindServer(
  server: Server,
  host: string,
  port: number,
  credentials: ServerCredentials,
  beforeClose?: () => void,
): Promise<GrpcServerHandle> {
  const address = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, credentials, (err, p) => (err ? reject(err) : resolve(p)));
  });
  return {
    port: bound,
    close: (graceMs = 2000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        beforeClose?.();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
