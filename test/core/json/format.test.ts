/**
 * Output format: key order = docs/protocol.md §18 table order, value encodings, omitted empties; protocol parameters.
 */
import { expect } from 'chai';
import {
  blockFromJson,
  blockToJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  payloadToJson,
  protocolParametersFromJson,
  protocolParametersToJson,
  unlockConditionFromJson,
  unlockConditionToJson,
} from '../../../src/core/json/index.ts';
import { SHIMMER_PROTOCOL } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { clone, expectReject, hex } from './helpers.ts';
import { ALIAS, ED, msFull, txBlock } from './fixtures.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Keys in their given order, every level (arrays element by element). */
function keyOrder(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(keyOrder);
  if (typeof v === 'object' && v !== null) return Object.entries(v).map(([k, x]) => [k, keyOrder(x)]);
  return null;
}

describe('core/json: output format', () => {
  it('block and transaction keys come out in the §18 table order', () => {
    const out: any = blockToJson(blockFromJson(clone(txBlock)));
    expect(Object.keys(out)).to.deep.equal(['protocolVersion', 'parents', 'payload', 'nonce']);
    expect(Object.keys(out.payload)).to.deep.equal(['type', 'essence', 'unlocks']);
    expect(Object.keys(out.payload.essence)).to.deep.equal([
      'type',
      'networkId',
      'inputs',
      'inputsCommitment',
      'outputs',
      'payload',
    ]);
    expect(Object.keys(out.payload.essence.inputs[0])).to.deep.equal([
      'type',
      'transactionId',
      'transactionOutputIndex',
    ]);
    expect(Object.keys(out.payload.essence.outputs[0])).to.deep.equal([
      'type',
      'amount',
      'nativeTokens',
      'unlockConditions',
    ]);
    expect(Object.keys(out.payload.essence.outputs[0].nativeTokens[0])).to.deep.equal(['id', 'amount']);
    expect(Object.keys(out.payload.essence.payload)).to.deep.equal(['type', 'tag', 'data']);
    expect(Object.keys(out.payload.unlocks[0].signature)).to.deep.equal(['type', 'publicKey', 'signature']);
    // The real node JSON of this block is in table order already: the whole tree matches key for key.
    expect(keyOrder(out)).to.deep.equal(keyOrder(txBlock));
  });

  it('milestone keys: metadata and options before signatures (the iota.js fixture lists options last)', () => {
    const out: any = payloadToJson(payloadFromJson(clone(msFull)));
    expect(Object.keys(out)).to.deep.equal([
      'type',
      'index',
      'timestamp',
      'protocolVersion',
      'previousMilestoneId',
      'parents',
      'inclusionMerkleRoot',
      'appliedMerkleRoot',
      'metadata',
      'options',
      'signatures',
    ]);
    expect(Object.keys(out.options[0])).to.deep.equal(['type', 'migratedAt', 'final', 'funds', 'transaction']);
    expect(Object.keys(out.options[0].funds[0])).to.deep.equal(['tailTransactionHash', 'address', 'deposit']);
    expect(Object.keys(out.options[0].transaction)).to.deep.equal(['type', 'input', 'output']);
    expect(Object.keys(out.options[1])).to.deep.equal(['type', 'targetMilestoneIndex', 'protocolVersion', 'params']);
  });

  it('output keys for every kind, all optional parts present', () => {
    const nt = [{ id: hex('08', 38), amount: '0x1' }];
    const alias: any = outputToJson(
      outputFromJson({
        immutableFeatures: [{ type: 1, address: ED }],
        features: [{ type: 0, address: ED }],
        unlockConditions: [
          { type: 4, address: ED },
          { type: 5, address: ED },
        ],
        foundryCounter: 1,
        stateMetadata: '0x01',
        stateIndex: 1,
        aliasId: hex('00', 32),
        nativeTokens: nt,
        amount: '1',
        type: 4,
      }),
    );
    expect(Object.keys(alias)).to.deep.equal([
      'type',
      'amount',
      'nativeTokens',
      'aliasId',
      'stateIndex',
      'stateMetadata',
      'foundryCounter',
      'unlockConditions',
      'features',
      'immutableFeatures',
    ]);
    const foundry: any = outputToJson(
      outputFromJson({
        immutableFeatures: [{ type: 2, data: '0x01' }],
        features: [{ type: 2, data: '0x02' }],
        unlockConditions: [{ type: 6, address: ALIAS }],
        tokenScheme: { maximumSupply: '0x10', meltedTokens: '0x0', mintedTokens: '0x5', type: 0 },
        serialNumber: 1,
        nativeTokens: nt,
        amount: '1',
        type: 5,
      }),
    );
    expect(Object.keys(foundry)).to.deep.equal([
      'type',
      'amount',
      'nativeTokens',
      'serialNumber',
      'tokenScheme',
      'unlockConditions',
      'features',
      'immutableFeatures',
    ]);
    expect(Object.keys(foundry.tokenScheme)).to.deep.equal(['type', 'mintedTokens', 'meltedTokens', 'maximumSupply']);
    const nft: any = outputToJson(
      outputFromJson({
        immutableFeatures: [{ type: 2, data: '0x01' }],
        features: [{ type: 3, tag: '0x02' }],
        unlockConditions: [{ type: 0, address: ED }],
        nftId: hex('00', 32),
        nativeTokens: nt,
        amount: '1',
        type: 6,
      }),
    );
    expect(Object.keys(nft)).to.deep.equal([
      'type',
      'amount',
      'nativeTokens',
      'nftId',
      'unlockConditions',
      'features',
      'immutableFeatures',
    ]);
  });

  it('unlock conditions: Storage Deposit Return uses returnAddress + amount (decimal string)', () => {
    const sdr = unlockConditionToJson(unlockConditionFromJson({ amount: '42600', returnAddress: ALIAS, type: 1 }));
    expect(Object.keys(sdr)).to.deep.equal(['type', 'returnAddress', 'amount']);
    expect(sdr).to.deep.equal({ type: 1, returnAddress: ALIAS, amount: '42600' });
    const exp = unlockConditionToJson(unlockConditionFromJson({ unixTime: 5, returnAddress: ED, type: 3 }));
    expect(Object.keys(exp)).to.deep.equal(['type', 'returnAddress', 'unixTime']);
  });
});

