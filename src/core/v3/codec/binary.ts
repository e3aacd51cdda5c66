/**
 * Binary (serix v2) reading and writing driven by the layout tables of `schema.ts`.
 * Reading is strict: bounds, allowed types, ordering and object rules are enforced where the bytes are, and the
 * error names the field path and offset. Writing enforces the same rules, so encode(decode(b)) === b.
 */
import { compareBytes, toHex0x } from '../../bytes.ts';
import { ProtocolError, reject, type ErrorCode } from '../../errors.ts';
import { ByteReader } from '../../codec/reader.ts';
import { ByteWriter } from '../../codec/writer.ts';
import { U256_MAX, U64_MAX, UINT_MAX, type Kind, type StructSchema } from './schema.ts';
import { checkEntryKey, entriesOf, setEntry, sortEntries, MAX_METADATA_BYTES, type Entries } from './entries.ts';

type Obj = Record<string, unknown>;

const join = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

// ---------------------------------------------------------------------------------------------------------------
// reading

export function readKind(r: ByteReader, kind: Kind, path: string): unknown {
  switch (kind.k) {
    case 'int': {
      const at = r.offset;
      const v = kind.width === 1 ? r.u8(path) : kind.width === 2 ? r.u16(path) : r.u32(path);
      if ((kind.min !== undefined && v < kind.min) || (kind.max !== undefined && v > kind.max)) {
        r.fail(
          'VALUE_OUT_OF_RANGE',
          `${path} ${v} is outside ${kind.min ?? 0}..${kind.max ?? UINT_MAX[kind.width]}`,
          path,
          at,
          String(v),
        );
      }
      return v;
    }
    case 'u64':
      return r.u64(path);
    case 'i64':
      return BigInt.asIntN(64, r.u64(path));
    case 'u256':
      return r.u256(path);
    case 'fixed':
      return r.fixed(kind.size, path);
    case 'bytes':
      return r.prefixed(kind.prefix, path, kind.min, kind.max);
    case 'text': {
      const at = r.offset;
      const b = r.prefixed(kind.prefix, path, kind.min, kind.max);
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(b);
      } catch {
        return r.fail('INVALID_FIELD', `${path} is not valid UTF-8`, path, at, toHex0x(b));
      }
    }
    case 'struct':
      return readStruct(r, kind.schema, path, {});
    case 'union': {
      const at = r.offset;
      const type = r.u8(`${path}.type`);
      const schema = kind.family.members.get(type);
      if (!schema)
        r.fail('UNKNOWN_TYPE', `unknown ${kind.family.name} type ${type} for ${path}`, path, at, String(type));
      if (kind.allowed && !kind.allowed.includes(type)) {
        r.fail('TYPE_NOT_ALLOWED', `${schema.name} (type ${type}) is not allowed in ${path}`, path, at, String(type));
      }
      return readStruct(r, schema, path, { type }, at);
    }
    case 'payload': {
      const at = r.offset;
      const len = r.u32(`${path} length`);
      if (len === 0) return undefined;
      if (len > r.remaining)
        r.fail('TRUNCATED', `${path} length ${len} exceeds the ${r.remaining} bytes left`, path, at, String(len));
      const end = r.offset + len;
      const sub = new ByteReader(r.bytes.subarray(0, end), r.subject, r.offset);
      let v: unknown;
      try {
        v = readKind(sub, { k: 'union', family: kind.family, allowed: kind.allowed }, path);
      } catch (e) {
        // The bytes were there, only the length prefix cut them off.
        if (!(e instanceof ProtocolError) || e.code !== 'TRUNCATED') throw e;
        r.fail(
          'PAYLOAD_LENGTH_MISMATCH',
          `${path} length prefix says ${len} bytes, the payload needs more (${e.message})`,
          path,
          at,
          String(len),
        );
      }
      if (sub.offset !== end) {
        r.fail(
          'PAYLOAD_LENGTH_MISMATCH',
          `${path} length prefix says ${len} bytes, the payload has ${sub.offset - (at + 4)}`,
          path,
          at,
          String(len),
        );
      }
      r.offset = end;
      return v;
    }
    case 'list': {
      const n = r.count(kind.prefix, path, kind.min, kind.max);
      const out: unknown[] = new Array(n);
      let prev: unknown;
      let prevBytes: Uint8Array | undefined;
      for (let i = 0; i < n; i++) {
        const at = r.offset;
        const p = `${path}[${i}]`;
        const v = readKind(r, kind.item, p);
        const b = r.bytes.subarray(at, r.offset);
        if (kind.order && prevBytes && kind.order(prev, v, prevBytes, b) >= 0) {
          r.fail('NOT_SORTED_UNIQUE', `${path} must be ${kind.orderName}: element ${i} breaks the order`, p, at);
        }
        prev = v;
        prevBytes = b;
        out[i] = v;
      }
      return out;
    }
    case 'entries':
      return readEntries(r, path);
  }
}

