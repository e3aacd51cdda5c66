import { expect } from 'chai';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  decodeBlockMetadata,
  decodeMilestoneRecord,
  encodeBlockMetadata,
  encodeMilestoneRecord,
  type BlockMetadata,
} from '../../../src/core/store/index.ts';

function decodeFails(hex: string, code: string, field: string, offset: number): void {
  try {
    decodeBlockMetadata(fromHex(hex));
  } catch (e) {
    expect(e).to.be.instanceOf(ProtocolError);
    expect((e as ProtocolError).code).to.equal(code);
    expect((e as ProtocolError).field).to.equal(field);
    expect((e as ProtocolError).offset).to.equal(offset);
    expect((e as ProtocolError).message).to.match(/^Cannot decode block metadata: .* at offset \d+$/);
    return;
  }
  expect.fail(`decoding ${hex} should fail with ${code}`);
}

describe('store records', () => {
  describe('block metadata', () => {
    const samples: [string, BlockMetadata][] = [
      ['new, unsolid', { protocolVersion: 2, solid: false, arrivalTime: 0 }],
      ['solid v3', { protocolVersion: 3, solid: true, arrivalTime: 1_700_000_000_000 }],
      [
        'included',
        {
          protocolVersion: 2,
          solid: true,
          arrivalTime: 5,
          referenced: { milestoneIndex: 7, whiteFlagIndex: 42, ledgerInclusionState: 'included', conflictReason: 0 },
        },
      ],
      [
        'conflicting 255',
        {
          protocolVersion: 2,
          solid: true,
          arrivalTime: 5,
          referenced: {
            milestoneIndex: 0xffffffff,
            whiteFlagIndex: 0,
            ledgerInclusionState: 'conflicting',
            conflictReason: 255,
          },
        },
      ],
      [
        'milestone block',
        {
          protocolVersion: 2,
          solid: true,
          arrivalTime: Number.MAX_SAFE_INTEGER,
          milestoneIndex: 17340,
          referenced: {
            milestoneIndex: 17341,
            whiteFlagIndex: 37,
            ledgerInclusionState: 'noTransaction',
            conflictReason: 0,
          },
        },
      ],
      [
        'milestone 0 is still a milestone flag',
        { protocolVersion: 2, solid: false, arrivalTime: 1, milestoneIndex: 0 },
      ],
    ];
    for (const [label, m] of samples) {
      it(`round-trips: ${label}`, () => {
        const bytes = encodeBlockMetadata(m);
        expect(bytes.length).to.equal(25);
        expect(decodeBlockMetadata(bytes)).to.deep.equal(m);
        expect(toHex(encodeBlockMetadata(decodeBlockMetadata(bytes)))).to.equal(toHex(bytes));
      });
    }

    it('has the documented byte layout', () => {
      const bytes = encodeBlockMetadata({
        protocolVersion: 2,
        solid: true,
        arrivalTime: 0x0102030405,
        milestoneIndex: 0x0a0b0c0d,
        referenced: {
          milestoneIndex: 0x11223344,
          whiteFlagIndex: 0x55667788,
          ledgerInclusionState: 'conflicting',
          conflictReason: 9,
        },
      });
      expect(toHex(bytes)).to.equal(
        '01' + '02' + '07' + '0504030201000000' + '44332211' + '88776655' + '02' + '09' + '0d0c0b0a',
      );
    });

    it('writes version 2 only with cone root indexes, at the documented offsets', () => {
      const bytes = encodeBlockMetadata({
        protocolVersion: 2,
        solid: true,
        arrivalTime: 1,
        coneRoots: { ycri: 0x01020304, ocri: 0x05060708, ci: 0x090a0b0c },
      });
      expect(bytes.length).to.equal(37);
      expect(toHex(bytes.subarray(0, 3))).to.equal('020209');
      expect(toHex(bytes.subarray(25))).to.equal('04030201' + '08070605' + '0c0b0a09');
      expect(encodeBlockMetadata({ protocolVersion: 2, solid: true, arrivalTime: 1 })[0]).to.equal(1);
      const m: BlockMetadata = {
        protocolVersion: 2,
        solid: true,
        arrivalTime: 3,
        coneRoots: { ycri: 9, ocri: 0, ci: 0xffffffff },
      };
      expect(decodeBlockMetadata(encodeBlockMetadata(m))).to.deep.equal(m);
      decodeFails(toHex(encodeBlockMetadata(m)).slice(0, 70), 'TRUNCATED', 'coneRoots.ci', 33);
    });

    it('reads a newer version: known fields kept, unknown flags and appended fields ignored', () => {
      const v1 = encodeBlockMetadata({
        protocolVersion: 2,
        solid: true,
        arrivalTime: 9,
        referenced: { milestoneIndex: 3, whiteFlagIndex: 1, ledgerInclusionState: 'included', conflictReason: 0 },
      });
      const v3 = Uint8Array.of(3, ...v1.subarray(1), ...new Uint8Array(12), 0xde, 0xad, 0xbe, 0xef);
      v3[2] = v3[2]! | 0x80; // a flag bit that version 3 defines
      expect(decodeBlockMetadata(v3)).to.deep.equal(decodeBlockMetadata(v1));
    });

    it('rejects corrupt records with the field and offset', () => {
      const good = toHex(encodeBlockMetadata({ protocolVersion: 2, solid: true, arrivalTime: 9 }));
      decodeFails(good + '00', 'TRAILING_BYTES', 'block metadata', 25);
      decodeFails(good.slice(0, 40), 'TRUNCATED', 'conflictReason', 20);
      decodeFails('', 'TRUNCATED', 'version', 0);
      decodeFails('00' + good.slice(2), 'VALUE_OUT_OF_RANGE', 'version', 0);
      decodeFails('0104' + good.slice(4), 'VALUE_OUT_OF_RANGE', 'protocolVersion', 1);
      decodeFails('010209' + good.slice(6), 'INVALID_FIELD', 'flags', 2);
      decodeFails(
        '010202' + good.slice(6, 38) + '03' + good.slice(40),
        'VALUE_OUT_OF_RANGE',
        'ledgerInclusionState',
        19,
      );
      decodeFails('010201' + 'ffffffffffffffff' + good.slice(22), 'VALUE_OUT_OF_RANGE', 'arrivalTime', 3);
    });

    it('refuses to encode values the record cannot hold', () => {
      const base: BlockMetadata = { protocolVersion: 2, solid: true, arrivalTime: 1 };
      expect(() => encodeBlockMetadata({ ...base, protocolVersion: 1 as 2 })).to.throw(RangeError);
      expect(() => encodeBlockMetadata({ ...base, arrivalTime: -1 })).to.throw(RangeError);
      expect(() => encodeBlockMetadata({ ...base, arrivalTime: 1.5 })).to.throw(RangeError);
      expect(() => encodeBlockMetadata({ ...base, milestoneIndex: 2 ** 32 })).to.throw(RangeError);
      const ref = {
        milestoneIndex: 1,
        whiteFlagIndex: 0,
        ledgerInclusionState: 'included' as const,
        conflictReason: 0,
      };
      expect(() => encodeBlockMetadata({ ...base, referenced: { ...ref, conflictReason: 256 } })).to.throw(RangeError);
      expect(() =>
        encodeBlockMetadata({ ...base, referenced: { ...ref, ledgerInclusionState: 'pending' as never } }),
      ).to.throw(RangeError);
      expect(() => encodeBlockMetadata({ ...base, referenced: { ...ref, whiteFlagIndex: -1 } })).to.throw(RangeError);
    });
  });

  describe('milestone record', () => {
    const rec = {
      milestoneId: new Uint8Array(32).fill(1),
      blockId: new Uint8Array(32).fill(2),
      timestamp: 1_690_000_000,
    };

    it('round-trips in 70 bytes with the documented layout', () => {
      const bytes = encodeMilestoneRecord(rec);
      expect(toHex(bytes)).to.equal('01' + '01'.repeat(32) + '02'.repeat(32) + '805abb64' + '00');
      expect(decodeMilestoneRecord(bytes)).to.deep.equal(rec);
    });

    it('reads a newer version with appended fields; rejects trailing bytes in version 1 and truncation', () => {
      const bytes = encodeMilestoneRecord(rec);
      expect(decodeMilestoneRecord(Uint8Array.of(2, ...bytes.subarray(1), 7, 7))).to.deep.equal(rec);
      expect(() => decodeMilestoneRecord(Uint8Array.of(...bytes, 0))).to.throw(ProtocolError, /trailing/);
      expect(() => decodeMilestoneRecord(bytes.subarray(0, 60))).to.throw(
        ProtocolError,
        /need 32 bytes for blockId, 27 left at offset 33/,
      );
      expect(() => encodeMilestoneRecord({ ...rec, blockId: new Uint8Array(36) })).to.throw(RangeError);
    });
  });
});
