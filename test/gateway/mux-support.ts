/**
 * The mux tests' rig: a service served as the node serves its own (the unary handlers of handlers.ts and NodeMux
 * beside them on one grpc-js server) with a client of each kind, calls through a port as comparable outcomes, the same
 * call over both compared, and a TCP relay that drops and restores the connection like a node that dies and restarts.
 */
import { expect } from 'chai';
import { credentials, Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  connect,
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { createMuxNodePort, type MuxNodePort } from '../../gateway/mux-client.ts';
import { BlockView, NodeServiceClient, NodeServiceService } from '../../src/grpc/gen/node.ts';
import { NodeCallError, portOverClient, type NodeMethod, type NodePort } from '../../src/grpc/port.ts';
import { nodeServiceHandlers } from '../../src/node/grpc/handlers.ts';
import { serveNodeMux } from '../../src/node/grpc/mux-server.ts';
import type { ServiceMethods } from '../../src/node/grpc/port.ts';
import { CollectingLogger } from '../../harness/node.ts';

/** A test's service: some methods of NodeService, each `(request, signal?) => answer` (a promise or not). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Service = Record<string, (request: any, signal: AbortSignal) => unknown>;
/** A service method that never answers. */
export const never = (): Promise<never> => new Promise(() => undefined);

export const ID = new Uint8Array(32).fill(7);
export const MiB = 1024 * 1024;

export interface Rig {
  port: number;
  /** grpc-js's unary client, and the port over it. */
  unary: NodeServiceClient;
  unaryPort: NodePort;
  mux: MuxNodePort;
  /** GOAWAY on the mux streams, then grpc-js's graceful shutdown. */
  stop(): Promise<void>;
  /** Drops every connection at once, like a node that dies. */
  kill(): void;
  /** Closes both clients, then stop(). */
  close(): Promise<void>;
}

/** `service` served as the node serves its own: the unary handlers and, with `withMux`, NodeMux beside them. */
export async function serve(service: Service | ServiceMethods, port = 0, withMux = true): Promise<Rig> {
  const server = new Server({ 'grpc.max_receive_message_length': 4 * MiB, 'grpc.max_send_message_length': 4 * MiB });
  const methods = service as ServiceMethods;
  const logger = new CollectingLogger();
  server.addService(
    NodeServiceService,
    nodeServiceHandlers(methods, logger) as unknown as UntypedServiceImplementation,
  );
  const mux = withMux ? serveNodeMux(server, methods, { logger }) : undefined;
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const unary = new NodeServiceClient(`127.0.0.1:${bound}`, credentials.createInsecure());
  const rig: Rig = {
    port: bound,
    unary,
    unaryPort: portOverClient(unary),
    mux: createMuxNodePort(`127.0.0.1:${bound}`),
    stop: () =>
      new Promise<void>((resolve) => {
        mux?.goAway();
        server.tryShutdown(() => resolve());
      }),
    kill: () => server.forceShutdown(),
    async close() {
      rig.mux.close();
      rig.unary.close();
      await rig.stop();
    },
  };
  return rig;
}

export interface Outcome {
  response?: unknown;
  error?: {
    message: string;
    code: number;
    details: string;
    domain: string;
    detailed: boolean;
    retryAfterSeconds?: number;
  };
}

/** A failed call as comparable data. */
function describeError(err: NodeCallError): NonNullable<Outcome['error']> {
  const out: NonNullable<Outcome['error']> = {
    message: err.message,
    code: err.grpcCode,
    details: err.details,
    domain: err.code,
    detailed: err.detailed,
  };
  if (err.retryAfterSeconds !== undefined) out.retryAfterSeconds = err.retryAfterSeconds;
  return out;
}

/** One call through `port`; `onCall` gets the call's abort (the caller giving up). */
export function invoke(
  port: NodePort,
  method: NodeMethod,
  request: unknown,
  options: { deadline?: number } = {},
  onCall?: (abort: () => void) => void,
): Promise<Outcome> {
  const caller = new AbortController();
  const call = (port[method] as (r: unknown, o: object) => Promise<unknown>)(request, {
    ...options,
    signal: caller.signal,
  });
  onCall?.(() => caller.abort());
  return call.then(
    (response) => ({ response }),
    (err: unknown) => {
      expect(err).to.be.instanceOf(NodeCallError);
      return { error: describeError(err as NodeCallError) };
    },
  );
}

/** The same call over unary gRPC and over the mux: the outcomes must be equal. */
export async function both(
  rig: Rig,
  method: NodeMethod,
  request: unknown,
  options: { deadline?: number } = {},
): Promise<Outcome> {
  const [unary, mux] = await Promise.all([
    invoke(rig.unaryPort, method, request, options),
    invoke(rig.mux, method, request, options),
  ]);
  expect(mux).to.deep.equal(unary);
  return mux;
}

export const blockRequest = { blockId: ID, view: BlockView.BLOCK_VIEW_UNSPECIFIED };
export const submit = { block: { $case: 'raw', value: Uint8Array.of(1) } };

/** A TCP relay on a fixed port to a backend port: `stop()` drops every connection and stops listening. */
export async function startRelay(
  backend: number,
): Promise<{ port: number; start(backend: number): Promise<void>; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let target = backend;
  let server: NetServer | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = createNetServer((inbound) => {
        const outbound = connect(target, '127.0.0.1');
        for (const s of [inbound, outbound]) {
          sockets.add(s);
          s.on('error', () => s.destroy());
          s.on('close', () => {
            sockets.delete(s);
            inbound.destroy();
            outbound.destroy();
          });
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    port,
    async start(next) {
      target = next;
      await listen(port);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        if (server?.listening) server.close(() => resolve());
        else resolve();
      }),
  };
}

export async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** `service` served (serve) for one suite: before its tests (the object is filled in then), closed after them. */
export function servedForSuite(service: Service | ServiceMethods): Rig {
  const rig = {} as Rig;
  before(async () => {
    Object.assign(rig, await serve(service));
  });
  after(async () => {
    await rig.close();
  });
  return rig;
}
