/** Hand-made malformed blocks: truncation, trailing bytes, parents, payload kinds and lengths, single objects. */
import { expect } from 'chai';
import { loadVectors } from '../../../harness/vectors.ts';
import { concatBytes, fromHex } from '../../../src/core/bytes.ts';
import {
  decodeAddress,
  decodeBlock,
  decodeInput,
  decodeOutput,
  decodeSignature,
  encodeBlock,
  encodeOutput,
  encodePayload,
} from '../../../src/core/codec/index.ts';
import type { Block, TransactionPayload } from '../../../src/core/model/index.ts';
import {
  aliasOutput,
  basicOutput,
  fill,
  milestoneBlock,
  receipt,
  taggedBlock,
  transaction,
  txBlock,
} from './fixtures.ts';
import { protocolErrorCode as codeOf, protocolErrorOf as err } from '../../support/protocol-error.ts';

const realBlocks = loadVectors('stardust/blocks.json').vectors.map((v: { bytes: string }) => fromHex(v.bytes));

describe('codec: strict decoding rejects malformed data', () => {
  describe('truncation and trailing bytes', () => {
    it('every proper prefix of every real block throws a ProtocolError (never anything else)', () => {
      let n = 0;
      for (const bytes of realBlocks) {
        for (let len = 0; len < bytes.length; len++) {
          const e = err(() => decodeBlock(bytes.subarray(0, len)));
          expect(['TRUNCATED', 'PAYLOAD_LENGTH_MISMATCH', 'COUNT_OUT_OF_RANGE', 'LENGTH_OUT_OF_RANGE']).to.include(
            e.code,
          );
          n++;
        }
      }
      expect(n).to.be.greaterThan(3000);
    });

    it('a trailing byte after the nonce', () => {
      const e = err(() => decodeBlock(concatBytes(realBlocks[0], new Uint8Array([0]))));
      expect(e.code).to.equal('TRAILING_BYTES');
      expect(e.message).to.match(/^Cannot decode block: 1 trailing byte at offset 102$/);
      expect(e.offset).to.equal(102);
    });

    it('a trailing byte after a single object', () => {
      expect(codeOf(() => decodeOutput(concatBytes(encodeOutput(basicOutput()), new Uint8Array([0]))))).to.equal(
        'TRAILING_BYTES',
      );
      expect(codeOf(() => decodeAddress(fill(34, 0)))).to.equal('TRAILING_BYTES');
    });

    it('truncated single objects', () => {
      expect(codeOf(() => decodeAddress(fill(32, 0)))).to.equal('TRUNCATED');
      expect(codeOf(() => decodeSignature(fill(96, 0)))).to.equal('TRUNCATED');
      const e = err(() => decodeOutput(encodeOutput(aliasOutput()).subarray(0, 20)));
      expect(e.code).to.equal('TRUNCATED');
      expect(e.message).to.contain('at offset');
    });
  });

  describe('block', () => {
    it('oversize block (BLOCK_TOO_LARGE) before anything else', () => {
      expect(codeOf(() => decodeBlock(new Uint8Array(32769)))).to.equal('BLOCK_TOO_LARGE');
      // exactly 32768 bytes is fine
      const data = new Uint8Array(32768 - 46 - 4 - 1 - 4);
      const bytes = encodeBlock(taggedBlock(new Uint8Array(0), data));
      expect(bytes.length).to.equal(32768);
      expect(decodeBlock(bytes).payload).to.have.property('type', 5);
    });

    it('parents: 0 (unless allowNoParents), 9, unsorted, duplicate', () => {
      const b = taggedBlock();
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: [] })))).to.equal('COUNT_OUT_OF_RANGE');
      expect(decodeBlock(encodeBlock({ ...b, parents: [] }), { allowNoParents: true }).parents).to.deep.equal([]);
      const nine = Array.from({ length: 9 }, (_, i) => fill(32, i + 1));
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: nine })))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: nine }), { allowNoParents: true }))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      expect(decodeBlock(encodeBlock({ ...b, parents: nine.slice(0, 8) })).parents).to.have.length(8);
      const e = err(() => decodeBlock(encodeBlock({ ...b, parents: [fill(32, 2), fill(32, 1)] })));
      expect(e.code).to.equal('NOT_SORTED_UNIQUE');
      expect(e.offset).to.equal(34);
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: [fill(32, 2), fill(32, 2)] })))).to.equal(
        'NOT_SORTED_UNIQUE',
      );
    });

    it('payload types: 4 not allowed, 0-3 and 8 unknown, 5/6/7 accepted', () => {
      const base = encodeBlock(taggedBlock());
      const typeAt = 1 + 1 + 32 + 4;
      for (const [t, code] of [
        [4, 'TYPE_NOT_ALLOWED'],
        [0, 'UNKNOWN_TYPE'],
        [1, 'UNKNOWN_TYPE'],
        [2, 'UNKNOWN_TYPE'],
        [3, 'UNKNOWN_TYPE'],
        [8, 'UNKNOWN_TYPE'],
        [0x100, 'UNKNOWN_TYPE'],
      ] as const) {
        const bytes = base.slice();
        new DataView(bytes.buffer).setUint32(typeAt, t, true);
        expect(
          codeOf(() => decodeBlock(bytes)),
          `type ${t}`,
        ).to.equal(code);
      }
      expect(decodeBlock(encodeBlock(txBlock())).payload?.type).to.equal(6);
      expect(decodeBlock(encodeBlock(milestoneBlock())).payload?.type).to.equal(7);
    });

    it('a treasury transaction as block payload is TYPE_NOT_ALLOWED', () => {
      const tt = receipt().transaction;
      const b = { protocolVersion: 2, parents: [fill(32, 1)], payload: tt, nonce: 0n } as unknown as Block;
      expect(codeOf(() => decodeBlock(encodeBlock(b)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('payload length prefix too small, too large, beyond the end', () => {
      const base = encodeBlock(taggedBlock());
      const lenAt = 1 + 1 + 32;
      const dv = (b: Uint8Array) => new DataView(b.buffer);
      const len = dv(base).getUint32(lenAt, true);
      const small = base.slice();
      dv(small).setUint32(lenAt, len - 1, true);
      expect(codeOf(() => decodeBlock(small))).to.equal('PAYLOAD_LENGTH_MISMATCH');
      const large = base.slice();
      dv(large).setUint32(lenAt, len + 1, true);
      expect(codeOf(() => decodeBlock(large))).to.equal('PAYLOAD_LENGTH_MISMATCH');
      const huge = base.slice();
      dv(huge).setUint32(lenAt, 100000, true);
      expect(codeOf(() => decodeBlock(huge))).to.equal('TRUNCATED');
    });
  });

  describe('tagged data', () => {
    it('tag of 65 bytes is LENGTH_OUT_OF_RANGE; 64 is fine', () => {
      expect(decodeBlock(encodeBlock(taggedBlock(fill(64, 1)))).payload).to.have.property('type', 5);
      const e = err(() => decodeBlock(encodeBlock(taggedBlock(fill(65, 1)))));
      expect(e.code).to.equal('LENGTH_OUT_OF_RANGE');
      expect(e.message).to.contain('65');
    });
  });

  describe('single objects', () => {
    it('unknown input type', () => {
      expect(codeOf(() => decodeInput(new Uint8Array([2, ...fill(34, 0)])))).to.equal('UNKNOWN_TYPE');
    });
    it('messages name the subject, the problem and the offset', () => {
      const e = err(() => decodeOutput(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 0])));
      expect(e.message).to.equal('Cannot decode output: unknown output type 9 at offset 0');
      expect(e.value).to.equal('9');
    });
  });

  it('encoders refuse malformed models with RangeError (programming mistakes), never silently', () => {
    const b: Block = { ...taggedBlock(), parents: [fill(31, 1)] };
    expect(() => encodeBlock(b)).to.throw(RangeError);
    const t = transaction() as TransactionPayload;
    (t.essence.outputs[0] as { type: number }).type = 9;
    expect(() => encodePayload(t)).to.throw(RangeError);
  });
});
