import { expect } from 'chai';
import { fromHex, toHex, toHex0x } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  aliasIdFromOutputId,
  blockId,
  foundryId,
  inputsCommitment,
  milestoneIdFromEssence,
  networkIdFromName,
  nftIdFromOutputId,
  outputId,
  parseOutputId,
  transactionId,
} from '../../../src/core/ids/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { sliceBlock, sliceMilestone } from './slice.ts';

const networkid = loadVectors('stardust/networkid.json');
const outputs = loadVectors('stardust/outputs.json');
const blocks = loadVectors('stardust/blocks.json');
const milestones = loadVectors('stardust/milestones.json');
const transactions = loadVectors('stardust/transactions.json');

describe('ids', () => {
  describe('networkIdFromName (networkid.json)', () => {
    for (const v of networkid.vectors) {
      const name: string = v.networkName ?? v.derived.nameThatHashesToThisId;
      it(`${name} -> ${v.networkId}`, () => expect(networkIdFromName(name).toString()).to.equal(v.networkId));
    }
    it('hashes the name alone, not name + protocol version (docs/decisions.md §18)', () => {
      expect(networkIdFromName('shimmer2').toString()).to.not.equal('14364762045254553490');
    });
  });

  describe('outputId / parseOutputId (outputs.json)', () => {
    const good = outputs.outputIds[0];
    const bad = outputs.outputIds[1];

    it('builds tx ID ‖ u16 LE index', () => {
      expect(toHex0x(outputId(fromHex(good.transactionId), good.index))).to.equal(good.outputId);
      expect(toHex(outputId(new Uint8Array(32), 127)).slice(-4)).to.equal('7f00');
    });

    it('parses bytes and 0x hex', () => {
      for (const input of [good.outputId, fromHex(good.outputId)]) {
        const p = parseOutputId(input);
        expect(toHex0x(p.transactionId)).to.equal(good.transactionId);
        expect(p.index).to.equal(good.index);
      }
    });

    it('rejects index 128 (the sdk negative vector) and any index > 127 (VALUE_OUT_OF_RANGE)', () => {
      expect(() => parseOutputId(bad.outputIdInvalid))
        .to.throw(ProtocolError, /128/)
        .with.property('code', 'VALUE_OUT_OF_RANGE');
      expect(() => parseOutputId(fromHex(good.outputId.slice(0, -4) + 'ffff')))
        .to.throw(ProtocolError)
        .with.property('code', 'VALUE_OUT_OF_RANGE');
      for (const i of [128, 65535, -1, 1.5]) {
        expect(() => outputId(new Uint8Array(32), i), String(i))
          .to.throw(ProtocolError)
          .with.property('code', 'VALUE_OUT_OF_RANGE');
      }
    });

    it('rejects a wrong length (LENGTH_OUT_OF_RANGE), bad hex and a missing 0x (INVALID_HEX)', () => {
      expect(() => parseOutputId(good.outputId.slice(0, -2)))
        .to.throw(ProtocolError)
        .with.property('code', 'LENGTH_OUT_OF_RANGE');
      expect(() => parseOutputId(new Uint8Array(35)))
        .to.throw(ProtocolError)
        .with.property('code', 'LENGTH_OUT_OF_RANGE');
      expect(() => parseOutputId(good.outputId.slice(2)))
        .to.throw(ProtocolError)
        .with.property('code', 'INVALID_HEX');
      expect(() => parseOutputId('0x' + 'zz'.repeat(34)))
        .to.throw(ProtocolError)
        .with.property('code', 'INVALID_HEX');
      expect(() => outputId(new Uint8Array(31), 0)).to.throw(RangeError);
    });
  });

  describe('chain IDs (outputs.json)', () => {
    it('alias ID and NFT ID = BLAKE2b-256(output ID)', () => {
      for (const v of outputs.aliasIdFromOutputId) {
        expect(toHex0x(aliasIdFromOutputId(fromHex(v.outputId)))).to.equal(v.aliasId);
        expect(toHex0x(nftIdFromOutputId(fromHex(v.outputId)))).to.equal(v.aliasId);
      }
      expect(() => aliasIdFromOutputId(new Uint8Array(32))).to.throw(RangeError);
    });

    it('foundry ID = 0x08 ‖ alias ID ‖ serial u32 LE ‖ scheme type', () => {
      expect(outputs.foundryIds).to.have.length(2);
      for (const v of outputs.foundryIds) {
        const id = foundryId(fromHex(v.aliasId), v.serialNumber, v.tokenSchemeType);
        expect(id.length).to.equal(38);
        expect(toHex0x(id)).to.equal(v.foundryId);
      }
      expect(toHex(foundryId(new Uint8Array(32), 0x01020304, 0)).slice(-10)).to.equal('0403020100');
      expect(() => foundryId(new Uint8Array(32), 2 ** 32, 0)).to.throw(RangeError);
    });
  });

  describe('blocks.json', () => {
    for (const v of blocks.vectors) {
      it(`${v.name}: block ID, and the tx / milestone ID of its payload`, () => {
        const bytes = fromHex(v.bytes);
        expect(toHex0x(blockId(bytes))).to.equal(v.derived.blockId);
        if (v.blockId) expect(toHex0x(blockId(bytes))).to.equal(v.blockId); // node-assigned ID (real Shimmer blocks)
        const { payload, payloadType } = sliceBlock(bytes);
        if (v.derived.transactionId) {
          expect(payloadType).to.equal(6);
          expect(toHex0x(transactionId(payload!))).to.equal(v.derived.transactionId);
        }
        if (v.derived.milestoneId) {
          expect(payloadType).to.equal(7);
          const { essence } = sliceMilestone(payload!);
          expect(toHex(essence)).to.equal(v.derived.milestoneEssenceHex);
          expect(toHex0x(milestoneIdFromEssence(essence))).to.equal(v.derived.milestoneId);
        }
      });
    }
    it('covers 9 blocks, 3 of them with node-assigned IDs', () => {
      expect(blocks.vectors).to.have.length(9);
      expect(blocks.vectors.filter((v: { blockId?: string }) => v.blockId)).to.have.length(3);
    });
  });

  describe('milestones.json', () => {
    it('iota.js milestoneHelper: milestone ID and block ID reproduce the source', () => {
      const v = milestones.vectors[0];
      expect(toHex0x(milestoneIdFromEssence(fromHex(v.derived.essenceHex)))).to.equal(v.milestoneId);
      expect(toHex0x(blockId(fromHex(v.derived.blockHex)))).to.equal(v.blockIdOfBlockWithProtocolVersion2AndNonce0);
      // the block carries exactly that essence
      const { payload } = sliceBlock(v.derived.blockHex);
      expect(toHex(sliceMilestone(payload!).essence)).to.equal(v.derived.essenceHex);
    });

    for (const v of milestones.vectors.slice(1)) {
      it(`${v.name}: milestone ID of the payload's essence`, () => {
        const payload = fromHex(v.payloadBytes);
        const { essence } = sliceMilestone(payload);
        expect(toHex(essence)).to.equal(v.derived.essenceHex);
        expect(toHex0x(milestoneIdFromEssence(essence))).to.equal(v.derived.milestoneId);
      });
    }
  });

  describe('transactionId / inputsCommitment (transactions.json)', () => {
    it('iota-sdk signed transaction: transaction ID of the payload bytes', () => {
      const v = transactions.vectors[0];
      expect(toHex0x(transactionId(fromHex(v.derived.transactionPayloadHex)))).to.equal(v.derived.transactionId);
    });

    it('iota-sdk prepared transaction: the inputs commitment of the consumed output bytes is the essence field', () => {
      const v = transactions.vectors[1];
      const c = inputsCommitment([fromHex(v.derived.inputOutputHex)]);
      expect(toHex0x(c)).to.equal(v.essenceJson.inputsCommitment);
      expect(toHex0x(c)).to.equal(v.derived.inputsCommitmentRecomputed);
    });

    it('refuses bytes that still carry the block payload-length prefix', () => {
      const v = transactions.vectors[0];
      const p = fromHex(v.derived.transactionPayloadHex);
      const withPrefix = new Uint8Array(p.length + 4);
      new DataView(withPrefix.buffer).setUint32(0, p.length, true);
      withPrefix.set(p, 4);
      expect(() => transactionId(withPrefix)).to.throw(RangeError, /06000000/);
    });

    it('inputs commitment of no outputs is BLAKE2b-256 of the empty string; order matters', () => {
      expect(toHex(inputsCommitment([]))).to.equal('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
      const a = fromHex('01');
      const b = fromHex('02');
      expect(toHex(inputsCommitment([a, b]))).to.not.equal(toHex(inputsCommitment([b, a])));
    });
  });
});
