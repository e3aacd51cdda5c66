/** The gRPC server of the node: NodeService on host:port (port 0 = any free port). */
import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { NodeServiceService } from '../../grpc/gen/node.ts';
import { nodeServiceHandlers } from './handlers.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from './service.ts';

export interface GrpcServerHandle {
  readonly port: number;
  /** Graceful shutdown, forced after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

/** Messages up to 4 MiB each way: blocks are at most 32 KiB; JSON text of a block stays far below. */
const MAX_MESSAGE = 4 * 1024 * 1024;

/** A further service on the same server (the PeerService of src/node/peering). */
export interface ExtraService {
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export async function startGrpcServer(service: NodeServiceImpl, options: { host: string; port: number; logger: Logger; services?: ExtraService[] }): Promise<GrpcServerHandle> {
  // Without channelz: grpc-js's per-call bookkeeping for its debugging service, which the node does not serve.
  const server = new Server({ 'grpc.max_receive_message_length': MAX_MESSAGE, 'grpc.max_send_message_length': MAX_MESSAGE, 'grpc.enable_channelz': 0 });
  server.addService(NodeServiceService, nodeServiceHandlers(service, options.logger));
  for (const extra of options.services ?? []) server.addService(extra.definition, extra.implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  return {
    port,
    close: (graceMs = 2000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
