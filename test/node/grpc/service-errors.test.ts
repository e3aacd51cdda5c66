/**
 * The NodeService's errors through a real grpc-js server and the generated client (support.ts): every refusal of a
 * submission with its status, code and field, unknown blocks and transactions, PoW off, no tips, and an unexpected
 * failure answered INTERNAL while the server keeps serving.
 */
import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { startTestNode } from '../../../harness/node.ts';
import { call, failure } from '../support.ts';
import { api, id, MIN_SCORE, nodeWithPow, rawBlock, tagged } from './support.ts';

describe('node service over gRPC', function () {
  this.timeout(20000);
  const served = nodeWithPow();
  const a = api(() => served.node.client);

  describe('errors', () => {
    const c = () => served.node.client;

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
      await served.node.store.batch().setIncludedBlock(id(9), blockId).commit();
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

    it("PoW disabled -> UNAVAILABLE with the SDK's phrase (no parents, and parents with nonce 0)", async () => {
      const other = await startTestNode({ minPowScore: 1000 });
      try {
        const b = api(() => other.client);
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

    it('an unexpected failure (store gone) answers INTERNAL, logs the stack, the server keeps serving', async () => {
      const other = await startTestNode({ minPowScore: 0 });
      try {
        await other.store.close();
        const e = await failure(api(() => other.client).get(id(1)));
        expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.INTERNAL, 'INTERNAL']);
        expect(e.message).to.match(/^GetBlock failed: Cannot use the .*store/);
        const logged = other.logger.lines.filter((l) => l.startsWith('ERROR GetBlock failed unexpectedly'));
        expect(logged).to.have.length(1);
        expect(logged[0]).to.match(/StoreError: Cannot use the .*store[\s\S]*\n\s+at /);
        expect((await failure(api(() => other.client).meta(id(1)))).code).to.equal('INTERNAL'); // still answering
      } finally {
        await other.close();
      }
    });

    it('no tips -> UNAVAILABLE NO_TIPS (submit without parents, and GetTips)', async () => {
      const other = await startTestNode({ minPowScore: 0, noTips: true });
      try {
        const b = api(() => other.client);
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