export function readStruct(r: ByteReader, schema: StructSchema, path: string, into: Obj, at = r.offset): Obj {
  for (const f of schema.fields) {
    const v = readKind(r, f.kind, join(path, f.name));
    if (v !== undefined) into[f.name] = v; // an absent optional payload leaves no key
  }
  runChecks(schema, into, (code, message, field) =>
    r.fail(code, `${schema.name}: ${message}`, field ? join(path, field) : path || schema.name, at),
  );
  return into;
}

function readEntries(r: ByteReader, path: string): Entries {
  const start = r.offset;
  const n = r.count(1, path, 1, 255);
  const out: Entries = {};
  let prev: Uint8Array | undefined;
  for (let i = 0; i < n; i++) {
    const at = r.offset;
    const keyBytes = r.prefixed(1, `${path} key`, 1, 64);
    let key = '';
    for (const c of keyBytes) key += String.fromCharCode(c);
    const problem = checkEntryKey(key);
    if (problem) r.fail('INVALID_FIELD', `${path} key ${JSON.stringify(key)}: ${problem}`, path, at, key);
    const value = r.prefixed(2, `${path}.${key}`, 0, MAX_METADATA_BYTES);
    const b = r.bytes.subarray(at, r.offset);
    if (prev && compareBytes(prev, b) >= 0) {
      r.fail(
        'NOT_SORTED_UNIQUE',
        `${path} entries must be sorted by their serialized bytes, unique: key ${JSON.stringify(key)} breaks the order`,
        path,
        at,
        key,
      );
    }
    prev = b;
    setEntry(out, key, value);
  }
  if (r.offset - start > MAX_METADATA_BYTES) {
    r.fail(
      'LENGTH_OUT_OF_RANGE',
      `${path} takes ${r.offset - start} bytes, more than ${MAX_METADATA_BYTES}`,
      path,
      start,
    );
  }
  return out;
}

export function runChecks(
  schema: StructSchema,
  v: Obj,
  fail: (code: ErrorCode, message: string, field?: string) => never,
): void {
  if (!schema.checks) return;
  for (const check of schema.checks) {
    const problem = check(v);
    if (problem) fail(problem.code, problem.message, problem.field);
  }
}

/** Decodes one whole object of `kind`; trailing bytes are an error. */
export function decodeKind(bytes: Uint8Array, kind: Kind, subject: string): unknown {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`Cannot decode ${subject}: expected a Uint8Array`);
  const r = new ByteReader(bytes, subject);
  const v = readKind(r, kind, '');
  r.end();
  return v;
}

// ---------------------------------------------------------------------------------------------------------------
// writing

function encodeFail(code: ErrorCode, message: string, field: string): never {
  return reject(code, `Cannot encode ${message}`, { field: field === '' ? '(top level)' : field });
}

/** "subject: path" or just the subject at the top level. */
const at = (subject: string, path: string): string => (path === '' ? subject : `${subject} ${path}`);

