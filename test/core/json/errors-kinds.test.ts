/** JSON rejections of kinds: unknown types, types in the wrong context; empty values accepted as absent. */
import { expect } from 'chai';
import {
  addressFromJson,
  blockFromJson,
  blockToJson,
  essenceFromJson,
  featureFromJson,
  inputFromJson,
  milestoneOptionFromJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  payloadToJson,
  signatureFromJson,
  tokenSchemeFromJson,
  unlockConditionFromJson,
  unlockFromJson,
} from '../../../src/core/json/index.ts';
import { clone, expectReject, hex } from './helpers.ts';
import { ED, aliasOut, basic, msFull, tip24, txBlock } from './fixtures.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

describe('core/json: rejections', () => {
  describe('empty values are omitted on output and accepted as absent, null or empty on input', () => {
    it('nativeTokens, features, immutableFeatures, stateMetadata', () => {
      const j = { ...clone(aliasOut), nativeTokens: [], stateMetadata: '0x', features: null, immutableFeatures: [] };
      const out = outputToJson(outputFromJson(j)) as any;
      expect(out).to.not.have.any.keys('nativeTokens', 'stateMetadata', 'features', 'immutableFeatures');
      expect(outputToJson(outputFromJson(basic({ features: [] })))).to.deep.equal(basic());
    });
    it('tagged data tag/data, milestone metadata/options, block and essence payload', () => {
      expect(payloadToJson(payloadFromJson({ type: 5, tag: '0x', data: null }))).to.deep.equal({ type: 5 });
      const ms = clone(msFull);
      ms.metadata = '0x';
      ms.options = [];
      expect(payloadToJson(payloadFromJson(ms))).to.not.have.any.keys('metadata', 'options');
      expect(blockToJson(blockFromJson({ ...tip24, payload: null }))).to.deep.equal({
        protocolVersion: 2,
        parents: tip24.parents,
        nonce: '28110',
      });
      const e = { ...clone(txBlock.payload.essence), payload: null };
      expect(essenceFromJson(e)).to.not.have.property('payload');
    });
  });

  describe('unknown types → UNKNOWN_TYPE', () => {
    it('payloads 0..3 (Chrysalis; type 1 = the stale TIP-25 milestone) and 8', () => {
      for (const t of [0, 1, 2, 3, 8])
        expectReject(() => blockFromJson({ ...tip24, payload: { type: t } }), 'UNKNOWN_TYPE', 'payload.type');
      expectReject(() => payloadFromJson({ type: 1 }), 'UNKNOWN_TYPE', 'type');
    });
    it('every other family', () => {
      expectReject(() => outputFromJson({ type: 0, amount: '1' }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => outputFromJson({ type: 7, amount: '1' }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => addressFromJson({ type: 1, pubKeyHash: hex('00', 32) }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => addressFromJson({ type: 0.5 }), 'UNKNOWN_TYPE', 'type');
      expectReject(
        () => outputFromJson(basic({ unlockConditions: [{ type: 7, address: ED }] })),
        'UNKNOWN_TYPE',
        'unlockConditions[0].type',
      );
      expectReject(() => featureFromJson({ type: 4, tag: '0x01' }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => unlockFromJson({ type: 4, reference: 0 }), 'UNKNOWN_TYPE', 'type');
      expectReject(
        () => signatureFromJson({ type: 1, publicKey: hex('00', 32), signature: hex('00', 64) }),
        'UNKNOWN_TYPE',
        'type',
      );
      expectReject(() => tokenSchemeFromJson({ type: 1 }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => milestoneOptionFromJson({ type: 2 }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => inputFromJson({ type: 2 }), 'UNKNOWN_TYPE', 'type');
      expectReject(() => essenceFromJson({ ...clone(txBlock.payload.essence), type: 2 }), 'UNKNOWN_TYPE', 'type');
    });
    it('a type that is not a number → INVALID_JSON; a missing type → MISSING_FIELD', () => {
      expectReject(() => payloadFromJson({ type: '5' }), 'INVALID_JSON', 'type');
      expectReject(() => addressFromJson({ pubKeyHash: hex('00', 32) }), 'MISSING_FIELD', 'type');
    });
  });

  describe('known types in the wrong context → TYPE_NOT_ALLOWED', () => {
    it('a treasury transaction as a block payload', () => {
      const treasury = clone(msFull.options[0].transaction);
      expectReject(() => blockFromJson({ ...tip24, payload: treasury }), 'TYPE_NOT_ALLOWED', 'payload.type');
      expect(payloadFromJson(treasury)).to.have.property('type', 4);
    });
    it('a treasury input or a treasury output in an essence; a transaction as essence payload', () => {
      const b = clone(txBlock);
      b.payload.essence.inputs[1] = { type: 1, milestoneId: hex('aa', 32) };
      expectReject(() => blockFromJson(b), 'TYPE_NOT_ALLOWED', 'payload.essence.inputs[1].type');
      const b2 = clone(txBlock);
      b2.payload.essence.outputs[0] = { type: 2, amount: '5' };
      expectReject(() => blockFromJson(b2), 'TYPE_NOT_ALLOWED', 'payload.essence.outputs[0].type');
      const b3 = clone(txBlock);
      b3.payload.essence.payload = clone(txBlock.payload);
      expectReject(() => blockFromJson(b3), 'TYPE_NOT_ALLOWED', 'payload.essence.payload.type');
    });
    it('a basic output or a UTXO input inside a treasury transaction; tagged data as a receipt transaction', () => {
      const ms = clone(msFull);
      ms.options[0].transaction.output = basic();
      expectReject(() => payloadFromJson(ms), 'TYPE_NOT_ALLOWED', 'options[0].transaction.output.type');
      const ms2 = clone(msFull);
      ms2.options[0].transaction.input = { type: 0, transactionId: hex('aa', 32), transactionOutputIndex: 0 };
      expectReject(() => payloadFromJson(ms2), 'TYPE_NOT_ALLOWED', 'options[0].transaction.input.type');
      const ms3 = clone(msFull);
      ms3.options[0].transaction = { type: 5, tag: '0x01' };
      expectReject(() => payloadFromJson(ms3), 'TYPE_NOT_ALLOWED', 'options[0].transaction.type');
    });
    it('a migrated funds entry to a non-Ed25519 address', () => {
      const ms = clone(msFull);
      ms.options[0].funds[0].address = { type: 16, nftId: hex('ee', 32) };
      expectReject(() => payloadFromJson(ms), 'TYPE_NOT_ALLOWED', 'options[0].funds[0].address.type');
    });
    it('an immutable alias address unlock condition with a non-alias address', () => {
      expectReject(() => unlockConditionFromJson({ type: 6, address: ED }), 'TYPE_NOT_ALLOWED', 'address.type');
      expect(unlockConditionFromJson({ type: 6, address: { type: 8, aliasId: hex('cd', 32) } })).to.have.property(
        'type',
        6,
      );
    });
  });
});
