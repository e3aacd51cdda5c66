/**
 * Fixed-layout keys of the history tables (tables.ts): numbers big-endian (so keys sort numerically), IDs and
 * addresses at their fixed lengths. A key codec checks the lengths both ways, so a key of another layout never
 * decodes into a wrong value.
 */
import { ByteReader } from '../../codec/reader.ts';
import type { Codec } from '../../store/codec.ts';
import type { RangeOptions } from '../../store/kv.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { decodeTableKey, type Table } from '../../store/table.ts';

/** Writes the parts of one key into a buffer of exactly its length. */
export class KeyWriter {
  private readonly out: Uint8Array;
  private readonly view: DataView;
  private at = 0;

  constructor(
    private readonly what: string,
    length: number,
  ) {
    this.out = new Uint8Array(length);
    this.view = new DataView(this.out.buffer);
  }

  u8(v: number, field: string): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xff)
      throw new RangeError(`${this.what}: ${field} must be a u8, got ${v}`);
    this.out[this.at++] = v;
    return this;
  }

  u32(v: number, field: string): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
      throw new RangeError(`${this.what}: ${field} must be a u32, got ${v}`);
    this.view.setUint32(this.at, v, false);
    this.at += 4;
    return this;
  }

  u64(v: bigint, field: string): this {
    if (typeof v !== 'bigint' || v < 0n || v > 0xffffffffffffffffn)
      throw new RangeError(`${this.what}: ${field} must be a u64, got ${String(v)}`);
    this.view.setBigUint64(this.at, v, false);
    this.at += 8;
    return this;
  }

  fixed(bytes: Uint8Array, length: number, field: string): this {
    if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
      const got = bytes instanceof Uint8Array ? bytes.length : typeof bytes;
      throw new RangeError(`${this.what}: ${field} must be ${length} bytes, got ${got}`);
    }
    this.out.set(bytes, this.at);
    this.at += length;
    return this;
  }

  finish(): Uint8Array {
    if (this.at !== this.out.length)
      throw new RangeError(`${this.what}: wrote ${this.at} of ${this.out.length} key bytes`);
    return this.out;
  }
}

/** Big-endian reads over a ByteReader (which reads little-endian numbers). */
export function readU32BE(r: ByteReader, field: string): number {
  const b = r.fixed(4, field);
  return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, false);
}

export function readU64BE(r: ByteReader, field: string): bigint {
  const b = r.fixed(8, field);
  return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, false);
}

/** A key codec of `length` bytes from a writer and a reader of its parts. */
export function fixedKeyCodec<K>(
  what: string,
  length: number,
  write: (w: KeyWriter, k: K) => void,
  read: (r: ByteReader) => K,
): Codec<K> {
  return {
    encode: (k) => {
      const w = new KeyWriter(what, length);
      write(w, k);
      return w.finish();
    },
    decode: (b, subject) => {
      const r = new ByteReader(b, subject);
      const k = read(r);
      r.end();
      return k;
    },
  };
}

/** A value (or key) that is exactly `length` raw bytes. */
export function fixedBytesCodec(what: string, length: number): Codec<Uint8Array> {
  return fixedKeyCodec(
    what,
    length,
    (w, v) => w.fixed(v, length, what),
    (r) => r.fixed(length, what),
  );
}

/** `prefix byte ‖ parts`: the raw store-key bounds of range reads over part of a key. */
export function storeKey(prefix: number, ...parts: Uint8Array[]): Uint8Array {
  let length = 1;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  out[0] = prefix;
  let at = 1;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A u32 as 4 big-endian bytes (a key part). */
export function u32BE(v: number): Uint8Array {
  return new KeyWriter('key part', 4).u32(v, 'value').finish();
}

/** The decoded entries of `table` within a range of raw store keys (which must stay inside the table's prefix). */
export async function tableEntries<K, V>(store: NodeStore, table: Table<K, V>, range: RangeOptions): Promise<[K, V][]> {
  const out: [K, V][] = [];
  for await (const [key, value] of store.kv.entries(range))
    out.push([decodeTableKey(table, key), table.value.decode(value, `${table.name} value`)]);
  return out;
}

/**
 * A short-lived Map key for bytes (one char per byte, a flat string): the writes of one confirmation group thousands
 * of addresses and outputs, and hex text costs several times as much to make.
 */
export function byteKey(bytes: Uint8Array): string {
  return String.fromCharCode.apply(null, bytes as unknown as number[]);
}

/**
 * A map by the content of byte arrays that looks an array up by identity before making its byteKey: one string key
 * per distinct array object. The writes of a confirmation pass each address as one array (writes.ts interns them),
 * so its thousands of updates make one key per address, not per update; other arrays are still matched by content.
 */
export class BytesMap<V> {
  private readonly byArray = new Map<Uint8Array, V>();
  private readonly byContent = new Map<string, V>();

  get size(): number {
    return this.byContent.size;
  }

  /** The value of `bytes`' content; `make()`'s, added, when it has none. */
  getOrAdd(bytes: Uint8Array, make: () => V): V {
    let v = this.byArray.get(bytes);
    if (v !== undefined) return v;
    const key = byteKey(bytes);
    v = this.byContent.get(key);
    if (v === undefined) {
      v = make();
      this.byContent.set(key, v);
    }
    this.byArray.set(bytes, v);
    return v;
  }

  /** The values, in the order their contents were first added. */
  values(): IterableIterator<V> {
    return this.byContent.values();
  }
}

/** The decoded entries of `table` within a range of raw store keys, one at a time (a reader may stop early). */
export async function* tableRange<K, V>(
  store: NodeStore,
  table: Table<K, V>,
  range: RangeOptions,
): AsyncIterableIterator<[K, V]> {
  for await (const [key, value] of store.kv.entries(range))
    yield [decodeTableKey(table, key), table.value.decode(value, `${table.name} value`)];
}