export function writeKind(w: ByteWriter, kind: Kind, v: unknown, path: string, subject = 'value'): void {
  switch (kind.k) {
    case 'int': {
      const max = kind.max ?? UINT_MAX[kind.width];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < (kind.min ?? 0) || v > max) {
        encodeFail(
          'VALUE_OUT_OF_RANGE',
          `${at(subject, path)}: expected an integer in ${kind.min ?? 0}..${max}, got ${String(v)}`,
          path,
        );
      }
      if (kind.width === 1) w.u8(v);
      else if (kind.width === 2) w.u16(v);
      else w.u32(v);
      return;
    }
    case 'u64':
      w.u64(bigIn(v, 0n, U64_MAX, path, subject));
      return;
    case 'i64':
      w.u64(BigInt.asUintN(64, bigIn(v, -(1n << 63n), (1n << 63n) - 1n, path, subject)));
      return;
    case 'u256':
      w.u256(bigIn(v, 0n, U256_MAX, path, subject));
      return;
    case 'fixed': {
      const b = bytesOf(v, path, subject);
      if (b.length !== kind.size)
        encodeFail('LENGTH_OUT_OF_RANGE', `${at(subject, path)}: expected ${kind.size} bytes, got ${b.length}`, path);
      w.bytes(b);
      return;
    }
    case 'bytes':
    case 'text': {
      const b = kind.k === 'text' ? textBytes(v, path, subject) : bytesOf(v, path, subject);
      if (b.length < kind.min || b.length > kind.max) {
        encodeFail(
          'LENGTH_OUT_OF_RANGE',
          `${at(subject, path)}: length ${b.length} is outside ${kind.min}..${kind.max}`,
          path,
        );
      }
      writePrefix(w, kind.prefix, b.length);
      w.bytes(b);
      return;
    }
    case 'struct':
      writeStruct(w, kind.schema, objOf(v, path, subject), path, subject);
      return;
    case 'union': {
      const o = objOf(v, path, subject);
      const type = o.type;
      const schema = typeof type === 'number' ? kind.family.members.get(type) : undefined;
      if (!schema)
        encodeFail('UNKNOWN_TYPE', `${at(subject, path)}: unknown ${kind.family.name} type ${String(type)}`, path);
      if (kind.allowed && !kind.allowed.includes(type as number)) {
        encodeFail(
          'TYPE_NOT_ALLOWED',
          `${at(subject, path)}: ${schema.name} (type ${String(type)}) is not allowed here`,
          path,
        );
      }
      w.u8(type as number);
      writeStruct(w, schema, o, path, subject);
      return;
    }
    case 'payload': {
      if (v === undefined || v === null) {
        w.u32(0);
        return;
      }
      const at = w.reserveU32();
      writeKind(w, { k: 'union', family: kind.family, allowed: kind.allowed }, v, path, subject);
      w.patchU32(at, w.length - at - 4);
      return;
    }
    case 'list': {
      if (!Array.isArray(v)) encodeFail('INVALID_FIELD', `${at(subject, path)}: expected an array`, path);
      if (v.length < kind.min || v.length > kind.max) {
        encodeFail(
          'COUNT_OUT_OF_RANGE',
          `${at(subject, path)}: count ${v.length} is outside ${kind.min}..${kind.max}`,
          path,
        );
      }
      writePrefix(w, kind.prefix, v.length);
      let prevStart = -1;
      let prevEnd = -1;
      for (let i = 0; i < v.length; i++) {
        const start = w.length;
        writeKind(w, kind.item, v[i], `${path}[${i}]`, subject);
        if (kind.order && prevStart >= 0) {
          const all = w.written();
          if (kind.order(v[i - 1], v[i], all.slice(prevStart, prevEnd), all.slice(start, w.length)) >= 0) {
            encodeFail(
              'NOT_SORTED_UNIQUE',
              `${at(subject, path)} must be ${kind.orderName}: element ${i} breaks the order`,
              `${path}[${i}]`,
            );
          }
        }
        prevStart = start;
        prevEnd = w.length;
      }
      return;
    }
    case 'entries':
      writeEntries(w, v, path, subject);
      return;
  }
}

export function writeStruct(w: ByteWriter, schema: StructSchema, o: Obj, path: string, subject = 'value'): void {
  for (const f of schema.fields) writeKind(w, f.kind, o[f.name], join(path, f.name), subject);
  runChecks(schema, o, (code, message, field) =>
    encodeFail(code, `${at(subject, path)}: ${schema.name}: ${message}`, field ? join(path, field) : path),
  );
}

function writeEntries(w: ByteWriter, v: unknown, path: string, subject: string): void {
  const list = entriesOf(v, at(subject, path));
  if (list.length < 1 || list.length > 255)
    encodeFail('COUNT_OUT_OF_RANGE', `${at(subject, path)}: ${list.length} entries, need 1..255`, path);
  const start = w.length;
  w.u8(list.length);
  for (const e of sortEntries(list)) w.bytes(e.bytes);
  if (w.length - start > MAX_METADATA_BYTES) {
    encodeFail(
      'LENGTH_OUT_OF_RANGE',
      `${at(subject, path)}: ${w.length - start} bytes, more than ${MAX_METADATA_BYTES}`,
      path,
    );
  }
}

function writePrefix(w: ByteWriter, width: 1 | 2 | 4, n: number): void {
  if (width === 1) w.u8(n);
  else if (width === 2) w.u16(n);
  else w.u32(n);
}

function bigIn(v: unknown, min: bigint, max: bigint, path: string, subject: string): bigint {
  if (typeof v !== 'bigint' || v < min || v > max) {
    return encodeFail(
      'VALUE_OUT_OF_RANGE',
      `${at(subject, path)}: expected a bigint in ${min}..${max}, got ${String(v)}`,
      path,
    );
  }
  return v;
}

function bytesOf(v: unknown, path: string, subject: string): Uint8Array {
  if (!(v instanceof Uint8Array))
    return encodeFail('INVALID_FIELD', `${at(subject, path)}: expected a Uint8Array`, path);
  return v;
}

function textBytes(v: unknown, path: string, subject: string): Uint8Array {
  if (typeof v !== 'string') return encodeFail('INVALID_FIELD', `${at(subject, path)}: expected a string`, path);
  return new TextEncoder().encode(v);
}

function objOf(v: unknown, path: string, subject: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return encodeFail('MISSING_FIELD', `${at(subject, path)}: expected an object`, path);
  return v as Obj;
}

/** Serializes one value of `kind`. */
export function encodeKind(kind: Kind, v: unknown, subject: string): Uint8Array {
  const w = new ByteWriter(256);
  writeKind(w, kind, v, '', subject);
  return w.finish();
}
