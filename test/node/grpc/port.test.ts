/**
 * The gateway's port (src/grpc/port.ts) over each way to the node: the service in this process
 * (src/node/grpc/port.ts), the port over grpc-js's unary client (portOverClient) and the NodeMux port, to the same
 * service served over gRPC. The same stub service answers all three; answers and failures must read the same (code,
 * gRPC status, message, details), the caller's signal and deadline must end the call and abort the service's work,
 * and every call is observed.
 */
import { expect } from 'chai';
import { credentials, Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createMuxNodePort } from '../../../gateway/mux-client.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import { BlockView, NodeServiceClient, NodeServiceService, type BlockResponse } from '../../../src/grpc/gen/node.ts';
import { NodeCallError, NODE_METHODS, portOverClient, rpcName, type NodePort } from '../../../src/grpc/port.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { nodeServiceHandlers } from '../../../src/node/grpc/handlers.ts';
import { serveNodeMux } from '../../../src/node/grpc/mux-server.ts';
import { servicePort, type ServiceMethods } from '../../../src/node/grpc/port.ts';
import { CollectingLogger } from '../../../harness/node.ts';

const ID = new Uint8Array(32).fill(7);
const BLOCK: BlockResponse = {
  blockId: ID,
  block: undefined,
  raw: Uint8Array.of(2, 1, 0, 9),
  json: '{"protocolVersion":2}',
};

/** A service whose failures cover every kind; `aborted` lists the work the call's signal stopped. */
function stubService(aborted: string[]): ServiceMethods {
  const service = {
    getBlock: async () => BLOCK,
    getBlockMetadata: async () => {
      throw new NodeError('NOT_FOUND', 'block not found: 0x07');
    },
    getIncludedBlock: async () => {
      throw new ProtocolError('INVALID_HEX', 'transaction ID of 3 bytes', {
        field: 'transactionId',
        offset: 0,
        value: '0x010203',
      });
    },
    getIncludedBlockMetadata: async () => {
      throw new Error('storage read failed\n    at read (level.ts:1:1)');
    },
    getInfo: async () => {
      throw new NodeError('POW_QUEUE_FULL', 'proof of work queue is full', { retryAfterSeconds: 7 });
    },
    getTips: () => new Promise(() => undefined),
    submitBlock: (_req: unknown, signal?: AbortSignal) =>
      new Promise((_resolve, reject) => {
        signal!.addEventListener('abort', () => {
          aborted.push('submitBlock');
          reject(new NodeError('UNAVAILABLE', 'aborted'));
        });
      }),
  };
  return service as unknown as ServiceMethods;
}

interface Way {
  name: string;
  port: NodePort;
  close(): Promise<void>;
}

async function ways(service: ServiceMethods, logger: CollectingLogger, observed: string[]): Promise<Way[]> {
  const handlers = nodeServiceHandlers(service, logger) as unknown as UntypedServiceImplementation;
  const server = new Server();
  server.addService(NodeServiceService, handlers);
  const mux = serveNodeMux(server, service, { logger });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const unary = new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  const muxPort = createMuxNodePort(`127.0.0.1:${port}`);
  const local = servicePort(service, { logger, observe: (method, code) => observed.push(`${method} ${code}`) });
  return [
    { name: 'in-process', port: local, close: async () => local.close() },
    { name: 'unary gRPC', port: portOverClient(unary), close: async () => unary.close() },
    {
      name: 'mux',
      port: muxPort,
      close: async () => {
        muxPort.close();
        mux.goAway();
        await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
      },
    },
  ];
}

async function failure(p: Promise<unknown>): Promise<NodeCallError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(NodeCallError);
    return e as NodeCallError;
  }
  throw new Error('the call did not fail');
}

