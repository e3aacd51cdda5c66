/** Structural equality of output parts, by canonical serialization (lists are sorted syntactically). */
import { equalBytes } from '../../bytes.ts';
import { encodeFeatures } from '../../codec/feature.ts';
import type { Feature, NativeToken } from '../../model/output.ts';

export function featuresEqual(a: Feature[], b: Feature[]): boolean {
  return equalBytes(encodeFeatures(a), encodeFeatures(b));
}

export function nativeTokensEqual(a: NativeToken[], b: NativeToken[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (!equalBytes(a[i]!.id, b[i]!.id) || a[i]!.amount !== b[i]!.amount) return false;
  }
  return true;
}