describe('core/json: protocol parameters (the `protocol` object of /info)', () => {
  const shimmerJson = {
    version: 2,
    networkName: 'shimmer',
    bech32Hrp: 'smr',
    minPowScore: 1500,
    belowMaxDepth: 15,
    rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
    tokenSupply: '1813620509061365',
  };

  it('Shimmer parameters to JSON, in §11 order, and back', () => {
    const j = protocolParametersToJson(SHIMMER_PROTOCOL);
    expect(j).to.deep.equal(shimmerJson);
    expect(Object.keys(j)).to.deep.equal([
      'version',
      'networkName',
      'bech32Hrp',
      'minPowScore',
      'belowMaxDepth',
      'rentStructure',
      'tokenSupply',
    ]);
    expect(Object.keys(j.rentStructure)).to.deep.equal(['vByteCost', 'vByteFactorData', 'vByteFactorKey']);
    expect(protocolParametersFromJson(shimmerJson)).to.deep.equal(SHIMMER_PROTOCOL);
  });

  it('matches the real Shimmer values carried by the vector file (inx-chronicle snake_case source)', () => {
    const src = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json').protocolParametersInSource;
    const p = protocolParametersFromJson(shimmerJson);
    expect(p.networkName).to.equal(src.network_name);
    expect(p.bech32Hrp).to.equal(src.bech32_hrp);
    expect(p.minPowScore).to.equal(src.min_pow_score);
    expect(p.belowMaxDepth).to.equal(src.below_max_depth);
    expect(p.rentStructure.vByteFactorKey).to.equal(src.rent_structure.v_byte_factor_key);
    expect(p.tokenSupply.toString()).to.equal(src.token_supply);
  });

  it('rejects bad parameters with codes and paths', () => {
    const { rentStructure: _r, ...noRent } = shimmerJson;
    expectReject(() => protocolParametersFromJson(noRent), 'MISSING_FIELD', 'rentStructure');
    expectReject(
      () =>
        protocolParametersFromJson({
          ...shimmerJson,
          rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactoKey: 10 },
        }),
      'MISSING_FIELD',
      'rentStructure.vByteFactorKey',
    );
    expectReject(
      () =>
        protocolParametersFromJson({
          ...shimmerJson,
          rentStructure: { ...shimmerJson.rentStructure, vByteFactorKey: 256 },
        }),
      'VALUE_OUT_OF_RANGE',
      'rentStructure.vByteFactorKey',
    );
    expectReject(
      () => protocolParametersFromJson({ ...shimmerJson, tokenSupply: 1813620509061365 }),
      'INVALID_JSON',
      'tokenSupply',
    );
    expectReject(
      () => protocolParametersFromJson({ ...shimmerJson, networkName: 'n'.repeat(256) }),
      'LENGTH_OUT_OF_RANGE',
      'networkName',
    );
    expectReject(() => protocolParametersFromJson({ ...shimmerJson, bech32Hrp: 7 }), 'INVALID_JSON', 'bech32Hrp');
    expectReject(
      () => protocolParametersFromJson({ ...shimmerJson, protocolVersion: 2, version: undefined }),
      'MISSING_FIELD',
      'version',
    );
  });
});
