/**
 * Test harness: a fake NodeService (grpc-js server with the generated service definition and per-test handlers)
 * on a free port, and a gateway served over HTTP against it, so tests speak plain `fetch` to real sockets.
 */
import { Server, ServerCredentials, status as GrpcStatus, type ServerUnaryCall, type ServiceError, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeServiceService, type NodeServiceClient } from '../../src/grpc/gen/node.ts';
import { statusError } from '../../src/grpc/status.ts';
import { toServiceError } from '../../src/node/grpc/errors.ts';
import { createGateway, createNodeClient, type GatewayOptions } from '../../gateway/index.ts';

export type MethodName = keyof typeof NodeServiceService;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (request: any, call: ServerUnaryCall<unknown, unknown>) => unknown;

export interface FakeNode {
  address: string;
  /** The handler of each method; a missing one answers UNIMPLEMENTED. Tests replace them freely. */
  handlers: Partial<Record<MethodName, Handler>>;
  /** Every request received, in order. */
  calls: { method: MethodName; request: unknown }[];
  stop(): Promise<void>;
}

function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'metadata' in err;
}

export async function startFakeNode(): Promise<FakeNode> {
  const server = new Server();
  const node: FakeNode = { address: '', handlers: {}, calls: [], stop: async () => {} };
  const impl: Record<string, unknown> = {};
  for (const method of Object.keys(NodeServiceService) as MethodName[]) {
    impl[method] = (call: ServerUnaryCall<unknown, unknown>, callback: (err: ServiceError | null, res?: unknown) => void) => {
      node.calls.push({ method, request: call.request });
      const handler = node.handlers[method];
      if (!handler) {
        callback(statusError(GrpcStatus.UNIMPLEMENTED, { code: 'UNIMPLEMENTED', message: `${method} is not implemented by the fake node` }));
        return;
      }
      Promise.resolve()
        .then(() => handler(call.request, call))
        .then(
          (res) => callback(null, res),
          (err: unknown) => callback(isServiceError(err) ? err : toServiceError(err)),
        );
    };
  }
  server.addService(NodeServiceService, impl as UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  node.address = `127.0.0.1:${port}`;
  node.stop = () => new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  return node;
}

export interface TestGateway {
  url: string;
  client: NodeServiceClient;
  close(): Promise<void>;
}

/** A gateway on a free port against `nodeAddress` (createGateway + node:http, as startGateway does). */
export async function startTestGateway(nodeAddress: string, options: Omit<GatewayOptions, 'client'> = {}): Promise<TestGateway> {
  const client = createNodeClient(nodeAddress);
  const server: HttpServer = createServer(createGateway({ log: () => {}, ...options, client }).callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          client.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A TCP port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export function hex(bytes: Uint8Array): string {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

export function bytesOf(hexText: string): Uint8Array {
  return new Uint8Array(Buffer.from(hexText.replace(/^0x/, ''), 'hex'));
}

export const ID32 = `0x${'ab'.repeat(32)}`;
export const ID36 = `0x${'cd'.repeat(32)}05000000`;
