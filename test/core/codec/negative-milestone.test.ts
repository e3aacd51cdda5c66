/** Hand-made malformed milestone payloads and protocol parameters, each with its error code. */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import {
  decodeBlock,
  decodeMilestoneOption,
  decodePayload,
  decodeProtocolParameters,
  encodeBlock,
  encodePayload,
  encodeMilestoneOption,
  encodeProtocolParameters,
} from '../../../src/core/codec/index.ts';
import { SHIMMER_PROTOCOL, type MilestonePayload } from '../../../src/core/model/index.ts';
import { clone, fill, milestoneBlock, receipt } from './fixtures.ts';
import { protocolErrorCode as codeOf, protocolErrorOf as err } from '../../support/protocol-error.ts';

describe('codec: strict decoding rejects malformed data', () => {
  describe('milestone', () => {
    const block = milestoneBlock();
    const ms = block.payload as MilestonePayload;

    it('the fixture (receipt + protocol parameters options) round-trips', () => {
      expect(decodeBlock(encodeBlock(block))).to.deep.equal(block);
    });

    it('parents unsorted / 0 / 9', () => {
      const m = clone(ms);
      m.parents = [fill(32, 2), fill(32, 1)];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.parents = [];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      m.parents = Array.from({ length: 9 }, (_, i) => fill(32, i));
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
    });

    it('metadata 8193 bytes', () => {
      const m = clone(ms);
      m.metadata = fill(8193, 1);
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('LENGTH_OUT_OF_RANGE');
    });

    it('options: unsorted, duplicate, 3 options, unknown type', () => {
      const m = clone(ms);
      m.options = [m.options[1]!, m.options[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.options = [ms.options[1]!, ms.options[1]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.options = [ms.options[0]!, ms.options[1]!, ms.options[1]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeMilestoneOption(new Uint8Array([2])))).to.equal('UNKNOWN_TYPE');
    });

    it('signatures: 0, unsorted, identical, same public key twice', () => {
      const m = clone(ms);
      m.signatures = [];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      m.signatures = [ms.signatures[1]!, ms.signatures[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.signatures = [ms.signatures[0]!, ms.signatures[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.signatures = [ms.signatures[0]!, { ...ms.signatures[0]!, signature: fill(64, 0xff) }];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('DUPLICATE');
    });

    it(
      'receipt: final 2, funds 0/unsorted/duplicate tail hash, non-Ed25519 address, ' +
        'missing or wrong treasury transaction',
      () => {
        const good = encodeMilestoneOption(receipt());
        const finalAt = 1 + 4;
        const b = good.slice();
        b[finalAt] = 2;
        const e = err(() => decodeMilestoneOption(b));
        expect(e.code).to.equal('INVALID_FIELD');
        expect(e.offset).to.equal(finalAt);
        const r = receipt();
        r.funds = [];
        expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r)))).to.equal('COUNT_OUT_OF_RANGE');
        const r2 = receipt();
        r2.funds = [r2.funds[1]!, r2.funds[0]!];
        expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r2)))).to.equal('NOT_SORTED_UNIQUE');
        const r3 = receipt();
        r3.funds[1] = { ...r3.funds[1]!, tailTransactionHash: r3.funds[0]!.tailTransactionHash };
        expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r3)))).to.equal('DUPLICATE');
        const r4 = receipt();
        r4.funds[0] = { ...r4.funds[0]!, address: { type: 8, aliasId: fill(32, 1) } };
        expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r4)))).to.equal('TYPE_NOT_ALLOWED');
        // no treasury transaction: cut it off and write length 0
        const noTx = good.slice(0, good.length - 4 - 46 + 4);
        new DataView(noTx.buffer).setUint32(noTx.length - 4, 0, true);
        expect(codeOf(() => decodeMilestoneOption(noTx))).to.equal('MISSING_FIELD');
        // a tagged data payload instead of the treasury transaction
        const wrong = good.slice();
        new DataView(wrong.buffer).setUint32(good.length - 46, 5, true);
        expect(codeOf(() => decodeMilestoneOption(wrong))).to.equal('TYPE_NOT_ALLOWED');
        // treasury transaction with a UTXO input or a basic output
        const badIn = good.slice();
        badIn[good.length - 46 + 4] = 0;
        expect(codeOf(() => decodeMilestoneOption(badIn))).to.equal('TYPE_NOT_ALLOWED');
        const badOut = good.slice();
        badOut[good.length - 9] = 3;
        expect(codeOf(() => decodeMilestoneOption(badOut))).to.equal('TYPE_NOT_ALLOWED');
      },
    );

    it('protocol parameters option params 8193 bytes', () => {
      const o = { type: 1 as const, targetMilestoneIndex: 110, protocolVersion: 2, params: fill(8193, 0) };
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(o)))).to.equal('LENGTH_OUT_OF_RANGE');
    });
  });

  describe('protocol parameters', () => {
    it('round-trip of the Shimmer parameters, invalid UTF-8 rejected, BOM kept', () => {
      expect(decodeProtocolParameters(encodeProtocolParameters(SHIMMER_PROTOCOL))).to.deep.equal(SHIMMER_PROTOCOL);
      const b = encodeProtocolParameters(SHIMMER_PROTOCOL);
      b[2] = 0xff;
      expect(codeOf(() => decodeProtocolParameters(b))).to.equal('INVALID_FIELD');
      const bom = { ...SHIMMER_PROTOCOL, networkName: '\ufeffshimmer' };
      const bytes = encodeProtocolParameters(bom);
      expect(decodeProtocolParameters(bytes)).to.deep.equal(bom);
      expect(codeOf(() => decodeProtocolParameters(concatBytes(bytes, new Uint8Array([0]))))).to.equal(
        'TRAILING_BYTES',
      );
    });
  });
});
