/** Hand-made malformed outputs: native tokens, unlock conditions, addresses, features, token schemes. */
import { expect } from 'chai';
import {
  decodeAddress,
  decodeFeature,
  decodeOutput,
  decodeTokenScheme,
  decodeUnlockCondition,
  encodeOutput,
} from '../../../src/core/codec/index.ts';
import { aliasOutput, basicOutput, ed, fill, foundryOutput, nftOutput } from './fixtures.ts';
import { protocolErrorCode as codeOf } from '../../support/protocol-error.ts';

describe('codec: strict decoding rejects malformed data', () => {
  describe('outputs', () => {
    it('unknown output type, treasury output accepted standalone', () => {
      expect(codeOf(() => decodeOutput(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 0])))).to.equal('UNKNOWN_TYPE');
      expect(decodeOutput(new Uint8Array([2, 1, 0, 0, 0, 0, 0, 0, 0]))).to.deep.equal({ type: 2, amount: 1n });
    });

    it('unsorted and duplicate native tokens; 65 native tokens', () => {
      const o = basicOutput();
      o.nativeTokens = [
        { id: fill(38, 2), amount: 1n },
        { id: fill(38, 1), amount: 1n },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.nativeTokens = [
        { id: fill(38, 1), amount: 1n },
        { id: fill(38, 1), amount: 2n },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.nativeTokens = Array.from({ length: 65 }, (_, i) => ({ id: fill(38, i), amount: 1n }));
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('COUNT_OUT_OF_RANGE');
      o.nativeTokens = o.nativeTokens.slice(0, 64);
      expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
    });

    it('unlock conditions: unknown type, not allowed per kind, unsorted, duplicate, missing mandatory', () => {
      const o = basicOutput();
      o.unlockConditions = [
        { type: 0, address: ed(1) },
        { type: 2, unixTime: 5 },
      ];
      const b = encodeOutput(o);
      const ucAt = 1 + 8 + 1 + 1 + 34;
      b[ucAt] = 7;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
      b[ucAt] = 4;
      expect(codeOf(() => decodeOutput(b))).to.equal('TYPE_NOT_ALLOWED');
      o.unlockConditions = [
        { type: 2, unixTime: 5 },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.unlockConditions = [
        { type: 0, address: ed(1) },
        { type: 0, address: ed(2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.unlockConditions = [{ type: 2, unixTime: 5 }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('MISSING_FIELD');
      const a = aliasOutput();
      a.unlockConditions = [{ type: 4, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('COUNT_OUT_OF_RANGE');
      a.unlockConditions = [
        { type: 4, address: ed(1) },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('TYPE_NOT_ALLOWED');
      const n = nftOutput();
      n.unlockConditions = [{ type: 6, address: { type: 8, aliasId: fill(32, 1) } }];
      expect(codeOf(() => decodeOutput(encodeOutput(n)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('immutable alias address unlock condition must hold an alias address', () => {
      const f = foundryOutput();
      f.unlockConditions = [{ type: 6, address: ed(1) as never }];
      expect(codeOf(() => decodeOutput(encodeOutput(f)))).to.equal('TYPE_NOT_ALLOWED');
      expect(codeOf(() => decodeUnlockCondition(new Uint8Array([6, 0, ...fill(32, 1)])))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('unknown address type', () => {
      expect(codeOf(() => decodeAddress(new Uint8Array([1, ...fill(32, 1)])))).to.equal('UNKNOWN_TYPE');
      const o = basicOutput();
      const b = encodeOutput(o);
      b[1 + 8 + 1 + 1 + 1] = 9;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
    });

    it('features: unknown, not allowed (mutable issuer, tag on alias/foundry), duplicate, unsorted, too many', () => {
      expect(codeOf(() => decodeFeature(new Uint8Array([4, 1, 1])))).to.equal('UNKNOWN_TYPE');
      const o = basicOutput();
      o.features = [{ type: 1, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('TYPE_NOT_ALLOWED');
      o.features = [
        { type: 2, data: fill(1, 1) },
        { type: 2, data: fill(1, 2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.features = [
        { type: 3, tag: fill(1, 1) },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.features = [
        { type: 0, address: ed(1) },
        { type: 2, data: fill(1, 1) },
        { type: 3, tag: fill(1, 1) },
        { type: 3, tag: fill(1, 2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('COUNT_OUT_OF_RANGE');
      const a = aliasOutput();
      a.features = [{ type: 3, tag: fill(1, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('TYPE_NOT_ALLOWED');
      const a2 = aliasOutput();
      a2.immutableFeatures = [{ type: 0, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a2)))).to.equal('TYPE_NOT_ALLOWED');
      const f = foundryOutput();
      f.immutableFeatures = [{ type: 1, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(f)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('metadata 0 and 8193 bytes, tag feature 0 and 65 bytes', () => {
      const o = basicOutput();
      o.features = [{ type: 2, data: fill(8193, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 2, data: new Uint8Array(0) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 2, data: fill(8192, 1) }];
      expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
      o.features = [{ type: 3, tag: fill(65, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 3, tag: new Uint8Array(0) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      const a = aliasOutput();
      a.stateMetadata = fill(8193, 1);
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('LENGTH_OUT_OF_RANGE');
    });

    it('token scheme: unknown type', () => {
      expect(codeOf(() => decodeTokenScheme(new Uint8Array([1, ...fill(96, 0)])))).to.equal('UNKNOWN_TYPE');
      const b = encodeOutput(foundryOutput());
      b[1 + 8 + 1 + 4] = 1;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
    });

    it('every fixture output round-trips', () => {
      for (const o of [basicOutput(), aliasOutput(), foundryOutput(), nftOutput()])
        expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
    });
  });
});
