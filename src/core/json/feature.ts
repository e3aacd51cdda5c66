/** Features (docs/protocol.md §8): sender/issuer `address`, metadata `data`, tag `tag`. */
import { FEATURE_ISSUER, FEATURE_METADATA, FEATURE_SENDER, FEATURE_TAG, LIMITS, type Feature } from '../model/index.ts';
import { addressToJson, parseAddress } from './address.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readBytes, readObject, required } from './read.ts';
import { readType, type TypeFamily } from './type.ts';
import type { FeatureJson } from './types.ts';
import { bytesToJson } from './write.ts';

export const FEATURE_TYPES: TypeFamily = {
  what: 'feature',
  names: {
    [FEATURE_SENDER]: 'sender',
    [FEATURE_ISSUER]: 'issuer',
    [FEATURE_METADATA]: 'metadata',
    [FEATURE_TAG]: 'tag',
  },
};

export function featureToJson(f: Feature): FeatureJson {
  switch (f.type) {
    case FEATURE_SENDER:
    case FEATURE_ISSUER:
      return { type: f.type, address: addressToJson(f.address) };
    case FEATURE_METADATA:
      return { type: f.type, data: bytesToJson(f.data) };
    case FEATURE_TAG:
      return { type: f.type, tag: bytesToJson(f.tag) };
    default:
      throw new TypeError(`featureToJson: unknown feature type ${String((f as { type: unknown }).type)}`);
  }
}

export function parseFeature(v: unknown, p: JsonPath): Feature {
  const o = readObject(v, p);
  const type = readType(o, p, FEATURE_TYPES);
  switch (type) {
    case FEATURE_SENDER:
    case FEATURE_ISSUER:
      return { type, address: parseAddress(required(o, 'address', p), p.key('address')) } as Feature;
    case FEATURE_METADATA: {
      const { min, max } = LIMITS.metadataFeature;
      return { type, data: readBytes(required(o, 'data', p), p.key('data'), min, max) };
    }
    default: {
      const { min, max } = LIMITS.tagFeature;
      return { type: FEATURE_TAG, tag: readBytes(required(o, 'tag', p), p.key('tag'), min, max) };
    }
  }
}

export function featureFromJson(json: unknown): Feature {
  return fromJson('feature', json, parseFeature);
}
