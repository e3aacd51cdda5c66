/**
 * JSON <-> model driven by the same layout tables as the binary codec (serix JSON as iota-core serves it):
 * u8/u16/u32 -> number, u64/i64 -> decimal string, uint256 -> 0x + big-endian minimal hex, bytes -> 0x hex,
 * empty optional lists / byte strings and absent payloads omitted (and accepted both ways when reading).
 * Reading enforces the same bounds, allowed types, order and object rules as binary decoding, naming the JSON path.
 */
import { clip, fromHex0x, toHex0x } from '../../bytes.ts';
import { reject, type ErrorCode } from '../../errors.ts';
import { encodeKind, runChecks } from '../codec/binary.ts';
import { checkEntryKey, setEntry, MAX_METADATA_BYTES, type Entries } from '../codec/entries.ts';
import { U256_MAX, U64_MAX, UINT_MAX, type Kind, type StructSchema } from '../codec/schema.ts';

type Obj = Record<string, unknown>;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const join = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

// ---------------------------------------------------------------------------------------------------------------
// model -> JSON

export function toJsonKind(kind: Kind, v: unknown): Json {
  switch (kind.k) {
    case 'int':
      return v as number;
    case 'u64':
    case 'i64':
      return (v as bigint).toString(10);
    case 'u256':
      return '0x' + (v as bigint).toString(16);
    case 'fixed':
    case 'bytes':
      return toHex0x(v as Uint8Array);
    case 'text':
      return v as string;
    case 'struct':
      return structToJson(kind.schema, v as Obj, {});
    case 'union':
    case 'payload': {
      const o = v as Obj;
      const schema = kind.family.members.get(o.type as number);
      if (!schema) return reject('UNKNOWN_TYPE', `Cannot render ${kind.family.name}: unknown type ${String(o.type)}`);
      return structToJson(schema, o, { type: o.type as number });
    }
    case 'list':
      return (v as unknown[]).map((item) => toJsonKind(kind.item, item));
    case 'entries': {
      const out: { [key: string]: Json } = {};
      for (const [key, value] of Object.entries(v as Entries)) {
        Object.defineProperty(out, key, {
          value: toHex0x(value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}

function structToJson(schema: StructSchema, o: Obj, out: { [key: string]: Json }): { [key: string]: Json } {
  for (const f of schema.fields) {
    const v = o[f.name];
    if (v === undefined && f.kind.k === 'payload') continue;
    if (f.omitEmpty && (Array.isArray(v) || v instanceof Uint8Array) && v.length === 0) continue;
    out[f.name] = toJsonKind(f.kind, v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// JSON -> model

class Ctx {
  constructor(readonly subject: string) {}

  fail(code: ErrorCode, path: string, what: string, value?: unknown): never {
    const where = path === '' ? '(top level)' : path;
    const shown =
      value === undefined
        ? undefined
        : clip(typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value));
    return reject(
      code,
      `Cannot read ${this.subject} JSON at ${where}: ${what}`,
      shown === undefined ? { field: where } : { field: where, value: shown },
    );
  }

  expected(path: string, what: string, v: unknown): never {
    return this.fail('INVALID_JSON', path, `expected ${what}, got ${describe(v)}`, v);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `string ${clip(JSON.stringify(v), 40)}`;
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
const SIGNED_DECIMAL = /^(0|-?[1-9][0-9]*)$/;
const HEX_NUMBER = /^0[xX](0|[1-9a-fA-F][0-9a-fA-F]*)$/;

function readKindJson(c: Ctx, kind: Kind, v: unknown, path: string): unknown {
  switch (kind.k) {
    case 'int': {
      const max = kind.max ?? UINT_MAX[kind.width];
      if (typeof v !== 'number' || !Number.isInteger(v)) return c.expected(path, 'an integer number', v);
      if (v < (kind.min ?? 0) || v > max)
        c.fail('VALUE_OUT_OF_RANGE', path, `${v} is outside ${kind.min ?? 0}..${max}`, v);
      return v;
    }
    case 'u64': {
      if (typeof v !== 'string' || !DECIMAL.test(v)) return c.expected(path, 'a decimal string', v);
      const n = BigInt(v);
      if (n > U64_MAX) c.fail('VALUE_OUT_OF_RANGE', path, `${v} does not fit in 64 bits`, v);
      return n;
    }
    case 'i64': {
      if (typeof v !== 'string' || !SIGNED_DECIMAL.test(v)) return c.expected(path, 'a signed decimal string', v);
      const n = BigInt(v);
      if (n !== BigInt.asIntN(64, n))
        c.fail('VALUE_OUT_OF_RANGE', path, `${v} does not fit in a signed 64-bit integer`, v);
      return n;
    }
    case 'u256': {
      if (typeof v !== 'string' || !HEX_NUMBER.test(v))
        return c.expected(path, 'a 0x-prefixed hex number without leading zeros', v);
      const n = BigInt('0x' + v.slice(2));
      if (n > U256_MAX) c.fail('VALUE_OUT_OF_RANGE', path, `${clip(v, 40)} does not fit in 256 bits`, v);
      return n;
    }
    case 'fixed': {
      const b = hexBytes(c, v, path);
      if (b.length !== kind.size)
        c.fail('LENGTH_OUT_OF_RANGE', path, `expected ${kind.size} bytes, got ${b.length}`, v);
      return b;
    }
    case 'bytes': {
      const b = hexBytes(c, v, path);
      if (b.length < kind.min || b.length > kind.max)
        c.fail('LENGTH_OUT_OF_RANGE', path, `length ${b.length} is outside ${kind.min}..${kind.max}`, v);
      return b;
    }
    case 'text': {
      if (typeof v !== 'string') return c.expected(path, 'a string', v);
      const n = new TextEncoder().encode(v).length;
      if (n < kind.min || n > kind.max)
        c.fail('LENGTH_OUT_OF_RANGE', path, `length ${n} is outside ${kind.min}..${kind.max}`, v);
      return v;
    }
    case 'struct':
      return readStructJson(c, kind.schema, objectOf(c, v, path), path, {});
    case 'union':
    case 'payload': {
      const o = objectOf(c, v, path);
      const type = o.type;
      if (type === undefined) c.fail('MISSING_FIELD', join(path, 'type'), 'missing');
      if (typeof type !== 'number' || !Number.isInteger(type))
        return c.expected(join(path, 'type'), 'an integer type code', type);
      const schema = kind.family.members.get(type);
      if (!schema) return c.fail('UNKNOWN_TYPE', path, `unknown ${kind.family.name} type ${type}`, type);
      if (kind.allowed && !kind.allowed.includes(type))
        c.fail('TYPE_NOT_ALLOWED', path, `${schema.name} (type ${type}) is not allowed here`, type);
      return readStructJson(c, schema, o, path, { type });
    }
    case 'list': {
      if (!Array.isArray(v)) return c.expected(path, 'an array', v);
      if (v.length < kind.min || v.length > kind.max)
        c.fail('COUNT_OUT_OF_RANGE', path, `count ${v.length} is outside ${kind.min}..${kind.max}`, v.length);
      const out: unknown[] = [];
      let prevBytes: Uint8Array | undefined;
      for (let i = 0; i < v.length; i++) {
        const p = `${path}[${i}]`;
        const item = readKindJson(c, kind.item, v[i], p);
        if (kind.order) {
          const b = encodeKind(kind.item, item, p);
          if (prevBytes && kind.order(out[i - 1], item, prevBytes, b) >= 0) {
            c.fail('NOT_SORTED_UNIQUE', p, `${path} must be ${kind.orderName}: element ${i} breaks the order`);
          }
          prevBytes = b;
        }
        out.push(item);
      }
      return out;
    }
    case 'entries': {
      const o = objectOf(c, v, path);
      const keys = Object.keys(o);
      if (keys.length < 1 || keys.length > 255)
        c.fail('COUNT_OUT_OF_RANGE', path, `${keys.length} entries, need 1..255`);
      const out: Entries = {};
      let total = 1;
      for (const key of keys) {
        const problem = checkEntryKey(key);
        if (problem) c.fail('INVALID_FIELD', path, `key ${JSON.stringify(key)}: ${problem}`, key);
        const value = hexBytes(c, o[key], join(path, key));
        total += 3 + key.length + value.length;
        setEntry(out, key, value);
      }
      if (total > MAX_METADATA_BYTES)
        c.fail('LENGTH_OUT_OF_RANGE', path, `entries take ${total} bytes, more than ${MAX_METADATA_BYTES}`);
      return out;
    }
  }
}

function readStructJson(c: Ctx, schema: StructSchema, o: Obj, path: string, into: Obj): Obj {
  for (const f of schema.fields) {
    const p = join(path, f.name);
    const has = Object.hasOwn(o, f.name);
    const v = has ? o[f.name] : undefined;
    if (v === undefined) {
      if (f.kind.k === 'payload') continue;
      if (f.omitEmpty) {
        into[f.name] = f.kind.k === 'list' ? readKindJson(c, f.kind, [], p) : readKindJson(c, f.kind, '0x', p);
        continue;
      }
      c.fail('MISSING_FIELD', p, 'missing');
    }
    into[f.name] = readKindJson(c, f.kind, v, p);
  }
  runChecks(schema, into, (code, message, field) =>
    c.fail(code, field ? join(path, field) : path, `${schema.name}: ${message}`),
  );
  return into;
}

function objectOf(c: Ctx, v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return c.expected(path, 'an object', v);
  return v as Obj;
}

function hexBytes(c: Ctx, v: unknown, path: string): Uint8Array {
  if (typeof v !== 'string') return c.expected(path, 'a 0x-prefixed hex string', v);
  try {
    return fromHex0x(v, path);
  } catch {
    return c.fail('INVALID_HEX', path, 'not a 0x-prefixed hex string of whole bytes', v);
  }
}

/** Reads a whole JSON value of `kind` ("subject" names it in messages). */
export function fromJsonKind(kind: Kind, json: unknown, subject: string): unknown {
  return readKindJson(new Ctx(subject), kind, json, '');
}
