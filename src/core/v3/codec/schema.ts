/**
 * The v3 object layouts as data. Every protocol object is described once, as a list of fields; the binary codec
 * (`binary.ts`) and the JSON mapping (`../json/generic.ts`) both walk these descriptions, so the two formats can never
 * disagree on field order, widths, bounds, allowed types or ordering rules.
 *
 * A model value is a plain object whose keys are the JSON names iota-core emits (`type` first for polymorphic
 * objects); u64/i64/u256 are bigint, u8/u16/u32 are number, byte strings are Uint8Array, text is string.
 */
import type { ErrorCode } from '../../errors.ts';

/** A rule broken by an object; `field` is relative to the object ("" = the object itself). */
export interface CheckFailure {
  code: ErrorCode;
  message: string;
  field?: string;
}

/** Object-level rule run after the object was read (binary or JSON) and before it is written. */
export type Check = (value: Record<string, unknown>) => CheckFailure | undefined;

/**
 * Strict order between two neighbouring list elements: must return < 0 for every (previous, next) pair.
 * `a`/`b` are the models, `ab`/`bb` their serialized bytes.
 */
export type Order = (a: unknown, b: unknown, ab: Uint8Array, bb: Uint8Array) => number;

export type Kind =
  | { k: 'int'; width: 1 | 2 | 4; min?: number; max?: number }
  | { k: 'u64' }
  | { k: 'i64' }
  | { k: 'u256' }
  | { k: 'fixed'; size: number }
  | { k: 'bytes'; prefix: 1 | 2 | 4; min: number; max: number }
  | { k: 'text'; prefix: 1; min: number; max: number }
  | { k: 'struct'; schema: StructSchema }
  | { k: 'union'; family: Family; allowed?: readonly number[] }
  | { k: 'list'; prefix: 1 | 2; min: number; max: number; item: Kind; order?: Order; orderName?: string }
  | { k: 'payload'; family: Family; allowed: readonly number[] }
  | { k: 'entries' };

export interface Field {
  name: string;
  kind: Kind;
  /** JSON omits the key when the list / byte string is empty (the binary still writes its zero prefix). */
  omitEmpty?: boolean;
}

export interface StructSchema {
  /** Human name used in messages ("basic output"). */
  name: string;
  fields: Field[];
  checks?: Check[];
}

/** A polymorphic family: a u8 type code, then the member's fields. */
export interface Family {
  name: string;
  members: Map<number, StructSchema>;
}

export function family(name: string): Family {
  return { name, members: new Map() };
}

export function member(f: Family, type: number, name: string, fields: Field[], checks?: Check[]): StructSchema {
  const s: StructSchema = checks ? { name, fields, checks } : { name, fields };
  f.members.set(type, s);
  return s;
}

// Field helpers, so the layout tables read like the spec tables.
export const u8 = (name: string, min?: number, max?: number): Field => ({ name, kind: bounded(1, min, max) });
export const u16 = (name: string, min?: number, max?: number): Field => ({ name, kind: bounded(2, min, max) });
export const u32 = (name: string, min?: number, max?: number): Field => ({ name, kind: bounded(4, min, max) });
export const u64 = (name: string): Field => ({ name, kind: { k: 'u64' } });
export const i64 = (name: string): Field => ({ name, kind: { k: 'i64' } });
export const u256 = (name: string): Field => ({ name, kind: { k: 'u256' } });
export const fixed = (name: string, size: number): Field => ({ name, kind: { k: 'fixed', size } });
export const bytes = (name: string, prefix: 1 | 2 | 4, min: number, max: number, omitEmpty = false): Field =>
  omitEmpty
    ? { name, kind: { k: 'bytes', prefix, min, max }, omitEmpty }
    : { name, kind: { k: 'bytes', prefix, min, max } };
export const text = (name: string, min: number, max: number): Field => ({
  name,
  kind: { k: 'text', prefix: 1, min, max },
});
export const struct = (name: string, schema: StructSchema): Field => ({ name, kind: { k: 'struct', schema } });
export const union = (name: string, fam: Family, allowed?: readonly number[]): Field => ({
  name,
  kind: allowed ? { k: 'union', family: fam, allowed } : { k: 'union', family: fam },
});
export const payload = (name: string, fam: Family, allowed: readonly number[]): Field => ({
  name,
  kind: { k: 'payload', family: fam, allowed },
});
export const entries = (name: string): Field => ({ name, kind: { k: 'entries' } });

export interface ListOptions {
  prefix: 1 | 2;
  min: number;
  max: number;
  omitEmpty?: boolean;
  order?: Order;
  /** Words for the order rule in messages ("sorted by account ID, unique"). */
  orderName?: string;
}

export function list(name: string, item: Kind, o: ListOptions): Field {
  const kind: Kind = { k: 'list', prefix: o.prefix, min: o.min, max: o.max, item };
  if (o.order) {
    kind.order = o.order;
    kind.orderName = o.orderName ?? 'sorted, unique';
  }
  return o.omitEmpty ? { name, kind, omitEmpty: true } : { name, kind };
}

function bounded(width: 1 | 2 | 4, min?: number, max?: number): Kind {
  const kind: Kind = { k: 'int', width };
  if (min !== undefined) kind.min = min;
  if (max !== undefined) kind.max = max;
  return kind;
}

export const UINT_MAX: Record<1 | 2 | 4, number> = { 1: 0xff, 2: 0xffff, 4: 0xffffffff };
export const U64_MAX = (1n << 64n) - 1n;
export const U256_MAX = (1n << 256n) - 1n;
