/**
 * The multiplexed transport (proto/mux.proto: gateway/mux-client.ts against src/node/grpc/mux-server.ts) against
 * real unary gRPC: the same service served both ways on one grpc-js server (the unary handlers of handlers.ts beside
 * NodeMux), both reached through the gateway's port (src/grpc/port.ts: the NodeMux port, and the port over grpc-js's
 * unary client), and every path compared (answers, errors with code, details and the node's ErrorInfo, deadlines and
 * cancellation aborting the service's signal, message limits), then what only the mux has to prove: many calls on one stream answered out of order, a call too large for
 * the limit failing alone while the stream goes on, backpressure, the node restarting under it (UNAVAILABLE, then
 * recovery), an orderly shutdown, unknown methods and undecodable requests on the wire, and the fallback to unary
 * calls against a node without NodeMux.
 */
import { expect } from 'chai';
import {
  credentials,
  Server,
  ServerCredentials,
  status as Status,
  type ServiceError,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import {
  connect,
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { createMuxNodePort, type MuxNodePort } from '../../gateway/mux-client.ts';
import { FrameKind, NodeMuxClient, type MuxBatch } from '../../src/grpc/gen/mux.ts';
import { BlockView, NodeServiceClient, NodeServiceService, type BlockResponse } from '../../src/grpc/gen/node.ts';
import { NodeCallError, portOverClient, type NodeMethod, type NodePort } from '../../src/grpc/port.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { nodeServiceHandlers } from '../../src/node/grpc/handlers.ts';
import { serveNodeMux } from '../../src/node/grpc/mux-server.ts';
import type { ServiceMethods } from '../../src/node/grpc/port.ts';
import { CollectingLogger } from '../../harness/node.ts';
import { freePort } from './harness.ts';

type Method = NodeMethod;
/** A test's service: some methods of NodeService, each `(request, signal?) => answer` (a promise or not). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Service = Record<string, (request: any, signal: AbortSignal) => unknown>;
/** A service method that never answers. */
const never = (): Promise<never> => new Promise(() => undefined);

const ID = new Uint8Array(32).fill(7);
const MiB = 1024 * 1024;

interface Rig {
  port: number;
  /** grpc-js's unary client, and the port over it. */
  unary: NodeServiceClient;
  unaryPort: NodePort;
  mux: MuxNodePort;
  /** GOAWAY on the mux streams, then grpc-js's graceful shutdown. */
  stop(): Promise<void>;
  /** Drops every connection at once, like a node that dies. */
  kill(): void;
}

/** `service` served as the node serves its own: the unary handlers and, with `withMux`, NodeMux beside them. */
async function serve(service: Service | ServiceMethods, port = 0, withMux = true): Promise<Rig> {
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
  return {
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
  };
}

interface Outcome {
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
function invoke(
  port: NodePort,
  method: Method,
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
async function both(rig: Rig, method: Method, request: unknown, options: { deadline?: number } = {}): Promise<Outcome> {
  const [unary, mux] = await Promise.all([
    invoke(rig.unaryPort, method, request, options),
    invoke(rig.mux, method, request, options),
  ]);
  expect(mux).to.deep.equal(unary);
  return mux;
}

const blockRequest = { blockId: ID, view: BlockView.BLOCK_VIEW_UNSPECIFIED };
const submit = { block: { $case: 'raw', value: Uint8Array.of(1) } };

/** A TCP relay on a fixed port to a backend port: `stop()` drops every connection and stops listening. */
async function startRelay(
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

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('mux transport: unary NodeService calls as frames over long-lived gRPC streams', () => {
  describe('the node service, compared with unary gRPC', () => {
    const aborted: string[] = [];
    const service = {
      getBlock: async () => ({
        blockId: ID,
        block: undefined,
        raw: Uint8Array.of(2, 1, 0, 9),
        json: '{"protocolVersion":2}',
      }),
      getTips: async () => ({ tips: [new Uint8Array(32).fill(1)] }),
      getBlockMetadata: async () => {
        throw new NodeError('NOT_FOUND', 'block not found: 0x07');
      },
      getInfo: async () => {
        throw new NodeError('POW_QUEUE_FULL', 'proof of work queue is full', { retryAfterSeconds: 7 });
      },
      getIncludedBlockMetadata: async () => {
        throw new Error('storage read failed');
      },
      submitBlock: (_req: unknown, signal: AbortSignal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted.push('submitBlock');
            reject(new NodeError('UNAVAILABLE', 'aborted'));
          });
        }),
    } as unknown as ServiceMethods;
    let rig: Rig;
    before(async () => {
      rig = await serve(service);
    });
    after(async () => {
      rig.unary.close();
      rig.mux.close();
      await rig.stop();
    });

    it('answers and domain errors: the same message, code, details and ErrorInfo trailer', async () => {
      expect((await both(rig, 'getBlock', blockRequest)).response).to.deep.include({ json: '{"protocolVersion":2}' });
      await both(rig, 'getTips', { allowSemiLazy: true });
      const notFound = (await both(rig, 'getBlockMetadata', { blockId: ID })).error!;
      expect(notFound).to.deep.include({
        code: Status.NOT_FOUND,
        details: 'block not found: 0x07',
        domain: 'NOT_FOUND',
        detailed: true,
      });
      const full = (await both(rig, 'getInfo', {})).error!;
      expect(full.retryAfterSeconds).to.equal(7);
      expect((await both(rig, 'getIncludedBlockMetadata', { transactionId: ID, view: 0 })).error!.code).to.equal(
        Status.INTERNAL,
      );
    });

    it('a deadline that passes: DEADLINE_EXCEEDED for the caller, the service`s signal aborts (PoW aborts)', async () => {
      aborted.length = 0;
      const outcomes = await Promise.all(
        [rig.unaryPort, rig.mux].map((c) => invoke(c, 'submitBlock', submit, { deadline: Date.now() + 150 })),
      );
      for (const o of outcomes) {
        expect(o.error).to.deep.include({ code: Status.DEADLINE_EXCEEDED, detailed: false });
        // grpc-js's client timer says "after N s"; when the server's own deadline answers first, it is the bare text
        expect(o.error!.details).to.match(/^Deadline exceeded( after \d+\.\d{3}s|$)/);
      }
      await until(() => aborted.length === 2);
    });

    it('a cancel: CANCELLED "Cancelled on client", the service`s signal aborts', async () => {
      aborted.length = 0;
      const outcomes = await Promise.all(
        [rig.unaryPort, rig.mux].map((c) => invoke(c, 'submitBlock', submit, {}, (abort) => setTimeout(abort, 50))),
      );
      expect(outcomes[1]).to.deep.equal(outcomes[0]);
      expect(outcomes[0]!.error).to.include({ code: Status.CANCELLED, details: 'Cancelled on client' });
      await until(() => aborted.length === 2);
    });

    it('a deadline already passed fails without reaching the node', async () => {
      for (const c of [rig.unaryPort, rig.mux]) {
        const o = await invoke(c, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() - 5 });
        expect(o.error).to.deep.include({ code: Status.DEADLINE_EXCEEDED, detailed: false });
      }
    });
  });

  describe("the service's edges and the message limits, compared with unary gRPC", () => {
    let answerBytes = 0;
    const started: string[] = [];
    let release: (() => void) | undefined;
    const service: Service = {
      getBlock: (request: { blockId: Uint8Array }) => {
        if (answerBytes === 0) throw new Error('thrown synchronously');
        return Promise.resolve({
          blockId: request.blockId,
          block: undefined,
          raw: new Uint8Array(answerBytes).fill(3),
          json: '',
        });
      },
      getTips: async () => null,
      getInfoV3: async () => {
        throw new NodeCallError('GetInfoV3', Status.FAILED_PRECONDITION, 'a bare status');
      },
      getIssuanceV3: async (_request: unknown, signal: AbortSignal) => ({
        json: JSON.stringify({ signal: signal instanceof AbortSignal, aborted: signal.aborted }),
      }),
      getBlockMetadataV3: (request: { blockId: Uint8Array }) => {
        started.push('slow');
        return new Promise(
          (resolve) =>
            (release = () => resolve({ json: `slow ${Buffer.from(request.blockId).toString('hex').slice(0, 4)}` })),
        );
      },
      submitBlock: async () => ({ blockId: ID }),
      // getBlockV3, ... missing: UNIMPLEMENTED
    };
    let rig: Rig;
    before(async () => {
      rig = await serve(service);
    });
    after(async () => {
      rig.unary.close();
      rig.mux.close();
      await rig.stop();
    });

    it('a method that throws, an answer that is no message, a bare status, a missing method', async () => {
      answerBytes = 0;
      expect((await both(rig, 'getBlock', blockRequest)).error).to.include({
        code: Status.INTERNAL,
        details: 'GetBlock failed: thrown synchronously',
        detailed: true,
      });
      expect((await both(rig, 'getTips', { allowSemiLazy: false })).error).to.include({
        code: Status.INTERNAL,
        details: 'Error serializing response',
      });
      expect((await both(rig, 'getInfoV3', {})).error).to.include({
        code: Status.FAILED_PRECONDITION,
        details: 'a bare status',
        detailed: false,
      });
      expect((await both(rig, 'getBlockV3', { blockId: ID, view: 0 })).error).to.include({
        code: Status.UNIMPLEMENTED,
        details: 'The server does not implement the method getBlockV3',
      });
    });

    it('a method that takes a signal gets one, not aborted while the call is under way', async () => {
      const o = await both(rig, 'getIssuanceV3', {}, { deadline: Date.now() + 5000 });
      expect(JSON.parse((o.response as { json: string }).json)).to.deep.equal({ signal: true, aborted: false });
    });

    it('messages up to the 4 MiB limit pass; a larger answer or request fails alone with RESOURCE_EXHAUSTED, the stream goes on', async () => {
      started.length = 0;
      const slow = invoke(rig.mux, 'getBlockMetadataV3', { blockId: ID, view: 0 }); // under way on the same stream throughout
      await until(() => started.length === 1);
      answerBytes = 3 * MiB;
      expect(((await both(rig, 'getBlock', blockRequest)).response as BlockResponse).raw.length).to.equal(3 * MiB);
      answerBytes = 5 * MiB;
      const tooLarge = (await both(rig, 'getBlock', blockRequest)).error!;
      expect(tooLarge).to.include({ code: Status.RESOURCE_EXHAUSTED });
      expect(tooLarge.details).to.match(/^Sent message larger than max \(5242\d{3} vs\. 4194304\)$/);
      const request = (await both(rig, 'submitBlock', { block: { $case: 'raw', value: new Uint8Array(5 * MiB) } }))
        .error!;
      expect(request).to.include({
        code: Status.RESOURCE_EXHAUSTED,
        details: 'Received message larger than max (5242885 vs 4194304)',
      });
      release!();
      expect((await slow).response).to.deep.equal({ json: 'slow 0707' });
    });
  });

  describe('what only the mux has to prove', () => {
    it('concurrent calls on one stream, answered out of order: each caller gets its own answer', async () => {
      const order: number[] = [];
      const rig = await serve({
        getBlockMetadataV3: (request: { blockId: Uint8Array }) => {
          const n = request.blockId[0]!;
          return new Promise((resolve) => setTimeout(() => resolve({ json: `answer ${n}` }), (n * 7919) % 40));
        },
      });
      try {
        const calls = Array.from({ length: 200 }, (_, i) =>
          invoke(rig.mux, 'getBlockMetadataV3', { blockId: Uint8Array.of(i), view: 0 }).then((o) => {
            order.push(i);
            return o;
          }),
        );
        const outcomes = await Promise.all(calls);
        outcomes.forEach((o, i) => {
          expect(o.response).to.deep.equal({ json: `answer ${i}` });
        });
        expect(order).to.not.deep.equal([...order].sort((a, b) => a - b));
      } finally {
        rig.mux.close();
        rig.unary.close();
        await rig.stop();
      }
    });

    it('backpressure: 64 MiB of answers to 128 concurrent calls arrive whole (batches within the limit, writes held back)', async () => {
      const rig = await serve({
        getBlock: async (request: { blockId: Uint8Array }) => {
          const id = request.blockId;
          return { blockId: id, block: undefined, raw: new Uint8Array(MiB / 2).fill(id[0]!), json: '' };
        },
      });
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 128 }, (_, i) => invoke(rig.mux, 'getBlock', { blockId: Uint8Array.of(i), view: 0 })),
        );
        outcomes.forEach((o, i) => {
          const raw = (o.response as BlockResponse).raw;
          expect([raw.length, raw[0], raw[raw.length - 1]]).to.deep.equal([MiB / 2, i, i]);
        });
      } finally {
        rig.mux.close();
        rig.unary.close();
        await rig.stop();
      }
    });

    it('the node dies under calls: UNAVAILABLE like unary calls; restarted on its port, the next calls go through', async function () {
      this.timeout(20000);
      let hanging = 0;
      const service: Service = {
        getInfo: () => {
          hanging++;
          return never();
        },
        getTips: async () => ({ tips: [ID] }),
      };
      // The clients reach the node through a TCP relay on a fixed port, so its death is a dropped connection, as
      // when the process is killed, and its restart is the same address answering again.
      let rig = await serve(service);
      const relay = await startRelay(rig.port);
      const address = `127.0.0.1:${relay.port}`;
      const unary = new NodeServiceClient(address, credentials.createInsecure());
      const mux = createMuxNodePort(address);
      const unaryPort = portOverClient(unary);
      try {
        expect((await invoke(mux, 'getTips', { allowSemiLazy: false })).response).to.deep.equal({ tips: [ID] });
        const inFlight = [unaryPort, mux].map((c) => invoke(c, 'getInfo', {}));
        await until(() => hanging === 2);
        await relay.stop();
        rig.kill();
        const [u, m] = await Promise.all(inFlight);
        expect(u.error).to.deep.include({ code: Status.UNAVAILABLE, details: 'Connection dropped' });
        expect(m.error).to.deep.equal(u.error);
        // while nothing listens: UNAVAILABLE at once, without the details trailer (the gateway: 503 node unreachable)
        const down = await invoke(mux, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() + 5000 });
        expect(down.error).to.deep.include({ code: Status.UNAVAILABLE, detailed: false });
        rig = await serve(service);
        await relay.start(rig.port);
        let answer: Outcome = {};
        const end = Date.now() + 15000;
        while (answer.response === undefined && Date.now() < end) {
          answer = await invoke(mux, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() + 2000 });
          if (answer.error) {
            expect(answer.error.code).to.equal(Status.UNAVAILABLE);
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        expect(answer.response).to.deep.equal({ tips: [ID] });
      } finally {
        for (const c of [unary, mux, rig.unary, rig.mux]) c.close();
        await relay.stop();
        await rig.stop();
      }
    });

    it('an orderly shutdown: calls under way are answered, the stream ends, the server stops without being forced', async () => {
      let release: (() => void) | undefined;
      const rig = await serve({
        getInfoV3: () => new Promise((resolve) => (release = () => resolve({ json: 'late' }))),
      });
      const pending = invoke(rig.mux, 'getInfoV3', {});
      await until(() => release !== undefined);
      const t0 = Date.now();
      const stopped = rig.stop();
      setTimeout(() => release!(), 100);
      expect((await pending).response).to.deep.equal({ json: 'late' });
      await stopped;
      expect(Date.now() - t0).to.be.below(1500);
      const after = await invoke(rig.mux, 'getInfoV3', {}, { deadline: Date.now() + 5000 });
      expect(after.error!.code).to.equal(Status.UNAVAILABLE);
      rig.mux.close();
      rig.unary.close();
    });

    it('on the wire: an unknown method, a request that does not decode and a domain error fail as the unary server fails them', async () => {
      const rig = await serve({
        getBlock: async () => ({ blockId: ID, block: undefined, raw: new Uint8Array(0), json: '' }),
        getTips: async () => {
          throw new NodeError('NO_TIPS', 'no tips \u0000 yet', { retryAfterSeconds: 2 });
        },
      });
      const raw = new NodeMuxClient(`127.0.0.1:${rig.port}`, credentials.createInsecure());
      try {
        const stream = raw.exchange();
        const frames: MuxBatch['frames'] = [];
        stream.on('data', (b: MuxBatch) => frames.push(...b.frames));
        const base = { timeoutMs: 0, statusCode: 0, statusDetails: '', metadata: [] };
        stream.write({
          frames: [
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 1, method: 'NoSuchMethod', message: new Uint8Array(0) },
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 2, method: 'GetBlock', message: Uint8Array.of(0xff) },
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 3, method: 'GetTips', message: new Uint8Array(0) },
          ],
        });
        await until(() => frames.length === 3);
        const unaryOf = (path: string, body: Buffer) =>
          new Promise<ServiceError>((resolve) =>
            rig.unary.makeUnaryRequest(
              path,
              (b: Buffer) => b,
              (b: Buffer) => b,
              body,
              (e) => resolve(e!),
            ),
          );
        const unknown = await unaryOf('/ledger.v1.NodeService/NoSuchMethod', Buffer.alloc(0));
        const garbled = await unaryOf('/ledger.v1.NodeService/GetBlock', Buffer.from([0xff]));
        const byId = new Map(frames.map((f) => [f.callId, f]));
        expect([byId.get(1)!.kind, byId.get(1)!.statusCode, byId.get(1)!.statusDetails]).to.deep.equal([
          FrameKind.FRAME_KIND_FAILURE,
          unknown.code,
          unknown.details,
        ]);
        expect(unknown.details).to.equal(
          'The server does not implement the method /ledger.v1.NodeService/NoSuchMethod',
        );
        expect([byId.get(2)!.statusCode, byId.get(2)!.statusDetails]).to.deep.equal([garbled.code, garbled.details]);
        expect(garbled).to.include({ code: Status.INTERNAL, details: 'Error deserializing request' });
        const domain = await unaryOf('/ledger.v1.NodeService/GetTips', Buffer.alloc(0));
        const failure = byId.get(3)!;
        expect([failure.statusCode, failure.statusDetails]).to.deep.equal([domain.code, domain.details]);
        expect(domain).to.include({ code: Status.UNAVAILABLE, details: 'no tips \\u{0} yet' });
        // the one trailer the node adds: grpc-status-details-bin, byte for byte (content-type and date are HTTP/2's)
        expect(failure.metadata.map((e) => [e.key, Buffer.from(e.value)])).to.deep.equal([
          ['grpc-status-details-bin', domain.metadata.get('grpc-status-details-bin')[0]],
        ]);
        stream.end();
      } finally {
        raw.close();
        rig.mux.close();
        rig.unary.close();
        await rig.stop();
      }
    });

    it('a node without NodeMux: the calls go through as unary calls, and the fallback is told once', async () => {
      const rig = await serve({ getTips: async () => ({ tips: [ID] }) }, 0, false);
      const told: string[] = [];
      const client = createMuxNodePort(`127.0.0.1:${rig.port}`, { onFallback: (reason) => told.push(reason) });
      try {
        const first = await Promise.all([1, 2, 3].map(() => invoke(client, 'getTips', { allowSemiLazy: false })));
        const later = await invoke(client, 'getTips', { allowSemiLazy: false });
        for (const o of [...first, later]) expect(o.response).to.deep.equal({ tips: [ID] });
        expect(told).to.have.length(1);
        expect(told[0]).to.match(/does not serve ledger\.mux\.v1\.NodeMux .*using unary gRPC calls/);
        const missing = await both({ ...rig, mux: client }, 'getInfo', {});
        expect(missing.error!.code).to.equal(Status.UNIMPLEMENTED);
      } finally {
        client.close();
        rig.mux.close();
        rig.unary.close();
        await rig.stop();
      }
    });
  });
});

describe('mux port: a closed port fails its calls as an unreachable node', () => {
  it('UNAVAILABLE without details after close()', async () => {
    const port = createMuxNodePort(`127.0.0.1:${await freePort()}`);
    port.close();
    expect((await invoke(port, 'getTips', { allowSemiLazy: false })).error).to.include({
      code: Status.UNAVAILABLE,
      detailed: false,
    });
  });
});
