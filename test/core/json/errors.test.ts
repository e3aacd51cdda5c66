/** Negative tests: every error family of the JSON mapping, with the code asserted. */
import { expect } from 'chai';
import {
  addressFromJson,
  blockFromJson,
  blockToJson,
  essenceFromJson,
  featureFromJson,
  inputFromJson,
  milestoneOptionFromJson,
  migratedFundsEntryFromJson,
  nativeTokenFromJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  payloadToJson,
  signatureFromJson,
  tokenSchemeFromJson,
  unlockConditionFromJson,
  unlockFromJson,
} from '../../../src/core/json/index.ts';
import type { BasicOutput, NativeToken } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { clone, expectReject, hex } from './helpers.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const blocks = loadVectors('stardust/blocks.json');
const txBlock: any = blocks.vectors.find((v: any) => v.name === 'shimmer-mainnet-ms2418187-wf44').derived
  .jsonDecodedLocally;
const tip24: any = blocks.vectors.find((v: any) => v.name === 'tip24-tagged-data-example').json;
const milestones = loadVectors('stardust/milestones.json');
const msFull: any = milestones.vectors.find(
  (v: any) => v.name === 'iotajs-milestone-payload-receipt-and-protocol-params',
).json;
const outputs = loadVectors('stardust/outputs.json');
const aliasOut: any = outputs.serialization.find((v: any) => v.name === 'iotajs-alias-output').json;
const foundryOut: any = outputs.serialization.find((v: any) => v.name === 'iotajs-foundry-output').json;

const ED = { type: 0, pubKeyHash: hex('ab', 32) };
const basic = (extra: object = {}) => ({
  type: 3,
  amount: '1000',
  unlockConditions: [{ type: 0, address: ED }],
  ...extra,
});

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
