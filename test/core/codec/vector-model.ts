/**
 * Turns the TIP-25-style JSON of the vector files into model objects, for tests only (the product's JSON mapping
 * lives in src/core/json and is tested there). Rules: `0x` strings are bytes, except u256 fields which become
 * bigint; decimal strings become bigint; omitted empty lists/byte strings get their empty model value.
 */
import { fromHex } from '../../../src/core/bytes.ts';

const U256_KEYS = new Set(['mintedTokens', 'meltedTokens', 'maximumSupply']);

type Kind = 'block' | 'payload' | 'output' | 'nativeToken' | 'other';

const LIST_KIND: Record<string, Kind> = { outputs: 'output', nativeTokens: 'nativeToken' };
const FIELD_KIND: Record<string, Kind> = { payload: 'payload', output: 'output', transaction: 'payload' };

function scalar(key: string, v: unknown, kind: Kind): unknown {
  if (typeof v !== 'string') return v;
  if (v.startsWith('0x')) {
    if (U256_KEYS.has(key) || (kind === 'nativeToken' && key === 'amount')) return BigInt(v);
    return fromHex(v);
  }
  if (/^[0-9]+$/.test(v)) return BigInt(v);
  return v;
}

const EMPTY = () => new Uint8Array(0);

function defaults(o: Record<string, unknown>, kind: Kind): void {
  if (kind === 'output' && typeof o.type === 'number' && o.type >= 3) {
    o.nativeTokens ??= [];
    o.unlockConditions ??= [];
    o.features ??= [];
    if (o.type !== 3) o.immutableFeatures ??= [];
    if (o.type === 4) o.stateMetadata ??= EMPTY();
  }
  if (kind === 'payload' && o.type === 5) {
    o.tag ??= EMPTY();
    o.data ??= EMPTY();
  }
  if (kind === 'payload' && o.type === 7) {
    o.metadata ??= EMPTY();
    o.options ??= [];
  }
  if (kind === 'block' && o.payload === null) delete o.payload;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function toModel(json: unknown, kind: Kind = 'other'): any {
  if (Array.isArray(json)) return json.map((x) => toModel(x, kind));
  if (json === null || typeof json !== 'object') return json;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    if (v !== null && typeof v === 'object') {
      out[k] = toModel(v, Array.isArray(v) ? (LIST_KIND[k] ?? 'other') : (FIELD_KIND[k] ?? 'other'));
    } else if (Array.isArray(v)) {
      out[k] = v;
    } else {
      out[k] = scalar(k, v, kind);
    }
  }
  // parents are arrays of strings: convert them to bytes
  for (const [k, v] of Object.entries(out)) {
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v.map((x: string) => fromHex(x));
  }
  defaults(out, kind);
  return out;
}

export const hex = (s: string): Uint8Array => fromHex(s);
