/**
 * The NodeService through a real grpc-js server and the generated client, over the memory store: submissions in
 * the three forms with and without parents / nonce, the three read views, metadata, tips, info, and every error.
 */
import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { concatBytes, toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../../src/core/codec/index.ts';
import { blockToJson } from '../../../src/core/json/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import { BlockView, LedgerInclusionState, type NodeServiceClient } from '../../../src/grpc/gen/node.ts';
import { blockFromProto, blockToProto } from '../../../src/grpc/mapping.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { createMiner } from '../../../src/node/pow/miner.ts';
import { createPowQueue, type PowQueue } from '../../../src/node/pow/queue.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';
import { call, failure } from '../support.ts';

const MIN_SCORE = 10; // a few thousand hashes: real PoW that takes milliseconds
const enc = new TextEncoder();

function tagged(text: string, parents: Uint8Array[] = [], nonce = 0n): Block {
  return {
    protocolVersion: 2,
    parents,
    payload: { type: 5, tag: enc.encode('node-test'), data: enc.encode(text) },
    nonce,
  };
}

/** Hand-built raw block: version, parent count + parents as given (no checks), payload bytes, nonce. */
function rawBlock(version: number, parents: Uint8Array[], payload: Uint8Array, nonce = 0n): Uint8Array {
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, nonce, true);
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, payload.length, true);
  return concatBytes(Uint8Array.of(version, parents.length), ...parents, len, payload, n);
}

/** A decoded message without its unset optional fields (grpc-js leaves them as undefined keys). */
function defined<T>(v: T): T {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || Array.isArray(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => [k, defined(x)]),
  ) as T;
}

const id = (seed: number): Uint8Array => new Uint8Array(32).fill(seed);

function api(c: NodeServiceClient) {
  return {
    submitJson: (json: string) =>
      call(c, 'submitBlock', { block: { $case: 'json', value: json } }).then((r) => r.blockId),
    submitRaw: (raw: Uint8Array) =>
      call(c, 'submitBlock', { block: { $case: 'raw', value: raw } }).then((r) => r.blockId),
    submitBlock: (b: Block) =>
      call(c, 'submitBlock', { block: { $case: 'structured', value: blockToProto(b) } }).then((r) => r.blockId),
    get: (blockId: Uint8Array, view = BlockView.BLOCK_VIEW_UNSPECIFIED) => call(c, 'getBlock', { blockId, view }),
    meta: (blockId: Uint8Array) => call(c, 'getBlockMetadata', { blockId }),
    tips: () => call(c, 'getTips', { allowSemiLazy: false }).then((r) => r.tips.map(toHex0x)),
    info: () => call(c, 'getInfo', {}),
  };
}

