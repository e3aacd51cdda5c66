/**
 * JSON ⇄ model ⇄ bytes against the binary codec: for every vector that has both JSON and bytes,
 * JSON → model → bytes equals the vector's bytes and bytes → model → JSON equals the vector's JSON.
 */
import { expect } from 'chai';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import {
  decodeAddress,
  decodeBlock,
  decodeFeature,
  decodeFeatures,
  decodeInput,
  decodeMilestoneOption,
  decodeOutput,
  decodePayload,
  decodeSignature,
  decodeTokenScheme,
  decodeTransactionEssence,
  decodeUnlock,
  encodeAddress,
  encodeBlock,
  encodeFeature,
  encodeFeatures,
  encodeInput,
  encodeMilestoneOption,
  encodeOutput,
  encodePayload,
  encodeSignature,
  encodeTokenScheme,
  encodeTransactionEssence,
  encodeUnlock,
} from '../../../src/core/codec/index.ts';
import * as J from '../../../src/core/json/index.ts';
import type { Feature, MilestonePayload } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
interface Kind<M> {
  fromJson: (j: unknown) => M;
  toJson: (m: M) => unknown;
  encode: (m: M) => Uint8Array;
  decode: (b: Uint8Array) => M;
}

const kinds = {
  block: {
    fromJson: (j) => J.blockFromJson(j),
    toJson: J.blockToJson,
    encode: encodeBlock,
    decode: (b) => decodeBlock(b),
  },
  payload: { fromJson: J.payloadFromJson, toJson: J.payloadToJson, encode: encodePayload, decode: decodePayload },
  essence: {
    fromJson: J.essenceFromJson,
    toJson: J.essenceToJson,
    encode: encodeTransactionEssence,
    decode: decodeTransactionEssence,
  },
  output: { fromJson: J.outputFromJson, toJson: J.outputToJson, encode: encodeOutput, decode: decodeOutput },
  address: { fromJson: J.addressFromJson, toJson: J.addressToJson, encode: encodeAddress, decode: decodeAddress },
  feature: { fromJson: J.featureFromJson, toJson: J.featureToJson, encode: encodeFeature, decode: decodeFeature },
  features: {
    fromJson: (j) => (j as unknown[]).map(J.featureFromJson),
    toJson: (m: Feature[]) => m.map(J.featureToJson),
    encode: encodeFeatures,
    decode: decodeFeatures,
  } as Kind<Feature[]>,
  input: { fromJson: J.inputFromJson, toJson: J.inputToJson, encode: encodeInput, decode: decodeInput },
  signature: {
    fromJson: J.signatureFromJson,
    toJson: J.signatureToJson,
    encode: encodeSignature,
    decode: decodeSignature,
  },
  unlock: { fromJson: J.unlockFromJson, toJson: J.unlockToJson, encode: encodeUnlock, decode: decodeUnlock },
  tokenScheme: {
    fromJson: J.tokenSchemeFromJson,
    toJson: J.tokenSchemeToJson,
    encode: encodeTokenScheme,
    decode: decodeTokenScheme,
  },
  milestoneOption: {
    fromJson: J.milestoneOptionFromJson,
    toJson: J.milestoneOptionToJson,
    encode: encodeMilestoneOption,
    decode: decodeMilestoneOption,
  },
} satisfies Record<string, Kind<any>>;

function objectKind(name: string): Kind<any> {
  if (name.endsWith('-address')) return kinds.address;
  if (name.startsWith('feature-list')) return kinds.features;
  if (name.endsWith('-feature')) return kinds.feature;
  if (name.endsWith('-input')) return kinds.input;
  if (name === 'ed25519-signature') return kinds.signature;
  if (name.endsWith('-unlock')) return kinds.unlock;
  if (name.endsWith('token-scheme')) return kinds.tokenScheme;
  if (name.endsWith('-payload')) return kinds.payload;
  if (name.endsWith('milestone-option')) return kinds.milestoneOption;
  throw new Error(`no kind chosen for objects.json vector ${name}`);
}

