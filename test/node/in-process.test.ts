/**
 * The in-process transport (src/node/grpc/in-process.ts) against real gRPC: the same handlers served both ways and
 * every path compared (answers, errors with message, code, details and metadata, deadlines, cancellation, a stopped
 * server, a closed client), then what only the in-process transport has to prove: answers are detached from the
 * service's objects, and requests arrive as decode would build them.
 */
import { expect } from 'chai';
import { credentials, Metadata, Server, ServerCredentials, status as Status, type ClientUnaryCall, type ServerUnaryCall, type ServiceError, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { ProtocolError } from '../../src/core/errors.ts';
import { BlockView, NodeServiceClient, NodeServiceService, type BlockResponse, type TipsResponse } from '../../src/grpc/gen/node.ts';
import { decodeStatusDetails, STATUS_DETAILS_KEY, statusError } from '../../src/grpc/status.ts';
import { NodeError } from '../../src/node/errors.ts';
import { nodeServiceHandlers } from '../../src/node/grpc/handlers.ts';
import { InProcessNodeServer } from '../../src/node/grpc/in-process.ts';
import type { NodeServiceImpl } from '../../src/node/grpc/service.ts';
import { CollectingLogger } from './support.ts';

type Method = keyof typeof NodeServiceService;

const ID = new Uint8Array(32).fill(7);

/** A service whose answers are shared objects (as a cache would hand out) and whose failures cover every kind. */
function stubService(aborted: string[]) {
  const cachedBlock: BlockResponse = { blockId: ID, block: undefined, raw: Uint8Array.of(2, 1, 0, 9), json: '{"protocolVersion":2}' };
  const cachedTips: TipsResponse = { tips: [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)] };
  const service = {
    getBlock: async () => cachedBlock,
    getTips: async () => cachedTips,
    getBlockMetadata: async () => {
      throw new NodeError('NOT_FOUND', 'block not found: 0x07');
    },
    getIncludedBlock: async () => {
      throw new ProtocolError('INVALID_HEX', 'transaction ID of 3 bytes', { field: 'transactionId', offset: 0, value: '0x010203' });
    },
    getIncludedBlockMetadata: async () => {
      throw new Error('storage read failed\n    at read (level.ts:1:1)');
    },
    getInfo: async () => {
      throw new NodeError('POW_QUEUE_FULL', 'proof of work queue is full', { retryAfterSeconds: 7 });
    },
    getInfoV3: async () => ({ json: '{"status":{}}' }),
    submitBlock: (_req: unknown, signal: AbortSignal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push('submitBlock');
          reject(new NodeError('UNAVAILABLE', 'aborted'));
        });
      }),
  };
  return { service: service as unknown as NodeServiceImpl, cachedBlock, cachedTips };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Respond = (error: any, value?: unknown, trailer?: Metadata) => void;

/** Handlers written against grpc-js directly, for the edges of its server behaviour. */
function edgeHandlers(seen: unknown[]): UntypedServiceImplementation {
  return {
    getBlock: () => {
      throw new Error('thrown synchronously');
    },
    getTips: (_call: ServerUnaryCall<unknown, unknown>, cb: Respond) => cb(null, null),
    getInfo: (_call: ServerUnaryCall<unknown, unknown>, cb: Respond) => cb({ code: Status.OK, details: 'not an error' }),
    getInfoV3: (_call: ServerUnaryCall<unknown, unknown>, cb: Respond) => {
      const trailer = new Metadata();
      trailer.set('x-extra', 'v');
      trailer.add('x-extra', 'w');
      trailer.set('x-raw-bin', Buffer.from([1, 2, 3]));
      cb(statusError(Status.FAILED_PRECONDITION, { code: 'X', message: 'with trailers' }), null, trailer);
    },
    getIssuanceV3: (call: ServerUnaryCall<unknown, unknown>, cb: Respond) => {
      cb(null, { json: JSON.stringify({ custom: call.metadata.get('x-custom'), path: call.getPath(), cancelled: call.cancelled, finite: Number.isFinite(Number(call.getDeadline())) }) });
    },
    getBlockMetadataV3: (call: ServerUnaryCall<unknown, unknown>, cb: Respond) => {
      seen.push(call.request);
      cb(null, { json: '' });
    },
    getIncludedBlockV3: (_call: ServerUnaryCall<unknown, unknown>, cb: Respond) => cb(Object.assign(new Error('plain error'), { code: Status.ABORTED })),
    // getBlockV3, submitBlockV3, ... missing: UNIMPLEMENTED
  };
}

interface Pair {
  grpc: NodeServiceClient;
  inProcess: NodeServiceClient;
  server: InProcessNodeServer;
  stop(): Promise<void>;
}