describe('node service over gRPC', function () {
  this.timeout(20000);
  let pow: PowQueue;
  let node: TestNode;
  let a: ReturnType<typeof api>;

  before(async () => {
    pow = createPowQueue(createMiner({ workers: 1, chunk: 2048 }), { limit: 4 });
    node = await startTestNode({ minPowScore: MIN_SCORE, pow });
    a = api(node.client);
  });
  after(async () => {
    await node?.close();
    await pow?.close();
  });

  describe('submit and read back', () => {
    let first: Uint8Array;

    it('JSON without parents and nonce: the node selects the solid entry point and mines', async () => {
      first = await a.submitJson(
        JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', data: '0x02' } }),
      );
      const res = await a.get(first);
      expect(res.blockId).to.deep.equal(first);
      expect(toHex0x(blake2b(res.raw, { dkLen: 32 }))).to.equal(toHex0x(first));
      const block = decodeBlock(res.raw);
      expect(block.parents).to.deep.equal([ZERO_BLOCK_ID]);
      expect(block.nonce).to.not.equal(0n);
      expect(powScore(res.raw)).to.be.at.least(MIN_SCORE);
      const json = JSON.parse(res.json) as {
        protocolVersion: number;
        parents: string[];
        payload: { type: number; tag: string; data: string };
        nonce: string;
      };
      expect(json).to.deep.equal({
        protocolVersion: 2,
        parents: [toHex0x(ZERO_BLOCK_ID)],
        payload: { type: 5, tag: '0x01', data: '0x02' },
        nonce: block.nonce.toString(),
      });
      expect(blockFromProto(res.block)).to.deep.equal(block);
      expect(await a.tips()).to.deep.equal([toHex0x(first)]);
    });

    it('the views: raw only, JSON only, structured only', async () => {
      const raw = await a.get(first, BlockView.BLOCK_VIEW_RAW);
      expect(raw.raw.length).to.be.greaterThan(0);
      expect(raw.json).to.equal('');
      expect(raw.block).to.equal(undefined);
      const json = await a.get(first, BlockView.BLOCK_VIEW_JSON);
      expect(json.raw.length).to.equal(0);
      expect(JSON.parse(json.json)).to.deep.equal(blockToJson(decodeBlock(raw.raw)));
      const structured = await a.get(first, BlockView.BLOCK_VIEW_STRUCTURED);
      expect(structured.json).to.equal('');
      expect(blockFromProto(structured.block)).to.deep.equal(decodeBlock(raw.raw));
    });

    it('JSON with parents: [] and nonce "0" (what iota.js sends) is auto-filled too', async () => {
      const blockId = await a.submitJson(
        JSON.stringify({ protocolVersion: 2, parents: [], payload: { type: 5, tag: '0x03', data: '0x' }, nonce: '0' }),
      );
      const block = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(block.parents.map(toHex0x)).to.deep.equal([toHex0x(first)]);
      expect(await a.tips()).to.deep.equal([toHex0x(blockId)]);
      first = blockId;
    });

    it('raw with client parents and nonce 0: the parents are kept and the node mines (hornet#1727)', async () => {
      const parents = [first, id(0xee)].sort((x, y) => (toHex0x(x) < toHex0x(y) ? -1 : 1));
      const blockId = await a.submitRaw(encodeBlock(tagged('keep my parents', parents)));
      const stored = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(stored.parents).to.deep.equal(parents);
      expect(stored.nonce).to.not.equal(0n);
      // one parent is unknown: stored, but not solid, and not a tip; its known parent stays a tip
      const md = await a.meta(blockId);
      expect(md.isSolid).to.equal(false);
      expect(md.shouldPromote).to.equal(undefined);
      expect(await a.tips()).to.deep.equal([toHex0x(first)]);
    });

    it('structured without parents and nonce', async () => {
      const blockId = await a.submitBlock(tagged('structured'));
      const stored = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(stored.parents).to.deep.equal([first]);
      expect(powScore(encodeBlock(stored))).to.be.at.least(MIN_SCORE);
      first = blockId;
    });

    it('raw with a mined nonce is stored byte for byte; submitting it again is idempotent', async () => {
      const source = await a.get(first, BlockView.BLOCK_VIEW_RAW);
      const other = await startTestNode({ minPowScore: MIN_SCORE }); // no PoW on this one: the nonce is already good
      try {
        const b = api(other.client);
        // its parent is unknown there: accepted, stored unsolid
        const again = await b.submitRaw(source.raw);
        expect(again).to.deep.equal(first);
        expect((await b.get(first, BlockView.BLOCK_VIEW_RAW)).raw).to.deep.equal(source.raw);
        expect(await b.submitRaw(source.raw)).to.deep.equal(first);
        expect((await b.meta(first)).isSolid).to.equal(false);
      } finally {
        await other.close();
      }
      expect(await a.submitRaw(source.raw)).to.deep.equal(first);
    });

    it('metadata of a solid, unreferenced block', async () => {
      const md = await a.meta(first);
      const parents = decodeBlock((await a.get(first, BlockView.BLOCK_VIEW_RAW)).raw).parents;
      expect(defined(md)).to.deep.equal({
        blockId: first,
        parents,
        isSolid: true,
        ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED,
        shouldPromote: false,
        shouldReattach: false,
      });
    });

    it('GetTips returns the tip pool, sorted, at most 4', async () => {
      const tips = await a.tips();
      expect(tips).to.deep.equal([toHex0x(first)]);
    });
  });

  describe('info', () => {
    it('carries every TIP-25 InfoResponse field', async () => {
      const info = await a.info();
      expect(info.name).to.equal('ledger-node');
      expect(info.version).to.equal('9.9.9-test');
      // No milestone for years and no coordinator running: not healthy (Hornet's rule; see ledger tests for the healthy
      // case).
      const { healthReasons, ...status } = defined(info.status)!;
      expect(status).to.deep.equal({
        isHealthy: false,
        latestMilestone: { index: 0 },
        confirmedMilestone: { index: 0 },
        pruningIndex: 0,
      });
      expect(healthReasons).to.have.length(1);
      expect(healthReasons[0]).to.match(/^the latest milestone \(0\) is \d+ s old, more than the 300 s allowed$/);
      expect(info.supportedProtocolVersions).to.deep.equal([2]);
      expect(info.protocol).to.deep.equal({
        version: 2,
        networkName: 'ledger-dev',
        bech32Hrp: 'rms',
        minPowScore: MIN_SCORE,
        belowMaxDepth: 15,
        rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
        tokenSupply: 1813620509061365n,
      });
      expect(info.pendingProtocolParameters).to.deep.equal([]);
      expect(info.baseToken).to.deep.equal({
        name: 'Ledger Dev Token',
        tickerSymbol: 'LDT',
        unit: 'LDT',
        subunit: 'glow',
        decimals: 6,
        useMetricPrefix: false,
      });
      expect(info.metrics).to.have.keys(['blocksPerSecond', 'referencedBlocksPerSecond', 'referencedRate']);
      expect(info.metrics!.blocksPerSecond).to.be.a('number').and.at.least(0);
      expect(info.features).to.deep.equal(['pow']);
    });

    it('has no "pow" feature when PoW is off', async () => {
      const other = await startTestNode({ minPowScore: MIN_SCORE });
      try {
        expect((await api(other.client).info()).features).to.deep.equal([]);
      } finally {
        await other.close();
      }
    });
  });

  describe('errors', () => {
    const c = () => node.client;

    it('malformed JSON -> INVALID_ARGUMENT INVALID_JSON with the parser message', async () => {
      const e = await failure(a.submitJson('{"protocolVersion":2,'));
      expect(e.grpcCode).to.equal(GrpcStatus.INVALID_ARGUMENT);
      expect(e.code).to.equal('INVALID_JSON');
      expect(e.message).to.match(/^invalid block JSON: /);
    });

    it('bad hex in a JSON parent -> INVALID_HEX naming the path', async () => {
      const e = await failure(
        a.submitJson(JSON.stringify({ protocolVersion: 2, parents: ['0xzz' + '00'.repeat(31)] })),
      );
      expect([e.grpcCode, e.code, e.field]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_HEX', 'parents[0]']);
    });

    it('wrong ID lengths -> INVALID_ARGUMENT (v2 32 bytes, v3 36 bytes)', async () => {
      for (const p of [
        a.get(new Uint8Array(31)),
        a.meta(new Uint8Array(33)),
        call(c(), 'getIncludedBlock', { transactionId: new Uint8Array(36), view: 0 }),
        call(c(), 'getIncludedBlockMetadata', { transactionId: new Uint8Array(0), view: 0 }),
        call(c(), 'getIncludedBlockV3', { transactionId: new Uint8Array(32), view: 0 }),
      ]) {
        const e = await failure(p);
        expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_REQUEST']);
      }
    });

    it('unknown block -> NOT_FOUND; unincluded transaction -> NOT_FOUND "transaction not included"', async () => {
      for (const p of [a.get(id(7)), a.meta(id(7))]) {
        const e = await failure(p);
        expect([e.grpcCode, e.code, e.message]).to.deep.equal([
          GrpcStatus.NOT_FOUND,
          'NOT_FOUND',
          `block not found: ${toHex0x(id(7))}`,
        ]);
      }
      for (const p of [
        call(c(), 'getIncludedBlock', { transactionId: id(8), view: 0 }),
        call(c(), 'getIncludedBlockMetadata', { transactionId: id(8), view: 0 }),
        call(c(), 'getIncludedBlockV3', { transactionId: new Uint8Array(36).fill(8), view: 0 }),
      ]) {
        const e = await failure(p);
        expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.NOT_FOUND, 'NOT_FOUND']);
        expect(e.message).to.match(
          /^transaction not included: 0x(08){32,36} \(unknown, or not confirmed by a milestone yet\)$/,
        );
      }
    });

    it('the included-block lookup is real: a booked transaction answers with its block', async () => {
      const blockId = await a.submitBlock(tagged('pretend transaction'));
      await node.store.batch().setIncludedBlock(id(9), blockId).commit();
      const res = await call(c(), 'getIncludedBlock', { transactionId: id(9), view: BlockView.BLOCK_VIEW_RAW });
      expect(res.blockId).to.deep.equal(blockId);
      expect(toHex0x(blake2b(res.raw, { dkLen: 32 }))).to.equal(toHex0x(blockId));
      const md = await call(c(), 'getIncludedBlockMetadata', { transactionId: id(9), view: 0 });
      expect(md.blockId).to.deep.equal(blockId);
    });

    it('unknown payload type (binary 9, JSON 1) -> UNKNOWN_TYPE', async () => {
      const e1 = await failure(a.submitRaw(rawBlock(2, [id(1)], Uint8Array.of(9, 0, 0, 0))));
      expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'UNKNOWN_TYPE']);
      const e2 = await failure(a.submitJson(JSON.stringify({ protocolVersion: 2, payload: { type: 1 } })));
      expect(e2.grpcCode).to.equal(GrpcStatus.INVALID_ARGUMENT);
      expect(e2.code).to.be.oneOf(['UNKNOWN_TYPE', 'TYPE_NOT_ALLOWED']);
    });

    it('too many parents, unsorted parents -> INVALID_ARGUMENT', async () => {
      const nine = Array.from({ length: 9 }, (_, i) => id(i + 1));
      const e1 = await failure(a.submitRaw(rawBlock(2, nine, new Uint8Array(0))));
      expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'COUNT_OUT_OF_RANGE']);
      const e2 = await failure(a.submitRaw(rawBlock(2, [id(2), id(1)], new Uint8Array(0))));
      expect([e2.grpcCode, e2.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'NOT_SORTED_UNIQUE']);
      const e3 = await failure(a.submitBlock(tagged('unsorted', [id(2), id(1)])));
      expect([e3.grpcCode, e3.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'NOT_SORTED_UNIQUE']);
    });

    it('a block over 32768 bytes -> BLOCK_TOO_LARGE (binary and JSON)', async () => {
      const big = rawBlock(2, [id(1)], new Uint8Array(32768));
      const e1 = await failure(a.submitRaw(big));
      expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'BLOCK_TOO_LARGE']);
      const data = '0x' + '00'.repeat(32760);
      const e2 = await failure(
        a.submitJson(
          JSON.stringify({ protocolVersion: 2, parents: [toHex0x(id(1))], payload: { type: 5, tag: '0x', data } }),
        ),
      );
      expect(e2.grpcCode).to.equal(GrpcStatus.INVALID_ARGUMENT);
      expect(e2.code).to.be.oneOf(['BLOCK_TOO_LARGE', 'LENGTH_OUT_OF_RANGE']);
    });

    it('wrong protocol version -> PROTOCOL_VERSION_MISMATCH before any work', async () => {
      const e = await failure(
        a.submitJson(JSON.stringify({ protocolVersion: 3, payload: { type: 5, tag: '0x', data: '0x' } })),
      );
      expect([e.grpcCode, e.code, e.field]).to.deep.equal([
        GrpcStatus.INVALID_ARGUMENT,
        'PROTOCOL_VERSION_MISMATCH',
        'protocolVersion',
      ]);
    });

    it('no parents but a nonce -> INVALID_NONCE', async () => {
      const e = await failure(a.submitJson(JSON.stringify({ protocolVersion: 2, nonce: '5' })));
      expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_NONCE']);
    });

    it('a client nonce below the min PoW score -> POW_SCORE_TOO_LOW', async () => {
      const tip = (await a.tips()).map((h) => Uint8Array.from(Buffer.from(h.slice(2), 'hex')));
      let nonce = 1n;
      while (powScore(encodeBlock(tagged('weak', tip, nonce))) >= MIN_SCORE) nonce++;
      const e = await failure(a.submitBlock(tagged('weak', tip, nonce)));
      expect([e.grpcCode, e.code, e.field]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'POW_SCORE_TOO_LOW', 'nonce']);
    });

    it('an empty request and an empty raw body -> INVALID_ARGUMENT', async () => {
      const e1 = await failure(call(c(), 'submitBlock', { block: undefined }));
      expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_REQUEST']);
      const e2 = await failure(a.submitRaw(new Uint8Array(0)));
      expect([e2.grpcCode, e2.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_REQUEST']);
    });

    it('PoW disabled -> UNAVAILABLE with the phrase the SDK looks for (no parents, and parents with nonce 0)', async () => {
      const other = await startTestNode({ minPowScore: 1000 });
      try {
        const b = api(other.client);
        const e1 = await failure(
          b.submitJson(JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x', data: '0x' } })),
        );
        expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.UNAVAILABLE, 'POW_UNAVAILABLE']);
        expect(e1.message).to.contain('proof of work is not available on this node');
        const e2 = await failure(b.submitBlock(tagged('no pow here', [ZERO_BLOCK_ID])));
        expect([e2.grpcCode, e2.code]).to.deep.equal([GrpcStatus.UNAVAILABLE, 'POW_UNAVAILABLE']);
        expect(e2.message).to.contain('proof of work is not available on this node');
      } finally {
        await other.close();
      }
    });

    it('v3 included-block refuses the structured view', async () => {
      const e = await failure(
        call(c(), 'getIncludedBlockV3', { transactionId: new Uint8Array(36), view: BlockView.BLOCK_VIEW_STRUCTURED }),
      );
      expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.INVALID_ARGUMENT, 'INVALID_REQUEST']);
    });

    it('an unexpected failure (the store is gone) answers INTERNAL, logs the stack, and the server keeps serving', async () => {
      const other = await startTestNode({ minPowScore: 0 });
      try {
        await other.store.close();
        const e = await failure(api(other.client).get(id(1)));
        expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.INTERNAL, 'INTERNAL']);
        expect(e.message).to.match(/^GetBlock failed: Cannot use the .*store/);
        const logged = other.logger.lines.filter((l) => l.startsWith('ERROR GetBlock failed unexpectedly'));
        expect(logged).to.have.length(1);
        expect(logged[0]).to.match(/StoreError: Cannot use the .*store[\s\S]*\n\s+at /);
        expect((await failure(api(other.client).meta(id(1)))).code).to.equal('INTERNAL'); // still answering
      } finally {
        await other.close();
      }
    });

    it('no tips -> UNAVAILABLE NO_TIPS (submit without parents, and GetTips)', async () => {
      const other = await startTestNode({ minPowScore: 0, noTips: true });
      try {
        const b = api(other.client);
        const e1 = await failure(b.submitBlock(tagged('nowhere to attach')));
        expect([e1.grpcCode, e1.code]).to.deep.equal([GrpcStatus.UNAVAILABLE, 'NO_TIPS']);
        expect(e1.message).to.contain('no tips available');
        const e2 = await failure(b.tips());
        expect([e2.grpcCode, e2.code]).to.deep.equal([GrpcStatus.UNAVAILABLE, 'NO_TIPS']);
      } finally {
        await other.close();
      }
    });
  });
});