describe('NodePort: the service in process, over unary gRPC and over the mux', () => {
  const aborted: string[] = [];
  const observed: string[] = [];
  const logger = new CollectingLogger();
  let all: Way[];
  before(async () => {
    all = await ways(stubService(aborted), logger, observed);
  });
  after(async () => {
    for (const w of all) await w.close();
  });

  it('derives its methods from the generated definition, with the proto names', () => {
    expect(NODE_METHODS).to.deep.equal(Object.keys(NodeServiceService));
    expect(rpcName('getBlockMetadataV3')).to.equal('GetBlockMetadataV3');
    for (const w of all) for (const m of NODE_METHODS) expect(w.port[m], `${w.name} ${m}`).to.be.a('function');
  });

  it('answers the same message every way; in process it is the service object itself', async () => {
    for (const w of all) {
      const res = await w.port.getBlock(
        { blockId: ID, view: BlockView.BLOCK_VIEW_RAW },
        { deadline: Date.now() + 5000 },
      );
      expect(new Uint8Array(res.raw), w.name).to.deep.equal(BLOCK.raw);
      expect(res.json, w.name).to.equal(BLOCK.json);
      if (w.name === 'in-process') expect(res).to.equal(BLOCK);
    }
  });

  it('fails with the same NodeCallError every way: domain code, status, message, details', async () => {
    const cases: [string, (p: NodePort) => Promise<unknown>][] = [
      ['not found', (p) => p.getBlockMetadata({ blockId: ID })],
      ['protocol', (p) => p.getIncludedBlock({ transactionId: ID, view: BlockView.BLOCK_VIEW_JSON })],
      ['defect', (p) => p.getIncludedBlockMetadata({ transactionId: ID, view: BlockView.BLOCK_VIEW_JSON })],
      ['retry after', (p) => p.getInfo({})],
    ];
    for (const [what, call] of cases) {
      const seen = [];
      for (const w of all) {
        const e = await failure(call(w.port));
        seen.push({ ...e.description, detailed: e.detailed, message: e.message });
      }
      expect(seen[1], what).to.deep.equal(seen[0]);
      expect(seen[2], what).to.deep.equal(seen[0]);
    }
    const e = await failure(all[0]!.port.getIncludedBlock({ transactionId: ID, view: BlockView.BLOCK_VIEW_JSON }));
    expect(e).to.include({
      code: 'INVALID_HEX',
      grpcCode: GrpcStatus.INVALID_ARGUMENT,
      field: 'transactionId',
      offset: 0,
      value: '0x010203',
      detailed: true,
    });
    const d = await failure(
      all[0]!.port.getIncludedBlockMetadata({ transactionId: ID, view: BlockView.BLOCK_VIEW_JSON }),
    );
    expect(d).to.include({ code: 'INTERNAL', grpcCode: GrpcStatus.INTERNAL });
    expect(d.details).to.match(/^GetIncludedBlockMetadata failed: storage read failed/);
    expect(logger.lines.filter((l) => l.includes('GetIncludedBlockMetadata failed unexpectedly'))).to.have.length(4);
  });

  it("the caller's signal ends the call CANCELLED and aborts the service's work", async () => {
    for (const w of all) {
      aborted.length = 0;
      const caller = new AbortController();
      const pending = failure(
        w.port.submitBlock(
          { block: { $case: 'raw', value: Uint8Array.of(1) } },
          { signal: caller.signal, deadline: Date.now() + 5000 },
        ),
      );
      await new Promise((r) => setTimeout(r, 30));
      caller.abort();
      expect(await pending, w.name).to.include({ grpcCode: GrpcStatus.CANCELLED, detailed: false });
      for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(aborted, w.name).to.deep.equal(['submitBlock']);
    }
  });

  it('the deadline ends the call DEADLINE_EXCEEDED (the work aborted); a passed one before asking', async () => {
    for (const w of all) {
      aborted.length = 0;
      const e = await failure(
        w.port.submitBlock({ block: { $case: 'raw', value: Uint8Array.of(1) } }, { deadline: Date.now() + 50 }),
      );
      expect(e, w.name).to.include({
        grpcCode: GrpcStatus.DEADLINE_EXCEEDED,
        detailed: false,
        code: 'DEADLINE_EXCEEDED',
      });
      for (let i = 0; i < 50 && aborted.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(aborted, w.name).to.deep.equal(['submitBlock']);
      expect(
        (await failure(w.port.getTips({ allowSemiLazy: false }, { deadline: Date.now() + 20 }))).grpcCode,
        w.name,
      ).to.equal(GrpcStatus.DEADLINE_EXCEEDED);
    }
    const passed = await failure(
      all[0]!.port.getBlock({ blockId: ID, view: BlockView.BLOCK_VIEW_JSON }, { deadline: Date.now() - 1 }),
    );
    expect(passed.grpcCode).to.equal(GrpcStatus.DEADLINE_EXCEEDED);
  });

  it('observes every answered call in process, by proto name and status name', async () => {
    observed.length = 0;
    await all[0]!.port.getBlock({ blockId: ID, view: BlockView.BLOCK_VIEW_JSON });
    await failure(all[0]!.port.getBlockMetadata({ blockId: ID }));
    expect(observed).to.deep.equal(['GetBlock OK', 'GetBlockMetadata NOT_FOUND']);
  });

  it('after close(), in process: UNAVAILABLE without details, as a stopped node', async () => {
    const local = servicePort(stubService([]), { logger: new CollectingLogger() });
    local.close();
    const e = await failure(local.getBlock({ blockId: ID, view: BlockView.BLOCK_VIEW_JSON }));
    expect(e).to.include({ grpcCode: GrpcStatus.UNAVAILABLE, detailed: false, code: 'UNAVAILABLE' });
  });
});
