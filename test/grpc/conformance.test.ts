/**
 * Conformance: a client that knows only proto/ (loaded at run time by @grpc/proto-loader, as a client written in
 * another language would be generated from it) talks to a grpc-js server built on the generated TypeScript service
 * definition. Checks the wire shape of messages, and that status codes and error details travel.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type * as m from '../../src/core/model/index.ts';
import { toHex0x } from '../../src/core/bytes.ts';
import { BlockView, NodeServiceClient, NodeServiceService, type NodeServiceServer } from '../../src/grpc/gen/node.ts';
import { blockFromProto } from '../../src/grpc/mapping.ts';
import { blockResponse, requireId, V2_ID_LENGTH } from '../../src/node/grpc/answers.ts';
import { GrpcStatus } from '../../src/grpc/status.ts';
import { parseNodeError } from '../../gateway/errors.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { restError } from '../../gateway/errors.ts';
import { toServiceError } from '../../src/node/grpc/errors.ts';
import * as fx from './fixtures.ts';

const protoDir = fileURLToPath(new URL('../../proto/', import.meta.url));
const includeDir = fileURLToPath(new URL('../../node_modules/protoc/include/', import.meta.url));

interface Stored {
  block: m.Block;
  raw: Uint8Array;
  json: string;
}

/** The in-test node: blocks and tips in memory. */
class MemoryNode {
  blocks = new Map<string, Stored>();
  tips: Uint8Array[] = [];
  tipsFailure: NodeError | undefined;
  submitted = 0;
}

function handler<Req, Res>(fn: (req: Req) => Res): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    try {
      callback(null, fn(call.request));
    } catch (e) {
      callback(toServiceError(e));
    }
  };
}

function unimplemented(): grpc.handleUnaryCall<unknown, never> {
  return (_call, callback) =>
    callback({ code: GrpcStatus.UNIMPLEMENTED, details: 'not in this test server' } as grpc.ServiceError);
}

