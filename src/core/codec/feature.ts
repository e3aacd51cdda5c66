/** Features (docs/protocol.md §8). */
import { FEATURE_ISSUER, FEATURE_METADATA, FEATURE_SENDER, FEATURE_TAG, type Feature } from '../model/output.ts';
import { LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readAddress, writeAddress } from './address.ts';
import { ascendingTypeProblem, countProblem, featureKindProblem, type Bounds } from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeCount, writePrefixed } from './common.ts';

/** One feature; when outputType >= 0 only the kinds that output allows (mutable or immutable list). */
export function readFeature(r: ByteReader, field: string, outputType = -1, immutable = false): Feature {
  const at = r.offset;
  const type = r.u8(field);
  if (outputType < 0) {
    if (type > FEATURE_TAG) r.fail('UNKNOWN_TYPE', `unknown feature type ${type}`, field, at, String(type));
  } else {
    const p = featureKindProblem(outputType, type, immutable);
    if (p) failAt(r, p, field, at, String(type));
  }
  switch (type) {
    case FEATURE_SENDER:
      return { type, address: readAddress(r, field) };
    case FEATURE_ISSUER:
      return { type, address: readAddress(r, field) };
    case FEATURE_METADATA:
      return { type, data: r.prefixed(2, 'feature.data', LIMITS.metadataFeature.min, LIMITS.metadataFeature.max) };
    default:
      return { type: FEATURE_TAG, tag: r.prefixed(1, 'feature.tag', LIMITS.tagFeature.min, LIMITS.tagFeature.max) };
  }
}

export function readFeatures(
  r: ByteReader,
  field: string,
  outputType: number,
  immutable: boolean,
  bounds: Bounds,
): Feature[] {
  const at = r.offset;
  const n = r.u8(field);
  const cp = countProblem(immutable ? 'immutable features' : 'features', n, bounds);
  if (cp) failAt(r, cp, field, at, String(n));
  const out: Feature[] = new Array(n);
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    const f = readFeature(r, field, outputType, immutable);
    if (i > 0) {
      const p = ascendingTypeProblem(immutable ? 'immutable feature' : 'feature', prev, f.type);
      if (p) failAt(r, p, field, start, String(f.type));
    }
    prev = f.type;
    out[i] = f;
  }
  return out;
}

export function writeFeature(w: ByteWriter, f: Feature): void {
  w.u8(f.type);
  switch (f.type) {
    case FEATURE_SENDER:
    case FEATURE_ISSUER:
      writeAddress(w, f.address);
      return;
    case FEATURE_METADATA:
      writePrefixed(w, f.data, 2, 'metadata feature');
      return;
    case FEATURE_TAG:
      writePrefixed(w, f.tag, 1, 'tag feature');
      return;
    default:
      throw new RangeError(`Cannot encode feature: unknown type ${String((f as Feature).type)}`);
  }
}

export function writeFeatures(w: ByteWriter, list: Feature[]): void {
  writeCount(w, list.length, 1, 'features');
  for (let i = 0; i < list.length; i++) writeFeature(w, list[i]!);
}

export function encodeFeature(f: Feature): Uint8Array {
  return encodeWith(writeFeature, f);
}

export function decodeFeature(bytes: Uint8Array): Feature {
  return decodeWhole(bytes, 'feature', (r) => readFeature(r, 'feature'));
}

/** A bare feature list (u8 count + features, ascending one per type), any known kinds. */
export function decodeFeatures(bytes: Uint8Array): Feature[] {
  return decodeWhole(bytes, 'features', (r) => {
    const n = r.u8('features');
    const out: Feature[] = new Array(n);
    let prev = -1;
    for (let i = 0; i < n; i++) {
      const start = r.offset;
      const f = readFeature(r, 'features');
      if (i > 0) {
        const p = ascendingTypeProblem('feature', prev, f.type);
        if (p) failAt(r, p, 'features', start, String(f.type));
      }
      prev = f.type;
      out[i] = f;
    }
    return out;
  });
}

export function encodeFeatures(list: Feature[]): Uint8Array {
  return encodeWith(writeFeatures, list);
}
