/**
 * Outputs (docs/protocol.md §5): treasury (2), basic (3), alias (4), foundry (5), NFT (6). Empty optional lists are
 * omitted.
 */
import {
  ID_LENGTH,
  LIMITS,
  OUTPUT_ALIAS,
  OUTPUT_BASIC,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  OUTPUT_TREASURY,
  type CommonOutput,
  type Feature,
  type NativeToken,
  type Output,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import { featureToJson, parseFeature } from './feature.ts';
import { nativeTokenToJson, parseNativeToken } from './native-token.ts';
import type { JsonPath } from './path.ts';
import {
  readFixed,
  readList,
  readObject,
  readOptionalBytes,
  readOptionalList,
  readU32,
  readU64,
  required,
  type JsonObject,
} from './read.ts';
import { parseTokenScheme, tokenSchemeToJson } from './token-scheme.ts';
import { readType, type TypeContext, type TypeFamily } from './type.ts';
import type { CommonOutputJson, FeatureJson, NativeTokenJson, OutputJson } from './types.ts';
import { parseUnlockCondition, unlockConditionToJson } from './unlock-condition.ts';
import { bytesToJson, u64ToJson } from './write.ts';

export const OUTPUT_TYPES: TypeFamily = {
  what: 'output',
  names: {
    [OUTPUT_TREASURY]: 'treasury',
    [OUTPUT_BASIC]: 'basic',
    [OUTPUT_ALIAS]: 'alias',
    [OUTPUT_FOUNDRY]: 'foundry',
    [OUTPUT_NFT]: 'NFT',
  },
};

export const IN_ESSENCE: TypeContext = {
  allowed: [OUTPUT_BASIC, OUTPUT_ALIAS, OUTPUT_FOUNDRY, OUTPUT_NFT],
  where: 'a transaction essence',
};
export const IN_TREASURY_TRANSACTION: TypeContext = { allowed: [OUTPUT_TREASURY], where: 'a treasury transaction' };

// ---- model → JSON

function tokens(list: NativeToken[]): { nativeTokens?: NativeTokenJson[] } {
  return list.length > 0 ? { nativeTokens: list.map(nativeTokenToJson) } : {};
}

function feats(key: 'features' | 'immutableFeatures', list: Feature[]): { [k: string]: FeatureJson[] } {
  return list.length > 0 ? { [key]: list.map(featureToJson) } : {};
}

/**
 * Type, amount and native tokens, then the kind's `own` fields, then the lists (immutable features in all but basic).
 */
function commonOutputToJsonWith(o: CommonOutput, own: object): CommonOutputJson {
  return {
    type: o.type,
    amount: u64ToJson(o.amount),
    ...tokens(o.nativeTokens),
    ...own,
    unlockConditions: o.unlockConditions.map(unlockConditionToJson),
    ...feats('features', o.features),
    ...(o.type === OUTPUT_BASIC ? {} : feats('immutableFeatures', o.immutableFeatures)),
  } as CommonOutputJson;
}

export function outputToJson(o: Output): OutputJson {
  switch (o.type) {
    case OUTPUT_TREASURY:
      return { type: o.type, amount: u64ToJson(o.amount) };
    case OUTPUT_BASIC:
      return commonOutputToJsonWith(o, {});
    case OUTPUT_ALIAS:
      return commonOutputToJsonWith(o, {
        aliasId: bytesToJson(o.aliasId),
        stateIndex: o.stateIndex,
        ...(o.stateMetadata.length > 0 ? { stateMetadata: bytesToJson(o.stateMetadata) } : {}),
        foundryCounter: o.foundryCounter,
      });
    case OUTPUT_FOUNDRY:
      return commonOutputToJsonWith(o, { serialNumber: o.serialNumber, tokenScheme: tokenSchemeToJson(o.tokenScheme) });
    case OUTPUT_NFT:
      return commonOutputToJsonWith(o, { nftId: bytesToJson(o.nftId) });
    default:
      throw new TypeError(`outputToJson: unknown output type ${String((o as { type: unknown }).type)}`);
  }
}

// ---- JSON → model

interface ListLimits {
  readonly unlockConditions: { readonly max: number };
  readonly features: { readonly max: number };
  readonly immutableFeatures?: { readonly max: number };
}

function amount(o: JsonObject, p: JsonPath): bigint {
  return readU64(required(o, 'amount', p), p.key('amount'));
}

function nativeTokens(o: JsonObject, p: JsonPath): NativeToken[] {
  return readOptionalList(o, 'nativeTokens', p, LIMITS.nativeTokens.max, parseNativeToken);
}

/**
 * Amount and native tokens, then the kind's own fields (`own` reads them), then the lists (immutable features where
 * the kind's limits have them), read and keyed in that order.
 */
function parseCommonOutputWith(
  o: JsonObject,
  p: JsonPath,
  type: number,
  limits: ListLimits,
  own: () => object,
): CommonOutput {
  return {
    type,
    amount: amount(o, p),
    nativeTokens: nativeTokens(o, p),
    ...own(),
    unlockConditions: readList(
      required(o, 'unlockConditions', p),
      p.key('unlockConditions'),
      limits.unlockConditions.max,
      parseUnlockCondition,
    ),
    features: readOptionalList(o, 'features', p, limits.features.max, parseFeature),
    ...(limits.immutableFeatures
      ? { immutableFeatures: readOptionalList(o, 'immutableFeatures', p, limits.immutableFeatures.max, parseFeature) }
      : {}),
  } as CommonOutput;
}

export function parseOutput(v: unknown, p: JsonPath, context?: TypeContext): Output {
  const o = readObject(v, p);
  const type = readType(o, p, OUTPUT_TYPES, context);
  switch (type) {
    case OUTPUT_TREASURY:
      return { type, amount: amount(o, p) };
    case OUTPUT_BASIC:
      return parseCommonOutputWith(o, p, type, LIMITS.basic, () => ({}));
    case OUTPUT_ALIAS:
      return parseCommonOutputWith(o, p, type, LIMITS.alias, () => ({
        aliasId: readFixed(required(o, 'aliasId', p), p.key('aliasId'), ID_LENGTH),
        stateIndex: readU32(required(o, 'stateIndex', p), p.key('stateIndex')),
        stateMetadata: readOptionalBytes(o, 'stateMetadata', p, LIMITS.aliasStateMetadata.max),
        foundryCounter: readU32(required(o, 'foundryCounter', p), p.key('foundryCounter')),
      }));
    case OUTPUT_FOUNDRY:
      return parseCommonOutputWith(o, p, type, LIMITS.foundry, () => ({
        serialNumber: readU32(required(o, 'serialNumber', p), p.key('serialNumber')),
        tokenScheme: parseTokenScheme(required(o, 'tokenScheme', p), p.key('tokenScheme')),
      }));
    default:
      return parseCommonOutputWith(o, p, OUTPUT_NFT, LIMITS.nft, () => ({
        nftId: readFixed(required(o, 'nftId', p), p.key('nftId'), ID_LENGTH),
      }));
  }
}

export function parseCommonOutput(v: unknown, p: JsonPath): CommonOutput {
  return parseOutput(v, p, IN_ESSENCE) as CommonOutput;
}

export function commonOutputToJson(o: CommonOutput): CommonOutputJson {
  return outputToJson(o) as CommonOutputJson;
}

/** Any output, treasury included (GET outputs returns common outputs; the treasury output appears in receipts). */
export function outputFromJson(json: unknown): Output {
  return fromJson('output', json, (v, p) => parseOutput(v, p));
}