function serviceOf(node: MemoryNode): NodeServiceServer {
  return {
    getBlock: handler((req) => {
      const id = requireId(req.blockId, V2_ID_LENGTH, 'block ID');
      const stored = node.blocks.get(toHex0x(id));
      if (!stored) throw new NodeError('NOT_FOUND', `block not found: ${toHex0x(id)}`);
      return blockResponse(id, req.view, { block: () => stored.block, raw: () => stored.raw, json: () => stored.json });
    }),
    getTips: handler(() => {
      if (node.tipsFailure) throw node.tipsFailure;
      return { tips: node.tips };
    }),
    submitBlock: handler((req) => {
      if (req.block?.$case !== 'structured')
        throw new NodeError('INVALID_REQUEST', 'this test server takes structured blocks only');
      const block = blockFromProto(req.block.value, 'structured');
      const id = fx.bytesOf(32, 200 + node.submitted++);
      node.blocks.set(toHex0x(id), { block, raw: new Uint8Array(0), json: '' });
      return { blockId: id };
    }),
    getBlockMetadata: unimplemented(),
    getIncludedBlock: unimplemented(),
    getIncludedBlockMetadata: unimplemented(),
    getIncludedBlockV3: unimplemented(),
    submitBlockV3: unimplemented(),
    getBlockV3: unimplemented(),
    getBlockMetadataV3: unimplemented(),
    getInfoV3: unimplemented(),
    getIssuanceV3: unimplemented(),
    getCommitteeV3: unimplemented(),
    getValidatorsV3: unimplemented(),
    getValidatorV3: unimplemented(),
    getAccountCongestionV3: unimplemented(),
    getOutputManaRewardsV3: unimplemented(),
    getNetworkMetricsV3: unimplemented(),
    getBlockWithMetadataV3: unimplemented(),
    getTransactionMetadataV3: unimplemented(),
    getIncludedBlockMetadataV3: unimplemented(),
    getOutputV3: unimplemented(),
    getOutputMetadataV3: unimplemented(),
    getOutputWithMetadataV3: unimplemented(),
    getCommitmentV3: unimplemented(),
    getUtxoChangesV3: unimplemented(),
    getInfo: unimplemented(),
    getOutput: unimplemented(),
    getOutputMetadata: unimplemented(),
    // Echoes which milestone the request named (the oneof as the generated code sees it).
    getMilestone: handler((req) => {
      const m = req.milestone;
      if (m === undefined) throw new NodeError('INVALID_REQUEST', 'no milestone named');
      return m.$case === 'index'
        ? { index: m.value, milestoneId: new Uint8Array(0), raw: Uint8Array.of(7), json: '{"type":7}' }
        : { index: 0, milestoneId: m.value, raw: new Uint8Array(0), json: '' };
    }),
    getMilestoneUtxoChanges: unimplemented(),
    getReceipts: handler((req) => ({ json: JSON.stringify({ migratedAt: req.migratedAt ?? null }) })),
    getTreasury: unimplemented(),
    queryOutputs: unimplemented(),
    getChainOutput: unimplemented(),
    getExplorerBalance: unimplemented(),
    getLedgerUpdatesByAddress: unimplemented(),
    getLedgerUpdatesByMilestone: unimplemented(),
    getExplorerMilestones: unimplemented(),
    getMilestoneBlocks: unimplemented(),
    getBlockChildren: unimplemented(),
    getRichestAddresses: unimplemented(),
    getTokenDistribution: unimplemented(),
    explorerSearch: unimplemented(),
    faucetInfo: unimplemented(),
    faucetEnqueue: unimplemented(),
    getPeers: unimplemented(),
    getPeer: unimplemented(),
    addPeer: unimplemented(),
    removePeer: unimplemented(),
    getDashboard: unimplemented(),
    pruneDatabase: unimplemented(),
    createSnapshot: unimplemented(),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dynamic = any;

function call<T>(client: Dynamic, method: string, request: object): Promise<T> {
  return new Promise((resolve, reject) => {
    client[method](request, (err: grpc.ServiceError | null, res: T) => (err ? reject(err) : resolve(res)));
  });
}

async function failure(p: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as grpc.ServiceError;
  }
  expect.fail('the call should have failed');
}

describe('grpc conformance: dynamic client (proto-loader) against the generated service', () => {
  const node = new MemoryNode();
  const server = new grpc.Server();
  let address = '';
  let dynamic: Dynamic;
  let typed: NodeServiceClient;

  const id = fx.bytesOf(32, 100);
  const raw = Uint8Array.of(2, 1, 0xde, 0xad);
  const json = '{"protocolVersion":2,"parents":["0x..."],"nonce":"12345"}';

  before(async () => {
    node.blocks.set(toHex0x(id), { block: fx.blocks['tagged data']!, raw, json });
    node.blocks.set(toHex0x(fx.bytesOf(32, 101)), { block: fx.blocks.transaction!, raw, json });
    node.tips = [fx.bytesOf(32, 1), fx.bytesOf(32, 2)];
    server.addService(NodeServiceService, serviceOf(node));
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    address = `127.0.0.1:${port}`;
    const definition = protoLoader.loadSync('node.proto', {
      includeDirs: [protoDir, includeDir],
      keepCase: true, // the .proto names, as other languages see them
      longs: String,
      enums: String,
      defaults: true,
      oneofs: true,
    });
    const pkg = grpc.loadPackageDefinition(definition) as Dynamic;
    dynamic = new pkg.ledger.v1.NodeService(address, grpc.credentials.createInsecure());
    typed = new NodeServiceClient(address, grpc.credentials.createInsecure());
  });

  after(() => {
    dynamic?.close();
    typed?.close();
    server.forceShutdown();
  });

  it('the dynamic definition offers exactly the methods of the generated service', () => {
    const definition = protoLoader.loadSync('node.proto', { includeDirs: [protoDir, includeDir] });
    const svc = definition['ledger.v1.NodeService'] as Record<string, { path: string }>;
    const paths = Object.values(svc)
      .map((d) => d.path)
      .sort();
    expect(paths).to.deep.equal(
      Object.values(NodeServiceService)
        .map((d) => d.path)
        .sort(),
    );
    expect(paths).to.include.members([
      '/ledger.v1.NodeService/GetBlock',
      '/ledger.v1.NodeService/GetBlockMetadata',
      '/ledger.v1.NodeService/SubmitBlock',
      '/ledger.v1.NodeService/GetIncludedBlock',
      '/ledger.v1.NodeService/GetIncludedBlockV3',
      '/ledger.v1.NodeService/GetInfo',
      '/ledger.v1.NodeService/GetTips',
    ]);
  });

  it('GetMilestone takes a milestone ID or an index (a oneof); GetReceipts has an optional migrated_at', async () => {
    const byIndex = await call<Dynamic>(dynamic, 'GetMilestone', { index: 17 });
    expect([byIndex.index, Array.from(byIndex.raw as Buffer), byIndex.json]).to.deep.equal([17, [7], '{"type":7}']);
    const msId = fx.bytesOf(32, 42);
    const byId = await call<Dynamic>(dynamic, 'GetMilestone', { milestone_id: Buffer.from(msId) });
    expect(toHex0x(byId.milestone_id)).to.equal(toHex0x(msId));
    expect((await failure(call(dynamic, 'GetMilestone', {}))).code).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect((await call<Dynamic>(dynamic, 'GetReceipts', { migrated_at: 0 })).json).to.equal('{"migratedAt":0}');
    expect((await call<Dynamic>(dynamic, 'GetReceipts', {})).json).to.equal('{"migratedAt":null}');
  });

  it('GetTips returns the tips as bytes', async () => {
    const res = await call<{ tips: Buffer[] }>(dynamic, 'GetTips', { allow_semi_lazy: true });
    expect(res.tips.map((t) => toHex0x(t))).to.deep.equal(node.tips.map(toHex0x));
  });

  it(
    'GetBlock (all views) returns block_id, raw, json ' +
      'and the structured block with snake_case fields and oneof names',
    async () => {
      const res = await call<Dynamic>(dynamic, 'GetBlock', { block_id: Buffer.from(id) });
      expect(toHex0x(res.block_id)).to.equal(toHex0x(id));
      expect(Array.from(res.raw as Buffer)).to.deep.equal(Array.from(raw));
      expect(res.json).to.equal(json);
      const b = res.block;
      expect(b.protocol_version).to.equal(2);
      expect(b.nonce).to.equal('12345');
      expect(b.parents.map((p: Buffer) => toHex0x(p))).to.deep.equal(fx.blocks['tagged data']!.parents.map(toHex0x));
      expect(b.payload.kind).to.equal('tagged_data');
      expect(toHex0x(b.payload.tagged_data.tag)).to.equal(toHex0x(fx.taggedData.tag));
    },
  );

  it('GetBlock with a view returns only that part', async () => {
    const rawOnly = await call<Dynamic>(dynamic, 'GetBlock', { block_id: Buffer.from(id), view: 'BLOCK_VIEW_RAW' });
    expect(rawOnly.block).to.equal(null);
    expect(rawOnly.json).to.equal('');
    expect(rawOnly.raw).to.have.length(raw.length);
    const jsonOnly = await call<Dynamic>(dynamic, 'GetBlock', { block_id: Buffer.from(id), view: 'BLOCK_VIEW_JSON' });
    expect(jsonOnly.json).to.equal(json);
    expect(jsonOnly.raw).to.have.length(0);
  });

  it('u64 max and u256 read alike in the dynamic client (uint64 as decimal, u256 as 32 bytes big-endian)', async () => {
    const res = await call<Dynamic>(dynamic, 'GetBlock', {
      block_id: Buffer.from(fx.bytesOf(32, 101)),
      view: 'BLOCK_VIEW_STRUCTURED',
    });
    const essence = res.block.payload.transaction.essence;
    expect(essence.network_id).to.equal(fx.U64_MAX.toString());
    const basic = essence.outputs[0];
    expect(basic.kind).to.equal('basic');
    expect(basic.basic.amount).to.equal(fx.U64_MAX.toString());
    const token = basic.basic.native_tokens[2];
    expect(BigInt(toHex0x(token.amount))).to.equal(fx.nativeTokens[2]!.amount);
    expect(Buffer.from(basic.basic.native_tokens[0].amount).equals(Buffer.alloc(32, 0xff))).to.equal(true);
  });

  it('an unknown block is NOT_FOUND with details the shared helper parses', async () => {
    const missing = fx.bytesOf(32, 250);
    const err = await failure(call(dynamic, 'GetBlock', { block_id: Buffer.from(missing) }));
    expect(err.code).to.equal(GrpcStatus.NOT_FOUND);
    expect(err.details).to.equal(`block not found: ${toHex0x(missing)}`);
    const parsed = parseNodeError(err);
    expect(parsed).to.deep.equal({
      code: 'NOT_FOUND',
      message: `block not found: ${toHex0x(missing)}`,
      grpcCode: GrpcStatus.NOT_FOUND,
      httpStatus: 404,
    });
    expect(restError(parsed).body.error.message).to.equal(`could not find data: block not found: ${toHex0x(missing)}`);
  });

  it('a block ID of the wrong length is INVALID_ARGUMENT', async () => {
    const err = await failure(call(dynamic, 'GetBlock', { block_id: Buffer.alloc(31) }));
    expect(err.code).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(parseNodeError(err)).to.include({ code: 'INVALID_REQUEST', httpStatus: 400 });
    expect(err.details).to.contain('expected 32 bytes, got 31');
  });

  it('UNAVAILABLE and RESOURCE_EXHAUSTED travel with their code and retry advice', async () => {
    node.tipsFailure = new NodeError('NO_TIPS', 'no tips available');
    try {
      const noTips = parseNodeError(await failure(call(dynamic, 'GetTips', {})));
      expect(noTips).to.include({ code: 'NO_TIPS', grpcCode: GrpcStatus.UNAVAILABLE, httpStatus: 503 });
      node.tipsFailure = new NodeError('POW_QUEUE_FULL', 'proof-of-work queue is full', { retryAfterSeconds: 7 });
      const full = parseNodeError(await failure(call(dynamic, 'GetTips', {})));
      expect(full).to.include({
        code: 'POW_QUEUE_FULL',
        grpcCode: GrpcStatus.RESOURCE_EXHAUSTED,
        httpStatus: 503,
        retryAfterSeconds: 7,
      });
      expect(restError(full).headers).to.deep.equal({ 'retry-after': '7' });
    } finally {
      node.tipsFailure = undefined;
    }
  });

  it('a structured block from the dynamic client maps into the model; a bad field returns with its path', async () => {
    const submitted = {
      structured: {
        protocol_version: 2,
        parents: [],
        nonce: '0',
        payload: { tagged_data: { tag: Buffer.from('hi'), data: Buffer.from([1, 2, 3]) } },
      },
    };
    const res = await call<Dynamic>(dynamic, 'SubmitBlock', submitted);
    const stored = node.blocks.get(toHex0x(res.block_id))!;
    expect(stored.block).to.deep.equal({
      protocolVersion: 2,
      parents: [],
      nonce: 0n,
      payload: { type: 5, tag: Uint8Array.from(Buffer.from('hi')), data: Uint8Array.of(1, 2, 3) },
    });

    const bad = { structured: { ...submitted.structured, protocol_version: 256 } };
    const err = await failure(call(dynamic, 'SubmitBlock', bad));
    expect(err.code).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(parseNodeError(err)).to.deep.equal({
      code: 'VALUE_OUT_OF_RANGE',
      message: 'Cannot convert structured.protocolVersion: expected an integer 0..255 (u8), got 256',
      field: 'structured.protocolVersion',
      value: '256',
      grpcCode: GrpcStatus.INVALID_ARGUMENT,
      httpStatus: 400,
    });
  });

  it('the generated TypeScript client reads the same answers (bigint u64, oneof unions)', async () => {
    const res = await new Promise<Dynamic>((resolve, reject) =>
      typed.getBlock({ blockId: fx.bytesOf(32, 101), view: BlockView.BLOCK_VIEW_STRUCTURED }, (err, r) =>
        err ? reject(err) : resolve(r),
      ),
    );
    expect(blockFromProto(res.block)).to.deep.equal(fx.blocks.transaction);
    const tips = await new Promise<{ tips: Uint8Array[] }>((resolve, reject) =>
      typed.getTips({ allowSemiLazy: false }, (e, r) => (e ? reject(e) : resolve(r))),
    );
    expect(tips.tips.map(toHex0x)).to.deep.equal(node.tips.map(toHex0x));
    const err = await failure(
      new Promise((resolve, reject) => typed.getInfo({}, (e, r) => (e ? reject(e) : resolve(r)))),
    );
    expect(parseNodeError(err)).to.include({
      code: 'UNIMPLEMENTED',
      grpcCode: GrpcStatus.UNIMPLEMENTED,
      httpStatus: 500,
    });
  });
});
