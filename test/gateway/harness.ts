/**
 * Test harness: a fake node (every NodeService method answered by per-test handlers) and a gateway served over HTTP
 * against it, so tests speak plain `fetch` to real sockets. The gateway reaches the fake node through its port
 * (src/grpc/port.ts) over any way it has: real unary gRPC (a grpc-js server on a free port, as
 * `ledger-node gateway --node-transport unary` does), the multiplexed transport over the same server (NodeMux beside
 * NodeService, as `ledger-node gateway` does by default), or in process (the service's port, src/node/grpc/port.ts,
 * as `ledger-node run` does). `describeOverTransports` runs a suite once per transport with the same assertions.
 */
import {
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeServiceService } from '../../src/grpc/gen/node.ts';
import { NodeCallError, rpcName, type NodeMethod, type NodePort } from '../../src/grpc/port.ts';
import { statusError } from '../../src/grpc/status.ts';
import { toServiceError } from '../../src/node/grpc/errors.ts';
import { nodeServiceHandlers } from '../../src/node/grpc/handlers.ts';
import { serveNodeMux } from '../../src/node/grpc/mux-server.ts';
import { servicePort, type ServiceMethods } from '../../src/node/grpc/port.ts';
import { expect } from 'chai';
import {
  connectNode,
  createGateway,
  startGateway,
  type GatewayOptions,
  type NodeConnection,
  type RunningGateway,
  type StartGatewayOptions,
} from '../../gateway/index.ts';
import { EventBus } from '../../src/node/events/bus.ts';
import { localEventsPort } from '../../src/node/grpc/events-port.ts';
import { CollectingLogger } from '../../harness/node.ts';

/** How the gateway reaches the node. */
export type Transport = 'gRPC' | 'mux' | 'in-process';
export const TRANSPORTS: readonly Transport[] = ['gRPC', 'mux', 'in-process'];

/** Runs `suite` once per transport, as `describe(`${title} [over ${transport}]`)` (`this` is mocha's suite). */
export function describeOverTransports(title: string, suite: (this: Mocha.Suite, transport: Transport) => void): void {
  for (const transport of TRANSPORTS) {
    describe(`${title} [over ${transport}]`, function () {
      suite.call(this, transport);
    });
  }
}

/** A port to the node's gRPC `address` over `transport` (unary gRPC or the mux). */
export function connectTo(transport: Exclude<Transport, 'in-process'>, address: string): NodeConnection {
  return connectNode(address, transport === 'mux' ? 'mux' : 'unary');
}

/** Something a gateway can be started against: a new connection to the node per call. */
export interface NodeEndpoint {
  connect(): NodeConnection;
}

/** The port to `service` in this process, as `ledger-node run` hands it to its gateway. */
export function inProcess(service: Partial<ServiceMethods>): NodeEndpoint {
  const port = servicePort(service as ServiceMethods, { logger: new CollectingLogger() });
  return { connect: () => ({ port, close: () => undefined }) };
}

export type MethodName = NodeMethod;
/** A fake node's answer to one method; `call.signal` aborts when the caller gives up (cancel, deadline). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (request: any, call: { signal: AbortSignal }) => unknown;

export interface FakeNode extends NodeEndpoint {
  transport: Transport;
  /** The gRPC `host:port` (gRPC transports only; '' in process). */
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

export async function startFakeNode(transport: Transport = 'gRPC'): Promise<FakeNode> {
  const node: FakeNode = {
    transport,
    address: '',
    handlers: {},
    calls: [],
    connect: () => connectTo('gRPC', node.address),
    stop: async () => {},
  };
  /** The handler's answer; a handler that is missing: UNIMPLEMENTED, as the node's server without it. */
  const answer = (method: MethodName, request: unknown, signal: AbortSignal): Promise<unknown> => {
    node.calls.push({ method, request });
    const handler = node.handlers[method];
    if (!handler)
      return Promise.reject(
        statusError(GrpcStatus.UNIMPLEMENTED, {
          code: 'UNIMPLEMENTED',
          message: `${method} is not implemented by the fake node`,
        }),
      );
    return Promise.resolve().then(() => handler(request, { signal }));
  };
  // Every failure reaches the caller as the node's doors put it on the wire (a status a handler gives itself with
  // statusError too); one service for every transport, as the node serves its own.
  const service: Record<string, unknown> = {};
  for (const method of Object.keys(NodeServiceService) as MethodName[]) {
    service[method] = (request: unknown, signal: AbortSignal) =>
      answer(method, request, signal).catch((err: unknown) => {
        throw NodeCallError.fromClientError(rpcName(method), isServiceError(err) ? err : toServiceError(err));
      });
  }
  const logger = new CollectingLogger();
  if (transport === 'in-process') {
    const port = servicePort(service as unknown as ServiceMethods, { logger });
    node.connect = () => ({ port, close: () => undefined });
    node.stop = async () => port.close();
    return node;
  }
  if (transport === 'mux') node.connect = () => connectTo('mux', node.address);
  const server = new Server();
  server.addService(
    NodeServiceService,
    nodeServiceHandlers(service as unknown as ServiceMethods, logger) as unknown as UntypedServiceImplementation,
  );
  const mux = serveNodeMux(server, service as unknown as ServiceMethods, { logger });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  node.address = `127.0.0.1:${port}`;
  node.stop = () =>
    new Promise<void>((resolve) => {
      mux.goAway();
      server.tryShutdown(() => resolve());
    });
  return node;
}

export interface TestGateway {
  url: string;
  node: NodePort;
  close(): Promise<void>;
}

/** A node that does not answer: nothing listens on the gRPC port; in process, a closed port. */
export async function unreachableNode(transport: Transport): Promise<NodeEndpoint> {
  if (transport === 'in-process') {
    const port = servicePort({} as ServiceMethods, { logger: new CollectingLogger() });
    port.close();
    return { connect: () => ({ port, close: () => undefined }) };
  }
  const address = `127.0.0.1:${await freePort()}`;
  return { connect: () => connectTo(transport, address) };
}

/** A gateway on a free port against `node` (createGateway + node:http, as startGateway does). */
export async function startTestGateway(
  node: NodeEndpoint,
  options: Omit<GatewayOptions, 'node'> = {},
): Promise<TestGateway> {
  const connection = node.connect();
  const server: HttpServer = createServer(
    createGateway({ log: () => {}, ...options, node: connection.port }).callback(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    node: connection.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          connection.close();
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

/**
 * A gateway with no node behind it (an in-process port with no methods) and an event API over an empty bus, started
 * before the suite's tests and closed after them; each test must leave its log empty. For tests of what the gateway
 * answers itself (request targets, WebSocket handshakes, the HTTP layer's refusals).
 */
export function quietGateway(options: Partial<StartGatewayOptions> = {}): {
  readonly gw: RunningGateway;
  readonly logged: string[];
} {
  const state = { gw: undefined as unknown as RunningGateway, logged: [] as string[] };
  let bus: EventBus;
  before(async () => {
    bus = new EventBus();
    state.gw = await startGateway({
      node: inProcess({}).connect().port,
      events: localEventsPort(bus),
      port: 0,
      log: (message: string) => state.logged.push(message),
      ...options,
    } as StartGatewayOptions);
  });
  after(async () => {
    await state.gw.close();
    bus.close();
  });
  beforeEach(() => {
    state.logged.length = 0;
  });
  afterEach(() => {
    expect(state.logged).to.deep.equal([]);
  });
  return state;
}
