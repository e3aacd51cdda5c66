/** JSON rejections of shape: wrong JSON types, missing keys, lists beyond the wire limits, forbidden keys. */
import { expect } from 'chai';
import {
  addressFromJson,
  blockFromJson,
  essenceFromJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  unlockConditionFromJson,
} from '../../../src/core/json/index.ts';
import { clone, expectReject, hex } from './helpers.ts';
import { ED, aliasOut, basic, foundryOut, msFull, tip24, txBlock } from './fixtures.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('core/json: rejections', () => {
  describe('wrong JSON types and missing keys', () => {
    it('top-level values that are not objects → INVALID_JSON at (top level)', () => {
      for (const bad of [null, 'block', 5, [], true, undefined]) {
        const err = expectReject(() => blockFromJson(bad), 'INVALID_JSON', '(top level)');
        expect(err.message).to.match(/^invalid block JSON at \(top level\): expected an object, got /);
      }
    });
    it('object vs array mix-ups → INVALID_JSON', () => {
      expectReject(() => blockFromJson({ ...tip24, parents: { 0: tip24.parents[0] } }), 'INVALID_JSON', 'parents');
      expectReject(() => blockFromJson({ ...tip24, payload: [] }), 'INVALID_JSON', 'payload');
      expectReject(
        () => outputFromJson(basic({ unlockConditions: { type: 0, address: ED } })),
        'INVALID_JSON',
        'unlockConditions',
      );
      expectReject(
        () => outputFromJson(basic({ unlockConditions: [{ type: 0, address: [ED] }] })),
        'INVALID_JSON',
        'unlockConditions[0].address',
      );
      expectReject(() => outputFromJson(basic({ nativeTokens: 'none' })), 'INVALID_JSON', 'nativeTokens');
      const ms = clone(msFull);
      ms.options[0].final = 'true';
      expectReject(() => payloadFromJson(ms), 'INVALID_JSON', 'options[0].final');
    });
    it('missing required keys → MISSING_FIELD naming the key', () => {
      const { protocolVersion: _v, ...noVersion } = tip24;
      expectReject(() => blockFromJson(noVersion), 'MISSING_FIELD', 'protocolVersion');
      const { nonce: _n, ...noNonce } = tip24;
      expectReject(() => blockFromJson(noNonce), 'MISSING_FIELD', 'nonce');
      const { parents: _p, ...noParents } = tip24;
      expectReject(() => blockFromJson(noParents), 'MISSING_FIELD', 'parents');
      expectReject(() => outputFromJson({ type: 3, amount: '1' }), 'MISSING_FIELD', 'unlockConditions');
      expectReject(
        () => outputFromJson({ type: 5, amount: '1', serialNumber: 1, unlockConditions: [] }),
        'MISSING_FIELD',
        'tokenScheme',
      );
      const { tokenScheme: _t, ...noScheme } = foundryOut;
      expectReject(() => outputFromJson(noScheme), 'MISSING_FIELD', 'tokenScheme');
      const b = clone(txBlock);
      delete b.payload.essence.outputs[1].unlockConditions[0].address.pubKeyHash;
      expectReject(
        () => blockFromJson(b),
        'MISSING_FIELD',
        'payload.essence.outputs[1].unlockConditions[0].address.pubKeyHash',
      );
      expectReject(() => unlockConditionFromJson({ type: 1, returnAddress: ED }), 'MISSING_FIELD', 'amount');
      expectReject(
        () => unlockConditionFromJson({ type: 1, returnAddress: ED, returnAmount: '5' }),
        'MISSING_FIELD',
        'amount',
      );
    });
  });

  describe('list sizes beyond the wire limits → COUNT_OUT_OF_RANGE', () => {
    it('parents, inputs, outputs, unlocks, native tokens, unlock conditions, features, options, funds', () => {
      const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
      expectReject(
        () => blockFromJson({ ...tip24, parents: many(9, () => hex('11', 32)) }),
        'COUNT_OUT_OF_RANGE',
        'parents',
      );
      const e = clone(txBlock.payload.essence);
      e.inputs = many(129, () => e.inputs[0]);
      expectReject(() => essenceFromJson(e), 'COUNT_OUT_OF_RANGE', 'inputs');
      const e2 = clone(txBlock.payload.essence);
      e2.outputs = many(129, () => e2.outputs[0]);
      expectReject(() => essenceFromJson(e2), 'COUNT_OUT_OF_RANGE', 'outputs');
      const t = clone(txBlock.payload);
      t.unlocks = many(129, () => t.unlocks[0]);
      expectReject(() => payloadFromJson(t), 'COUNT_OUT_OF_RANGE', 'unlocks');
      expectReject(
        () => outputFromJson(basic({ nativeTokens: many(65, () => ({ id: hex('08', 38), amount: '0x1' })) })),
        'COUNT_OUT_OF_RANGE',
        'nativeTokens',
      );
      expectReject(
        () => outputFromJson(basic({ unlockConditions: many(5, () => ({ type: 0, address: ED })) })),
        'COUNT_OUT_OF_RANGE',
        'unlockConditions',
      );
      expectReject(
        () => outputFromJson(basic({ features: many(4, () => ({ type: 3, tag: '0x01' })) })),
        'COUNT_OUT_OF_RANGE',
        'features',
      );
      expectReject(
        () => outputFromJson({ ...aliasOut, immutableFeatures: many(3, () => ({ type: 1, address: ED })) }),
        'COUNT_OUT_OF_RANGE',
        'immutableFeatures',
      );
      const ms = clone(msFull);
      ms.options = [...ms.options, ms.options[1]];
      expectReject(() => payloadFromJson(ms), 'COUNT_OUT_OF_RANGE', 'options');
      const ms2 = clone(msFull);
      ms2.options[0].funds = many(128, () => ms2.options[0].funds[0]);
      expectReject(() => payloadFromJson(ms2), 'COUNT_OUT_OF_RANGE', 'options[0].funds');
      const ms3 = clone(msFull);
      ms3.signatures = many(256, () => ms3.signatures[0]);
      expectReject(() => payloadFromJson(ms3), 'COUNT_OUT_OF_RANGE', 'signatures');
    });
    it("the maxima themselves are accepted (ordering and minimum counts are the validator's)", () => {
      const e = clone(txBlock.payload.essence);
      e.inputs = Array.from({ length: 128 }, () => e.inputs[0]);
      expect(essenceFromJson(e).inputs).to.have.length(128);
      expect(blockFromJson({ ...tip24, parents: [] }).parents).to.deep.equal([]);
    });
  });

  describe('forbidden keys and unknown keys', () => {
    it('__proto__, constructor and prototype anywhere → INVALID_JSON, without polluting prototypes', () => {
      const top = JSON.parse('{"__proto__": {"polluted": true}, "protocolVersion": 2, "parents": [], "nonce": "0"}');
      expectReject(() => blockFromJson(top), 'INVALID_JSON', '__proto__');
      const nested = clone(txBlock);
      nested.payload.essence.outputs[0].unknownExtra = JSON.parse('{"deep": [{"constructor": {"prototype": 1}}]}');
      expectReject(
        () => blockFromJson(nested),
        'INVALID_JSON',
        'payload.essence.outputs[0].unknownExtra.deep[0].constructor',
      );
      expectReject(
        () => addressFromJson(JSON.parse('{"type": 0, "prototype": 1, "pubKeyHash": "0x00"}')),
        'INVALID_JSON',
        'prototype',
      );
      expect(({} as any).polluted).to.equal(undefined);
    });
    it('other unknown keys are ignored and never copied onto the model', () => {
      const j = { ...basic(), extra: 1, isSpent: false };
      const m = outputFromJson(j) as any;
      expect(m).to.not.have.any.keys('extra', 'isSpent');
      expect(outputToJson(m)).to.deep.equal(basic());
    });
    it('inherited properties are not read as keys', () => {
      const proto = { nonce: '5' };
      const j = Object.assign(Object.create(proto), { protocolVersion: 2, parents: [] });
      expectReject(() => blockFromJson(j), 'MISSING_FIELD', 'nonce');
    });
  });
});
