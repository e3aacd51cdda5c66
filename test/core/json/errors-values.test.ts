/** JSON rejections of values: u8 to u64 numbers, u256 hex, byte strings and their lengths, each with its code. */
import { expect } from 'chai';
import {
  addressFromJson,
  blockFromJson,
  essenceFromJson,
  featureFromJson,
  inputFromJson,
  milestoneOptionFromJson,
  migratedFundsEntryFromJson,
  nativeTokenFromJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  signatureFromJson,
  tokenSchemeFromJson,
  unlockConditionFromJson,
  unlockFromJson,
} from '../../../src/core/json/index.ts';
import type { BasicOutput, NativeToken } from '../../../src/core/model/index.ts';
import { clone, expectReject, hex } from './helpers.ts';
import { ED, aliasOut, msFull, tip24, txBlock } from './fixtures.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('core/json: rejections', () => {
  describe('u8/u16/u32 numbers', () => {
    it('out of range or not an integer → VALUE_OUT_OF_RANGE', () => {
      expectReject(() => blockFromJson({ ...tip24, protocolVersion: 256 }), 'VALUE_OUT_OF_RANGE', 'protocolVersion');
      expectReject(() => blockFromJson({ ...tip24, protocolVersion: -1 }), 'VALUE_OUT_OF_RANGE', 'protocolVersion');
      expectReject(() => blockFromJson({ ...tip24, protocolVersion: 2.5 }), 'VALUE_OUT_OF_RANGE', 'protocolVersion');
      expectReject(() => unlockFromJson({ type: 1, reference: 65536 }), 'VALUE_OUT_OF_RANGE', 'reference');
      expectReject(
        () => inputFromJson({ type: 0, transactionId: hex('11', 32), transactionOutputIndex: 70000 }),
        'VALUE_OUT_OF_RANGE',
        'transactionOutputIndex',
      );
      expectReject(() => unlockConditionFromJson({ type: 2, unixTime: 2 ** 32 }), 'VALUE_OUT_OF_RANGE', 'unixTime');
      expect(unlockConditionFromJson({ type: 2, unixTime: 2 ** 32 - 1 })).to.deep.equal({
        type: 2,
        unixTime: 2 ** 32 - 1,
      });
    });
    it('a string where a number belongs → INVALID_JSON', () => {
      expectReject(() => blockFromJson({ ...tip24, protocolVersion: '2' }), 'INVALID_JSON', 'protocolVersion');
      const ms = clone(msFull);
      ms.index = '1087';
      expectReject(() => payloadFromJson(ms), 'INVALID_JSON', 'index');
    });
  });

  describe('u64 decimal strings', () => {
    it('a number → INVALID_JSON naming the path and the value', () => {
      const b = clone(txBlock);
      b.payload.essence.outputs[1].amount = 355600;
      const err = expectReject(() => blockFromJson(b), 'INVALID_JSON', 'payload.essence.outputs[1].amount');
      expect(err.message).to.equal(
        'invalid block JSON at payload.essence.outputs[1].amount: expected a decimal string, got number 355600',
      );
      expect(err.value).to.equal('number 355600');
    });
    it('signs, decimals, hex, blanks and empty strings → INVALID_JSON', () => {
      for (const bad of ['-1', '+1', '1.0', '1e3', '0x10', ' 1', '']) {
        expectReject(() => outputFromJson({ type: 2, amount: bad }), 'INVALID_JSON', 'amount');
      }
    });
    it('above 2^64-1 → VALUE_OUT_OF_RANGE; 2^64-1 and leading zeros are accepted', () => {
      expectReject(() => outputFromJson({ type: 2, amount: '18446744073709551616' }), 'VALUE_OUT_OF_RANGE', 'amount');
      expectReject(() => outputFromJson({ type: 2, amount: '9'.repeat(500) }), 'VALUE_OUT_OF_RANGE', 'amount');
      expect(outputFromJson({ type: 2, amount: '18446744073709551615' })).to.deep.equal({
        type: 2,
        amount: 2n ** 64n - 1n,
      });
      expect(outputFromJson({ type: 2, amount: '007' })).to.deep.equal({ type: 2, amount: 7n });
    });
  });

  describe('u256 hex numbers (go-ethereum hexutil rules)', () => {
    const nt = (amount: unknown) => ({ id: hex('08', 38), amount });
    it('parses 0x0, big-endian hex and 64 digits; emits without leading zeros', () => {
      expect(nativeTokenFromJson(nt('0x0')).amount).to.equal(0n);
      expect(nativeTokenFromJson(nt('0x2540be400')).amount).to.equal(10_000_000_000n);
      expect(nativeTokenFromJson(nt('0x' + 'f'.repeat(64))).amount).to.equal(2n ** 256n - 1n);
      const o: BasicOutput = {
        type: 3,
        amount: 1n,
        nativeTokens: [
          { id: new Uint8Array(38), amount: 0n },
          { id: new Uint8Array(38), amount: 256n },
        ] as NativeToken[],
        unlockConditions: [],
        features: [],
      };
      expect((outputToJson(o) as any).nativeTokens.map((t: any) => t.amount)).to.deep.equal(['0x0', '0x100']);
    });
    it('empty "0x", leading zeros, a missing prefix or a bad digit → INVALID_HEX', () => {
      for (const bad of ['0x', '0x01', '0x00', '100', '0xg1'])
        expectReject(() => nativeTokenFromJson(nt(bad)), 'INVALID_HEX', 'amount');
    });
    it('more than 64 digits → VALUE_OUT_OF_RANGE; a number or decimal string type → INVALID_JSON / INVALID_HEX', () => {
      expectReject(() => nativeTokenFromJson(nt('0x1' + '0'.repeat(64))), 'VALUE_OUT_OF_RANGE', 'amount');
      expectReject(() => nativeTokenFromJson(nt(100)), 'INVALID_JSON', 'amount');
      expectReject(
        () => tokenSchemeFromJson({ type: 0, mintedTokens: '0x1', meltedTokens: '0x0', maximumSupply: '100' }),
        'INVALID_HEX',
        'maximumSupply',
      );
    });
    it('TIP-25 "maxSupply" is not our key → MISSING_FIELD maximumSupply', () => {
      expectReject(
        () => tokenSchemeFromJson({ type: 0, mintedTokens: '0x1', meltedTokens: '0x0', maxSupply: '0x1' }),
        'MISSING_FIELD',
        'maximumSupply',
      );
    });
  });

  describe('byte strings', () => {
    it('no 0x prefix, an odd digit count or a non-hex digit → INVALID_HEX', () => {
      expectReject(() => addressFromJson({ type: 0, pubKeyHash: 'ab'.repeat(32) }), 'INVALID_HEX', 'pubKeyHash');
      expectReject(() => featureFromJson({ type: 2, data: '0xabc' }), 'INVALID_HEX', 'data');
      expectReject(() => featureFromJson({ type: 2, data: '0xzz' }), 'INVALID_HEX', 'data');
      expectReject(() => featureFromJson({ type: 2, data: 12 }), 'INVALID_JSON', 'data');
    });
    it('uppercase hex is read and emitted lowercase', () => {
      const a = addressFromJson({ type: 8, aliasId: '0x' + 'AB'.repeat(32) });
      expect(a).to.have.property('aliasId').that.deep.equals(new Uint8Array(32).fill(0xab));
    });
    it('fixed sizes must be exact → LENGTH_OUT_OF_RANGE naming the path', () => {
      const b = clone(txBlock);
      b.parents[2] = hex('aa', 31);
      expectReject(() => blockFromJson(b), 'LENGTH_OUT_OF_RANGE', 'parents[2]');
      const b2 = clone(txBlock);
      b2.payload.essence.outputs[0].nativeTokens[0].id = hex('08', 37);
      expectReject(() => blockFromJson(b2), 'LENGTH_OUT_OF_RANGE', 'payload.essence.outputs[0].nativeTokens[0].id');
      const b3 = clone(txBlock);
      b3.payload.unlocks[0].signature.publicKey = hex('01', 33);
      expectReject(() => blockFromJson(b3), 'LENGTH_OUT_OF_RANGE', 'payload.unlocks[0].signature.publicKey');
      expectReject(
        () => signatureFromJson({ type: 0, publicKey: hex('01', 32), signature: hex('02', 63) }),
        'LENGTH_OUT_OF_RANGE',
        'signature',
      );
      const ms = clone(msFull);
      ms.options[0].funds[0].tailTransactionHash = hex('aa', 48);
      expectReject(() => payloadFromJson(ms), 'LENGTH_OUT_OF_RANGE', 'options[0].funds[0].tailTransactionHash');
      expectReject(
        () => migratedFundsEntryFromJson({ tailTransactionHash: hex('aa', 50), address: ED, deposit: '1' }),
        'LENGTH_OUT_OF_RANGE',
        'tailTransactionHash',
      );
      expectReject(
        () => essenceFromJson({ ...clone(txBlock.payload.essence), inputsCommitment: '0x' }),
        'LENGTH_OUT_OF_RANGE',
        'inputsCommitment',
      );
    });
    it('variable lengths above the wire limits → LENGTH_OUT_OF_RANGE', () => {
      expectReject(() => payloadFromJson({ type: 5, tag: hex('61', 65) }), 'LENGTH_OUT_OF_RANGE', 'tag');
      expectReject(() => featureFromJson({ type: 3, tag: hex('61', 65) }), 'LENGTH_OUT_OF_RANGE', 'tag');
      expectReject(() => featureFromJson({ type: 3, tag: '0x' }), 'LENGTH_OUT_OF_RANGE', 'tag');
      expectReject(() => featureFromJson({ type: 2, data: hex('61', 8193) }), 'LENGTH_OUT_OF_RANGE', 'data');
      expectReject(
        () => outputFromJson({ ...aliasOut, stateMetadata: hex('61', 8193) }),
        'LENGTH_OUT_OF_RANGE',
        'stateMetadata',
      );
      const ms = clone(msFull);
      ms.metadata = hex('00', 8193);
      expectReject(() => payloadFromJson(ms), 'LENGTH_OUT_OF_RANGE', 'metadata');
      expectReject(
        () => milestoneOptionFromJson({ ...msFull.options[1], params: hex('00', 8193) }),
        'LENGTH_OUT_OF_RANGE',
        'params',
      );
      expect(featureFromJson({ type: 2, data: hex('61', 8192) }))
        .to.have.property('data')
        .with.length(8192);
    });
  });
});
