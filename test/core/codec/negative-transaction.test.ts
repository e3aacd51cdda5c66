/** Hand-made malformed transaction payloads: essence, inputs, outputs, payload and unlocks, each with its code. */
import { expect } from 'chai';
import {
  decodePayload,
  decodeTransactionEssence,
  decodeUnlock,
  encodePayload,
  encodeTransactionEssence,
} from '../../../src/core/codec/index.ts';
import { basicOutput, clone, transaction } from './fixtures.ts';
import { protocolErrorCode as codeOf, protocolErrorOf as err } from '../../support/protocol-error.ts';

describe('codec: strict decoding rejects malformed data', () => {
  describe('transaction', () => {
    const tx = transaction();
    const essenceAt = 4;
    const firstOutputAt = 4 + 1 + 8 + 2 + 2 * 35 + 32 + 2;

    it('the fixture decodes back to itself', () => {
      expect(decodePayload(encodePayload(tx))).to.deep.equal(tx);
    });

    it('unknown essence type', () => {
      const b = encodePayload(tx);
      b[essenceAt] = 2;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
    });

    it('treasury input in an essence is TYPE_NOT_ALLOWED; unknown input type is UNKNOWN_TYPE', () => {
      const b = encodePayload(tx);
      b[essenceAt + 1 + 8 + 2] = 1;
      expect(codeOf(() => decodePayload(b))).to.equal('TYPE_NOT_ALLOWED');
      b[essenceAt + 1 + 8 + 2] = 7;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
    });

    it('input output index 128 is VALUE_OUT_OF_RANGE inside an essence (a standalone input takes any u16)', () => {
      const t = clone(tx);
      t.essence.inputs[1]!.transactionOutputIndex = 128;
      const e = err(() => decodePayload(encodePayload(t)));
      expect(e.code).to.equal('VALUE_OUT_OF_RANGE');
      expect(e.offset).to.equal(4 + 1 + 8 + 2 + 35 + 33);
      t.essence.inputs[1]!.transactionOutputIndex = 127;
      expect(decodePayload(encodePayload(t))).to.deep.equal(t);
    });

    it('duplicate inputs are DUPLICATE', () => {
      const t = clone(tx);
      t.essence.inputs[1]!.transactionOutputIndex = 0;
      expect(codeOf(() => decodePayload(encodePayload(t)))).to.equal('DUPLICATE');
    });

    it('input and output counts 0 and 129', () => {
      const t = clone(tx);
      t.essence.inputs = [];
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(t.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      const u = clone(tx);
      u.essence.outputs = Array.from({ length: 129 }, () => basicOutput());
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(u.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      u.essence.outputs = [];
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(u.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
    });

    it('output types in an essence: 2 not allowed, 0/1/7 unknown', () => {
      for (const [t, code] of [
        [2, 'TYPE_NOT_ALLOWED'],
        [0, 'UNKNOWN_TYPE'],
        [1, 'UNKNOWN_TYPE'],
        [7, 'UNKNOWN_TYPE'],
      ] as const) {
        const b = encodePayload(tx);
        b[firstOutputAt] = t;
        const e = err(() => decodePayload(b));
        expect(e.code, `type ${t}`).to.equal(code);
        expect(e.offset).to.equal(firstOutputAt);
      }
    });

    it('essence payload: only tagged data (6, 7 and 4 not allowed)', () => {
      for (const t of [4, 6, 7]) {
        const b = encodeTransactionEssence(tx.essence);
        const payloadTypeAt = b.length - (4 + 1 + 1 + 4 + 1);
        new DataView(b.buffer).setUint32(payloadTypeAt, t, true);
        expect(
          codeOf(() => decodeTransactionEssence(b)),
          `type ${t}`,
        ).to.equal('TYPE_NOT_ALLOWED');
      }
    });

    it('unknown unlock and signature types; zero unlocks', () => {
      const b = encodePayload(tx);
      const unlocksAt = b.length - (2 + 98 + 3);
      b[unlocksAt + 2] = 4;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
      const c = encodePayload(tx);
      c[unlocksAt + 3] = 1;
      expect(codeOf(() => decodePayload(c))).to.equal('UNKNOWN_TYPE');
      const t = clone(tx);
      t.unlocks = [];
      expect(codeOf(() => decodePayload(encodePayload(t)))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeUnlock(new Uint8Array([9, 0, 0])))).to.equal('UNKNOWN_TYPE');
    });
  });
});
