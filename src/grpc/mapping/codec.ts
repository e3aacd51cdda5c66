/**
 * The building blocks of the proto <-> model mapping: a `Codec` converts one value both ways, and the builders
 * below (scalars, fixed-length bytes, u256, optional, list, struct, union) compose the tables of `stardust.ts`.
 * Both directions check the same rules (integer widths, fixed byte lengths, required messages, known kinds), so a
 * bad value is rejected wherever it comes from, with a ProtocolError naming the field path and the value.
 */
import { ProtocolError, type ErrorCode } from '../../core/errors.ts';

export interface Codec<M, P> {
  /** Model value -> generated protobuf message value. */
  toProto(value: M, path: string): P;
  /** Generated protobuf message value -> model value (an absent message arrives as `undefined`). */
  fromProto(value: P | undefined, path: string): M;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCodec = Codec<unknown, unknown>;

function fail(code: ErrorCode, path: string, problem: string, value?: string): never {
  const got = value === undefined ? '' : `, got ${value}`;
  throw new ProtocolError(
    code,
    `Cannot convert ${path}: ${problem}${got}`,
    value === undefined ? { field: path } : { field: path, value },
  );
}

export function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function show(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return `${v.length} bytes`;
  return String(v);
}

/** An unsigned integer of `bits` (8, 16, 32) width; the model and the proto both hold a `number`. */
function uint(bits: 8 | 16 | 32): Codec<number, number> {
  const max = 2 ** bits - 1;
  const check = (v: number | undefined, path: string): number => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
      fail('VALUE_OUT_OF_RANGE', path, `expected an integer 0..${max} (u${bits})`, show(v));
    }
    return v;
  };
  return { toProto: check, fromProto: check };
}

export const u8 = uint(8);
export const u16 = uint(16);
export const u32 = uint(32);

const U64_MAX = (1n << 64n) - 1n;
const checkU64 = (v: bigint | undefined, path: string): bigint => {
  if (typeof v !== 'bigint' || v < 0n || v > U64_MAX)
    fail('VALUE_OUT_OF_RANGE', path, 'expected an integer 0..2^64-1 (u64)', show(v));
  return v;
};
export const u64: Codec<bigint, bigint> = { toProto: checkU64, fromProto: checkU64 };

const checkBool = (v: boolean | undefined, path: string): boolean => {
  if (typeof v !== 'boolean') fail('INVALID_FIELD', path, 'expected a boolean', show(v));
  return v;
};
export const bool: Codec<boolean, boolean> = { toProto: checkBool, fromProto: checkBool };

const checkBytes = (v: Uint8Array | undefined, path: string): Uint8Array => {
  if (!(v instanceof Uint8Array)) fail('INVALID_FIELD', path, 'expected bytes', show(v));
  return v;
};
const checkString = (v: string | undefined, path: string): string => {
  if (typeof v !== 'string') fail('INVALID_FIELD', path, 'expected a string', show(v));
  return v;
};
export const string: Codec<string, string> = { toProto: checkString, fromProto: checkString };

/** Variable-length bytes (length limits are the validator's business). */
export const bytes: Codec<Uint8Array, Uint8Array> = { toProto: checkBytes, fromProto: checkBytes };

/** Bytes of exactly `length` bytes (identifiers, keys, signatures, hashes). */
export function fixedBytes(length: number): Codec<Uint8Array, Uint8Array> {
  const check = (value: Uint8Array | undefined, path: string): Uint8Array => {
    const v = checkBytes(value, path);
    if (v.length !== length) fail('LENGTH_OUT_OF_RANGE', path, `expected ${length} bytes`, String(v.length));
    return v;
  };
  return { toProto: check, fromProto: check };
}

export const U256_BYTES = 32;
const U256_MAX = (1n << 256n) - 1n;