async function servePair(handlers: UntypedServiceImplementation): Promise<Pair> {
  const grpcServer = new Server();
  grpcServer.addService(NodeServiceService, handlers);
  const port = await new Promise<number>((resolve, reject) => grpcServer.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  const grpc = new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  const server = new InProcessNodeServer(handlers);
  return {
    grpc,
    inProcess: server.createClient(),
    server,
    stop: async () => {
      grpc.close();
      server.shutdown();
      await new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve()));
    },
  };
}

interface Outcome {
  response?: unknown;
  error?: { message: string; code: number; details: string; keys: string[]; metadata: Record<string, string[]>; date: boolean; errorInfo: unknown };
}

const DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/** An error as comparable data: the `date` trailer only by its form; bytes values as hex. */
function describeError(err: ServiceError): NonNullable<Outcome['error']> {
  const map = err.metadata.toJSON();
  const metadata: Record<string, string[]> = {};
  for (const [k, values] of Object.entries(map)) {
    if (k !== 'date') metadata[k] = values.map((v) => (typeof v === 'string' ? v : `bytes:${Buffer.from(v).toString('hex')}`));
  }
  const details = err.metadata.get(STATUS_DETAILS_KEY)[0];
  return {
    message: err.message,
    code: err.code,
    details: err.details,
    keys: Object.keys(map),
    metadata,
    date: map.date === undefined ? false : DATE.test(String(map.date[0])),
    errorInfo: details instanceof Uint8Array ? decodeStatusDetails(details) : undefined,
  };
}

function invoke(client: NodeServiceClient, method: Method, request: unknown, options: { deadline?: number; metadata?: Metadata } = {}, onCall?: (call: ClientUnaryCall) => void): Promise<Outcome> {
  return new Promise((resolve) => {
    let returned = false;
    const fn = client[method] as unknown as (r: unknown, m: Metadata, o: object, cb: (e: ServiceError | null, v?: unknown) => void) => ClientUnaryCall;
    const call = fn.call(client, request, options.metadata ?? new Metadata(), options.deadline === undefined ? {} : { deadline: options.deadline }, (err, res) => {
      expect(returned, 'the callback ran inside the method call').to.equal(true);
      resolve(err ? { error: describeError(err) } : { response: res });
    });
    returned = true;
    onCall?.(call);
  });
}

async function both(pair: Pair, method: Method, request: unknown, options: { deadline?: number; metadata?: Metadata } = {}): Promise<Outcome> {
  const [grpc, inProcess] = await Promise.all([invoke(pair.grpc, method, request, options), invoke(pair.inProcess, method, request, options)]);
  expect(inProcess).to.deep.equal(grpc);
  return inProcess;
}

const blockRequest = { blockId: ID, view: BlockView.BLOCK_VIEW_UNSPECIFIED };

