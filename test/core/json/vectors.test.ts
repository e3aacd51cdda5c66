/**
 * Every JSON in the test vectors (test/vectors): JSON → model → JSON gives the node's JSON back (deep equal).
 */
import { expect } from 'chai';
import {
  addressFromJson,
  addressToJson,
  blockFromJson,
  blockToJson,
  essenceFromJson,
  essenceToJson,
  featureFromJson,
  featureToJson,
  inputFromJson,
  inputToJson,
  milestoneOptionFromJson,
  milestoneOptionToJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  payloadToJson,
  signatureFromJson,
  signatureToJson,
  tokenSchemeFromJson,
  tokenSchemeToJson,
  unlockFromJson,
  unlockToJson,
} from '../../../src/core/json/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
type RoundTrip = (json: unknown) => unknown;

const rt = {
  block: (j: unknown) => blockToJson(blockFromJson(j)),
  payload: (j: unknown) => payloadToJson(payloadFromJson(j)),
  essence: (j: unknown) => essenceToJson(essenceFromJson(j)),
  output: (j: unknown) => outputToJson(outputFromJson(j)),
  address: (j: unknown) => addressToJson(addressFromJson(j)),
  feature: (j: unknown) => featureToJson(featureFromJson(j)),
  features: (j: unknown) => (j as unknown[]).map((f) => featureToJson(featureFromJson(f))),
  input: (j: unknown) => inputToJson(inputFromJson(j)),
  signature: (j: unknown) => signatureToJson(signatureFromJson(j)),
  unlock: (j: unknown) => unlockToJson(unlockFromJson(j)),
  tokenScheme: (j: unknown) => tokenSchemeToJson(tokenSchemeFromJson(j)),
  milestoneOption: (j: unknown) => milestoneOptionToJson(milestoneOptionFromJson(j)),
} satisfies Record<string, RoundTrip>;

function objectKind(name: string): RoundTrip {
  if (name.endsWith('-address')) return rt.address;
  if (name.startsWith('feature-list')) return rt.features;
  if (name.endsWith('-feature')) return rt.feature;
  if (name.endsWith('-input')) return rt.input;
  if (name === 'ed25519-signature') return rt.signature;
  if (name.endsWith('-unlock')) return rt.unlock;
  if (name.endsWith('token-scheme')) return rt.tokenScheme;
  if (name.endsWith('-payload')) return rt.payload;
  if (name.endsWith('milestone-option')) return rt.milestoneOption;
  throw new Error(`no JSON mapping chosen for objects.json vector ${name}`);
}

function check(label: string, json: unknown, f: RoundTrip): void {
  it(label, () => {
    expect(f(json)).to.deep.equal(json);
  });
}

describe('core/json: vectors round trip JSON → model → JSON', () => {
  describe('blocks.json', () => {
    const file = loadVectors('stardust/blocks.json');
    let n = 0;
    for (const v of file.vectors as any[]) {
      if (v.json !== undefined) {
        check(`${v.name} (json)`, v.json, rt.block);
        n++;
      }
      const local = v.derived?.jsonDecodedLocally;
      if (local !== undefined) {
        check(`${v.name} (derived.jsonDecodedLocally)`, local, rt.block);
        n++;
      }
    }
    it('covers every block vector that has JSON', () => expect(n).to.be.greaterThanOrEqual(9));
  });

  describe('objects.json', () => {
    const file = loadVectors('stardust/objects.json');
    for (const v of file.vectors as any[]) check(v.name, v.json, objectKind(v.name));
  });

  describe('outputs.json', () => {
    const file = loadVectors('stardust/outputs.json');
    for (const v of file.serialization as any[]) check(v.name, v.json, rt.output);
  });

  describe('transactions.json', () => {
    const file = loadVectors('stardust/transactions.json');
    for (const v of file.vectors as any[]) {
      if (v.json !== undefined) check(v.name, v.json, v.json.type === 6 ? rt.payload : rt.essence);
      if (v.essenceJson !== undefined) check(`${v.name} essenceJson`, v.essenceJson, rt.essence);
      if (v.inputOutputJson !== undefined) check(`${v.name} inputOutputJson`, v.inputOutputJson, rt.output);
      if (v.expectedSignatureUnlock !== undefined)
        check(`${v.name} expectedSignatureUnlock`, v.expectedSignatureUnlock, rt.unlock);
    }
  });

  describe('milestones.json', () => {
    const file = loadVectors('stardust/milestones.json');
    for (const v of file.vectors as any[]) check(v.name, v.json, rt.payload);
  });

  describe('shimmer_mainnet_milestones_17339_17341.json', () => {
    const file = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
    for (const m of file.milestones as any[]) {
      check(`milestone ${m.index} milestonePayloadJson`, m.milestonePayloadJson, rt.payload);
      const outs = Object.entries(m.derived.referencedInputOutputs as Record<string, any>);
      it(`milestone ${m.index}: ${outs.length} referenced outputs (derived.outputJson)`, () => {
        for (const [id, o] of outs) expect(rt.output(o.outputJson), id).to.deep.equal(o.outputJson);
      });
    }
  });
});
