/**
 * Byte codecs for table keys and values. Key codecs must preserve order where a table is read as a range
 * (numbers are big-endian in keys, so byte order = numeric order); values use little-endian like the protocol.
 * Decoding is strict: wrong lengths raise ProtocolError (TRUNCATED / TRAILING_BYTES) naming the field and offset.
 */
import { utf8Decode, utf8Encode } from '../bytes.ts';
import { decodeWhole } from '../codec/common.ts';
import { ByteReader } from '../codec/reader.ts';
import { reject } from '../errors.ts';

export interface Codec<T> {
  encode(value: T): Uint8Array;
  /** `subject` names the record in error messages ("blockMetadata value"). */
  decode(bytes: Uint8Array, subject: string): T;
}

/** Raw bytes, copied both ways. */
export const bytesCodec: Codec<Uint8Array> = {
  encode: (v) => v.slice(),
  decode: (b) => b.slice(),
};

/** Sets store an empty value; anything else in it is corruption. */
export const emptyCodec: Codec<null> = {
  encode: () => new Uint8Array(0),
  decode: (b, subject) => {
    new ByteReader(b, subject).end();
    return null;
  },
};

/** A u32 as 4 big-endian bytes, so keys sort numerically (milestone indexes, slots). */
export const u32KeyCodec: Codec<number> = {
  encode: (v) => u32Bytes(v, 'u32 key', false),
  decode: (b, subject) => decodeWhole(b, subject, (r) => new DataView(r.fixed(4, 'index').buffer).getUint32(0, false)),
};

/**
 * A u32 `field` (big-endian, so a range is "at or below N") followed by a block ID (the rest of the key; an empty one
 * only as a range bound): the unreferenced blocks by confirmed index, the v3 blocks by slot.
 */
export function u32BlockKeyCodec<F extends string>(field: F): Codec<Record<F, number> & { blockId: Uint8Array }> {
  return {
    encode: (key) => {
      const out = new Uint8Array(4 + key.blockId.length);
      out.set(u32KeyCodec.encode(key[field]), 0);
      out.set(key.blockId, 4);
      return out;
    },
    decode: (b, subject) => {
      if (b.length < 5)
        return reject(
          'TRUNCATED',
          `Cannot decode ${subject}: need a 4-byte ${field} and a block ID, got ${b.length} bytes`,
          { field: subject },
        );
      const n = u32KeyCodec.decode(b.subarray(0, 4), subject);
      return { [field]: n, blockId: b.slice(4) } as Record<F, number> & { blockId: Uint8Array };
    },
  };
}

/** A u32 value, little-endian. */
export const u32Codec: Codec<number> = {
  encode: (v) => u32Bytes(v, 'u32 value', true),
  decode: (b, subject) => decodeWhole(b, subject, (r) => r.u32('value')),
};

/** A u64 value, little-endian. */
export const u64Codec: Codec<bigint> = {
  encode: (v) => {
    if (typeof v !== 'bigint' || v < 0n || v > 0xffffffffffffffffn)
      throw new RangeError(`u64 value out of range: ${String(v)}`);
    const out = new Uint8Array(8);
    new DataView(out.buffer).setBigUint64(0, v, true);
    return out;
  },
  decode: (b, subject) => decodeWhole(b, subject, (r) => r.u64('value')),
};

export const utf8Codec: Codec<string> = {
  encode: (v) => utf8Encode(v),
  decode: (b, subject) => {
    try {
      return utf8Decode(b);
    } catch {
      return reject('INVALID_FIELD', `Cannot decode ${subject}: invalid UTF-8 at offset 0`, {
        field: subject,
        offset: 0,
      });
    }
  },
};

/**
 * An identifier of 1..255 bytes behind a one-byte length: v2 IDs (32 bytes) and v3 IDs (36 bytes) can share a
 * table without one ever being a prefix-scan match of the other.
 */
export const idKeyCodec: Codec<Uint8Array> = {
  encode: (id) => idPrefix(id),
  decode: (b, subject) => decodeWhole(b, subject, (r) => r.prefixed(1, 'id', 1, 255)),
};

/**
 * `len(a) ‖ a ‖ b`: a prefix scan over `idPrefix(a)` lists every `b` paired with `a` (children, re-attachments).
 */
export const idPairKeyCodec: Codec<readonly [Uint8Array, Uint8Array]> = {
  encode: ([a, b]) => {
    if (b.length === 0) throw new RangeError('second id of a pair key must not be empty');
    const head = idPrefix(a);
    const out = new Uint8Array(head.length + b.length);
    out.set(head, 0);
    out.set(b, head.length);
    return out;
  },
  decode: (bytes, subject) => {
    const r = new ByteReader(bytes, subject);
    const a = r.prefixed(1, 'first id', 1, 255);
    if (r.remaining === 0) r.fail('TRUNCATED', 'need at least 1 byte for second id, 0 left', 'second id');
    return [a, r.fixed(r.remaining, 'second id')] as const;
  },
};

/** The key bytes every pair `[id, *]` starts with. */
export function idPrefix(id: Uint8Array): Uint8Array {
  if (!(id instanceof Uint8Array) || id.length < 1 || id.length > 255) {
    throw new RangeError(`id must be 1..255 bytes, got ${id instanceof Uint8Array ? id.length + ' bytes' : typeof id}`);
  }
  const out = new Uint8Array(1 + id.length);
  out[0] = id.length;
  out.set(id, 1);
  return out;
}

/** The 4 bytes of a u32 (big-endian in keys, little-endian in values); `what` names it when out of range. */
function u32Bytes(v: number, what: string, littleEndian: boolean): Uint8Array {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${what} out of range: ${v}`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v, littleEndian);
  return out;
}