/** Both directions; `encodeOnly` for serialization-only fixtures the strict decoder refuses. */
function both(label: string, kind: Kind<any>, json: unknown, bytesHex: string, encodeOnly = false): void {
  it(`${label}: JSON → model → bytes`, () => {
    expect(toHex(kind.encode(kind.fromJson(json)))).to.equal(bytesHex);
  });
  if (!encodeOnly) {
    it(`${label}: bytes → model → JSON`, () => {
      expect(kind.toJson(kind.decode(fromHex(bytesHex)))).to.deep.equal(json);
    });
  }
}

describe('core/json ⇄ core/codec: vectors with JSON and bytes', () => {
  describe('blocks.json', () => {
    const file = loadVectors('stardust/blocks.json');
    for (const v of file.vectors as any[]) {
      if (v.json !== undefined) both(`${v.name} (json)`, kinds.block, v.json, v.bytes);
      if (v.derived?.jsonDecodedLocally !== undefined)
        both(`${v.name} (jsonDecodedLocally)`, kinds.block, v.derived.jsonDecodedLocally, v.bytes);
    }
  });

  describe('objects.json', () => {
    const file = loadVectors('stardust/objects.json');
    for (const v of file.vectors as any[]) both(v.name, objectKind(v.name), v.json, v.bytes);
  });

  describe('outputs.json', () => {
    const file = loadVectors('stardust/outputs.json');
    for (const v of file.serialization as any[]) {
      // The iota.js foundry (Address UC) and NFT (no UCs) fixtures are serialization-only (docs/protocol.md §20.13).
      both(v.name, kinds.output, v.json, v.bytes, /SERIALIZATION ONLY/.test(v.notes ?? ''));
    }
  });

  describe('transactions.json', () => {
    const file = loadVectors('stardust/transactions.json');
    for (const v of file.vectors as any[]) {
      if (v.json?.type === 6) {
        both(`${v.name} payload`, kinds.payload, v.json, v.derived.transactionPayloadHex);
        both(`${v.name} essence`, kinds.essence, v.json.essence, v.derived.essenceHex);
      } else if (v.json !== undefined) {
        both(v.name, kinds.essence, v.json, v.bytes);
      }
      if (v.essenceJson !== undefined)
        both(`${v.name} essenceJson`, kinds.essence, v.essenceJson, v.derived.essenceHex);
      if (v.inputOutputJson !== undefined)
        both(`${v.name} inputOutputJson`, kinds.output, v.inputOutputJson, v.derived.inputOutputHex);
    }
  });

  describe('milestones.json', () => {
    const file = loadVectors('stardust/milestones.json');
    for (const v of file.vectors as any[]) {
      if (v.payloadBytes !== undefined) both(v.name, kinds.payload, v.json, v.payloadBytes);
      if (v.derived?.blockHex !== undefined) {
        it(`${v.name}: the milestone block (version 2, milestone parents, nonce 0) encodes to derived.blockHex`, () => {
          const payload = J.payloadFromJson(v.json) as MilestonePayload;
          const block = J.blockFromJson({ protocolVersion: 2, parents: v.json.parents, payload: v.json, nonce: '0' });
          expect(block.payload).to.deep.equal(payload);
          expect(toHex(encodeBlock(block))).to.equal(v.derived.blockHex);
        });
      }
    }
  });

  describe('shimmer_mainnet_milestones_17339_17341.json', () => {
    const file = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
    for (const m of file.milestones as any[]) {
      it(`milestone ${m.index}: referenced outputs, JSON ⇄ bytes both ways`, () => {
        for (const [id, o] of Object.entries(m.derived.referencedInputOutputs as Record<string, any>)) {
          expect(toHex(encodeOutput(J.outputFromJson(o.outputJson))), id).to.equal(o.outputBytes);
          expect(J.outputToJson(decodeOutput(fromHex(o.outputBytes))), id).to.deep.equal(o.outputJson);
        }
      });
      it(`milestone ${m.index}: every cone block survives bytes → model → JSON → model → bytes`, () => {
        for (const c of m.coneInWhiteFlagOrder as any[]) {
          const json = J.blockToJson(decodeBlock(fromHex(c.bytes)));
          const again = J.blockFromJson(JSON.parse(JSON.stringify(json)));
          expect(toHex(encodeBlock(again)), c.blockId).to.equal(c.bytes);
        }
      });
    }
  });
});