/** u256 as exactly 32 bytes, big-endian (most significant byte first). */
export function u256ToBytes(v: bigint, path = 'u256'): Uint8Array {
  if (typeof v !== 'bigint' || v < 0n || v > U256_MAX)
    fail('VALUE_OUT_OF_RANGE', path, 'expected an integer 0..2^256-1 (u256)', show(v));
  const out = new Uint8Array(U256_BYTES);
  let x = v;
  for (let i = U256_BYTES - 1; i >= 0 && x > 0n; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

export function u256FromBytes(value: Uint8Array | undefined, path = 'u256'): bigint {
  const b = checkBytes(value, path);
  if (b.length !== U256_BYTES)
    fail('LENGTH_OUT_OF_RANGE', path, `expected ${U256_BYTES} bytes (u256, big-endian)`, String(b.length));
  let v = 0n;
  for (let i = 0; i < U256_BYTES; i++) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

export const u256: Codec<bigint, Uint8Array> = { toProto: u256ToBytes, fromProto: u256FromBytes };

/** A nested message that must be present. */
function required<M, P>(codec: Codec<M, P>): Codec<M, P> {
  return {
    toProto: (v, path) => {
      if (v === undefined || v === null) fail('MISSING_FIELD', path, 'missing');
      return codec.toProto(v, path);
    },
    fromProto: (v, path) => {
      if (v === undefined || v === null) fail('MISSING_FIELD', path, 'missing');
      return codec.fromProto(v, path);
    },
  };
}

/** A nested message that may be absent (undefined on both sides). */
export function optional<M, P>(codec: Codec<M, P>): Codec<M | undefined, P | undefined> {
  return {
    toProto: (v, path) => (v === undefined || v === null ? undefined : codec.toProto(v, path)),
    fromProto: (v, path) => (v === undefined || v === null ? undefined : codec.fromProto(v, path)),
  };
}

export function list<M, P>(codec: Codec<M, P>): Codec<M[], P[]> {
  const each =
    <A, B>(f: (x: A, path: string) => B) =>
    (v: A[] | undefined, path: string): B[] => {
      if (!Array.isArray(v)) fail('INVALID_FIELD', path, 'expected a list', show(v));
      return v.map((x, i) => f(x, `${path}[${i}]`));
    };
  return { toProto: each(codec.toProto), fromProto: each(codec.fromProto) };
}

/**
 * Field table of a struct: one codec per model field except the `type` tag, keyed by the model's field name, which
 * must also be the generated message's field name with a matching type (checked at compile time both ways round:
 * a model field without a codec, or without a same-named proto field, does not compile). Optional model fields
 * need `optional()`.
 */
export type Fields<M, P> = { [K in Exclude<keyof M, 'type'>]-?: K extends keyof P ? Codec<M[K], P[K]> : never };

/**
 * A message whose protobuf fields carry the model's field names (ts-proto camel-cases the snake_case .proto names).
 * `type` is the model's type tag, restored on the way back (absent for objects without one). A missing message
 * is MISSING_FIELD in both directions.
 */
export function struct<M extends object, P extends object>(
  type: number | undefined,
  fields: Fields<M, P>,
): Codec<M, P> {
  const entries = Object.entries(fields) as [string, AnyCodec][];
  const inner: Codec<M, P> = {
    toProto: (model, path) => {
      const tag = (model as { type?: unknown }).type;
      if (type !== undefined && tag !== type) fail('TYPE_NOT_ALLOWED', path, `expected type ${type}`, show(tag));
      const out: Record<string, unknown> = {};
      for (const [key, codec] of entries)
        out[key] = codec.toProto((model as Record<string, unknown>)[key], join(path, key));
      return out as P;
    },
    fromProto: (msg, path) => {
      const out: Record<string, unknown> = type === undefined ? {} : { type };
      for (const [key, codec] of entries) {
        const v = codec.fromProto((msg! as Record<string, unknown>)[key], join(path, key));
        if (v !== undefined) out[key] = v;
      }
      return out as M;
    },
  };
  return required(inner);
}

/** One case of a union: the model's type tag, the `$case` name of the proto oneof, and the case's codec. */
export interface UnionCase {
  type: number;
  case: string;
  codec: AnyCodec;
}

/**
 * A union of object kinds: model `{ type, ... }` <-> proto `{ kind: { $case, value } }` (a `oneof kind`).
 * `what` names the union in messages ("output", "address").
 */
export function union<M extends { type: number }, P extends { kind?: { $case: string; value: unknown } | undefined }>(
  what: string,
  cases: UnionCase[],
): Codec<M, P> {
  const byType = new Map(cases.map((c) => [c.type, c]));
  const byCase = new Map(cases.map((c) => [c.case, c]));
  const typeList = cases.map((c) => c.type).join(', ');
  const caseList = cases.map((c) => c.case).join(', ');
  const inner: Codec<M, P> = {
    toProto: (model, path) => {
      const c = byType.get(model.type);
      if (!c)
        fail('TYPE_NOT_ALLOWED', path, `${what} type ${show(model.type)} is not allowed here (one of ${typeList})`);
      return { kind: { $case: c.case, value: c.codec.toProto(model, path) } } as P;
    },
    fromProto: (msg, path) => {
      const kind = msg!.kind;
      if (kind === undefined || kind === null) fail('MISSING_FIELD', path, `no ${what} kind set (one of ${caseList})`);
      const c = byCase.get(kind.$case);
      if (!c)
        fail('TYPE_NOT_ALLOWED', path, `${what} kind ${show(kind.$case)} is not allowed here (one of ${caseList})`);
      return c.codec.fromProto(kind.value, path) as M;
    },
  };
  return required(inner);
}