describe('in-process transport: what a gRPC client sees, without the network', () => {
  describe('the node handlers (nodeServiceHandlers)', () => {
    const aborted: string[] = [];
    const stub = stubService(aborted);
    const logger = new CollectingLogger();
    let pair: Pair;
    before(async () => {
      pair = await servePair(nodeServiceHandlers(stub.service, logger));
    });
    after(async () => {
      await pair.stop();
    });

    it('answers: the same message, every field present', async () => {
      const block = await both(pair, 'getBlock', blockRequest);
      expect(block.response).to.deep.equal(stub.cachedBlock);
      await both(pair, 'getTips', { allowSemiLazy: true });
      expect((await both(pair, 'getInfoV3', {})).response).to.deep.equal({ json: '{"status":{}}' });
    });

    it('domain errors: code, details, ErrorInfo trailer and the trailers-only metadata, as over gRPC', async () => {
      const notFound = (await both(pair, 'getBlockMetadata', { blockId: ID })).error!;
      expect(notFound.code).to.equal(Status.NOT_FOUND);
      expect(notFound.message).to.equal('5 NOT_FOUND: block not found: 0x07');
      expect(notFound.keys).to.deep.equal(['content-type', STATUS_DETAILS_KEY, 'date']);
      expect(notFound.date).to.equal(true);
      const full = (await both(pair, 'getInfo', {})).error!;
      expect(full.code).to.equal(Status.RESOURCE_EXHAUSTED);
      expect((full.errorInfo as { info: { retryAfterSeconds?: number } }).info.retryAfterSeconds).to.equal(7);
      const invalid = (await both(pair, 'getIncludedBlock', { transactionId: ID, view: BlockView.BLOCK_VIEW_JSON })).error!;
      expect(invalid.code).to.equal(Status.INVALID_ARGUMENT);
      expect((invalid.errorInfo as { info: unknown }).info).to.deep.equal({ code: 'INVALID_HEX', message: 'transaction ID of 3 bytes', field: 'transactionId', offset: 0, value: '0x010203' });
      const internal = (await both(pair, 'getIncludedBlockMetadata', { transactionId: ID, view: 0 })).error!;
      expect(internal.code).to.equal(Status.INTERNAL);
      expect(logger.lines.filter((l) => l.includes('GetIncludedBlockMetadata failed unexpectedly'))).to.have.length(2);
    });

    it('a deadline that passes: DEADLINE_EXCEEDED for the caller, the server call cancelled (PoW aborts)', async () => {
      aborted.length = 0;
      const t0 = Date.now();
      const [grpc, inProcess] = await Promise.all(
        [pair.grpc, pair.inProcess].map((c) => invoke(c, 'submitBlock', { block: { $case: 'json', value: '{}' } }, { deadline: Date.now() + 150 })),
      );
      expect(Date.now() - t0).to.be.below(2000);
      for (const o of [grpc, inProcess]) {
        expect(o.error!.code).to.equal(Status.DEADLINE_EXCEEDED);
        expect(o.error!.details).to.match(/^Deadline exceeded after \d+\.\d{3}s/);
        expect(o.error!.metadata).to.deep.equal({});
      }
      await until(() => aborted.length === 2);
    });

    it('a cancel: CANCELLED "Cancelled on client", the server call cancelled', async () => {
      aborted.length = 0;
      const outcomes = await Promise.all(
        [pair.grpc, pair.inProcess].map((c) =>
          invoke(c, 'submitBlock', { block: { $case: 'raw', value: Uint8Array.of(1) } }, {}, (call) => setTimeout(() => call.cancel(), 50)),
        ),
      );
      expect(outcomes[1]).to.deep.equal(outcomes[0]);
      expect(outcomes[0]!.error).to.include({ code: Status.CANCELLED, details: 'Cancelled on client', message: '1 CANCELLED: Cancelled on client' });
      await until(() => aborted.length === 2);
    });

    it('a deadline already passed fails without an answer', async () => {
      const deadline = Date.now() - 5;
      for (const c of [pair.grpc, pair.inProcess]) {
        const o = await invoke(c, 'getTips', { allowSemiLazy: false }, { deadline });
        expect(o.error).to.deep.include({ code: Status.DEADLINE_EXCEEDED, metadata: {}, keys: [] });
        expect(o.error!.message).to.match(/^4 DEADLINE_EXCEEDED: Deadline exceeded after \d+\.\d{3}s/);
      }
    });
  });

  describe("grpc-js's server edges", () => {
    const seen: unknown[] = [];
    let pair: Pair;
    before(async () => {
      pair = await servePair(edgeHandlers(seen));
    });
    after(async () => {
      await pair.stop();
    });

    it('a handler that throws is UNKNOWN "Unknown error"', async () => {
      expect((await both(pair, 'getBlock', blockRequest)).error).to.include({ code: Status.UNKNOWN, details: 'Unknown error' });
    });

    it('an answer that is no message is INTERNAL; an "error" with status OK is UNIMPLEMENTED "No message received"', async () => {
      expect((await both(pair, 'getTips', { allowSemiLazy: false })).error).to.include({ code: Status.INTERNAL, details: 'Error serializing response' });
      expect((await both(pair, 'getInfo', {})).error).to.include({ code: Status.UNIMPLEMENTED, details: 'No message received' });
    });

    it('trailer metadata given to the callback replaces the error`s own, every value kept', async () => {
      const e = (await both(pair, 'getInfoV3', {})).error!;
      expect(e.metadata).to.deep.equal({ 'content-type': ['application/grpc+proto'], 'x-extra': ['v, w'], 'x-raw-bin': ['bytes:010203'] });
      expect(e.keys).to.deep.equal(['content-type', STATUS_DETAILS_KEY, 'x-extra', 'x-raw-bin', 'date'].filter((k) => k !== STATUS_DETAILS_KEY));
      expect((await both(pair, 'getIncludedBlockV3', { transactionId: ID, view: 0 })).error).to.include({ code: Status.ABORTED, details: 'plain error' });
    });

    it('a method without handler is UNIMPLEMENTED', async () => {
      expect((await both(pair, 'getBlockV3', { blockId: ID, view: 0 })).error).to.include({ code: Status.UNIMPLEMENTED, details: 'The server does not implement the method getBlockV3' });
    });

    it('the server call: metadata, path, deadline; requests arrive with every field (decode`s defaults)', async () => {
      const metadata = new Metadata();
      metadata.set('x-custom', 'hello');
      const o = await both(pair, 'getIssuanceV3', {}, { metadata, deadline: Date.now() + 5000 });
      expect(JSON.parse((o.response as { json: string }).json)).to.deep.equal({ custom: ['hello'], path: '/ledger.v1.NodeService/GetIssuanceV3', cancelled: false, finite: true });
      seen.length = 0;
      await both(pair, 'getBlockMetadataV3', { blockId: ID, view: BlockView.BLOCK_VIEW_JSON, extra: 'dropped' });
      expect(seen).to.have.length(2);
      expect(seen[1]).to.deep.equal(seen[0]);
      expect(seen[0]).to.deep.equal({ blockId: ID, view: BlockView.BLOCK_VIEW_JSON });
      // a request missing a field: grpc-js fails it on the client; in process it arrives with the default
      expect((await invoke(pair.grpc, 'getBlockMetadataV3', { blockId: ID })).error).to.include({ code: Status.INTERNAL });
      seen.length = 0;
      await invoke(pair.inProcess, 'getBlockMetadataV3', { blockId: ID });
      expect(seen).to.deep.equal([{ blockId: ID, view: BlockView.BLOCK_VIEW_UNSPECIFIED }]);
    });
  });

  describe('what only the in-process transport has to prove', () => {
    const stub = stubService([]);
    let server: InProcessNodeServer;
    let client: NodeServiceClient;
    before(() => {
      server = new InProcessNodeServer(nodeServiceHandlers(stub.service, new CollectingLogger()));
      client = server.createClient();
    });

    it('an answer shares nothing mutable with the service: changing it leaves the next answer and the cache alone', async () => {
      const first = (await invoke(client, 'getBlock', blockRequest)).response as BlockResponse;
      expect(first).to.not.equal(stub.cachedBlock);
      first.raw.fill(0);
      first.blockId.fill(0);
      first.json = 'changed';
      const tips = (await invoke(client, 'getTips', { allowSemiLazy: false })).response as TipsResponse;
      tips.tips[0]!.fill(9);
      tips.tips.push(new Uint8Array(32));
      expect(stub.cachedBlock).to.deep.equal({ blockId: new Uint8Array(32).fill(7), block: undefined, raw: Uint8Array.of(2, 1, 0, 9), json: '{"protocolVersion":2}' });
      expect(stub.cachedTips.tips).to.deep.equal([new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)]);
      expect((await invoke(client, 'getBlock', blockRequest)).response).to.deep.equal(stub.cachedBlock);
    });

    it('deadlines share one timer: a shorter deadline after a longer one still ends on time, the longer one after', async () => {
      const submit = { block: { $case: 'json', value: '{}' } };
      const t0 = Date.now();
      const long = invoke(client, 'submitBlock', submit, { deadline: t0 + 400 }).then((o) => [o, Date.now() - t0] as const);
      const short = invoke(client, 'submitBlock', submit, { deadline: t0 + 100 }).then((o) => [o, Date.now() - t0] as const);
      const [[s, ts], [l, tl]] = await Promise.all([short, long]);
      expect(s.error!.code).to.equal(Status.DEADLINE_EXCEEDED);
      expect(l.error!.code).to.equal(Status.DEADLINE_EXCEEDED);
      expect(ts).to.be.at.least(99).and.below(390);
      expect(tl).to.be.at.least(399);
    });

    it('after shutdown calls fail UNAVAILABLE without the details trailer (the gateway: node unreachable)', async () => {
      const stopped = new InProcessNodeServer(nodeServiceHandlers(stub.service, new CollectingLogger()));
      const c = stopped.createClient();
      stopped.shutdown();
      const e = (await invoke(c, 'getTips', { allowSemiLazy: false })).error!;
      expect(e.code).to.equal(Status.UNAVAILABLE);
      expect(e.metadata).to.deep.equal({});
      expect(e.errorInfo).to.equal(undefined);
    });

    it('a closed client throws like a closed grpc-js channel; other clients of the server go on', async () => {
      const c = server.createClient();
      c.close();
      expect(() => c.getTips({ allowSemiLazy: false }, () => undefined)).to.throw('Channel has been shut down');
      const real = new NodeServiceClient('127.0.0.1:1', credentials.createInsecure());
      real.close();
      expect(() => real.getTips({ allowSemiLazy: false }, () => undefined)).to.throw('Channel has been shut down');
      expect((await invoke(client, 'getTips', { allowSemiLazy: false })).response).to.deep.equal(stub.cachedTips);
    });

    it('the optional arguments of a unary method: (request, callback), (request, metadata, callback), (request, options, callback)', async () => {
      const got = await Promise.all([
        new Promise((resolve) => client.getTips({ allowSemiLazy: false }, (e, r) => resolve(e ?? r))),
        new Promise((resolve) => client.getTips({ allowSemiLazy: false }, new Metadata(), (e, r) => resolve(e ?? r))),
        new Promise((resolve) => (client.getTips as unknown as (q: unknown, o: object, cb: (e: unknown, r: unknown) => void) => void)({ allowSemiLazy: false }, { deadline: Date.now() + 1000 }, (e, r) => resolve(e ?? r))),
      ]);
      for (const r of got) expect(r).to.deep.equal(stub.cachedTips);
    });
  });
});

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
