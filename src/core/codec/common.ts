/** Small helpers shared by every codec file: whole-buffer decoding, a reused writer, fixed-width writes. */
import { ByteReader } from './reader.ts';
import { ByteWriter } from './writer.ts';
import type { Problem } from './rules.ts';

/** Raises a Problem found by a shared rule at the reader's location. */
export function failAt(r: ByteReader, p: Problem, field: string, offset: number, value?: string): never {
  return r.fail(p.code, p.what, field, offset, value);
}

/** Decodes an object that must fill `bytes` exactly. */
export function decodeWhole<T>(bytes: Uint8Array, subject: string, read: (r: ByteReader) => T): T {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`Cannot decode ${subject}: expected a Uint8Array`);
  const r = new ByteReader(bytes, subject);
  const v = read(r);
  r.end();
  return v;
}

const shared = new ByteWriter(4096);
let busy = false;

/** Encodes with one reused writer (a fresh one if called re-entrantly); returns a copy of the bytes. */
export function encodeWith<T>(write: (w: ByteWriter, v: T) => void, v: T): Uint8Array {
  if (busy) {
    const w = new ByteWriter(256);
    write(w, v);
    return w.finish();
  }
  busy = true;
  try {
    write(shared.reset(), v);
    return shared.finish();
  } finally {
    busy = false;
  }
}

/** Number of bytes `write` produces for `v`, without copying them out. */
export function encodedLength<T>(write: (w: ByteWriter, v: T) => void, v: T): number {
  if (busy) {
    const w = new ByteWriter(256);
    write(w, v);
    return w.length;
  }
  busy = true;
  try {
    write(shared.reset(), v);
    return shared.length;
  } finally {
    busy = false;
  }
}

/** Writes a fixed-size byte string; a wrong size is a programming mistake (RangeError), never silent. */
export function writeFixed(w: ByteWriter, b: Uint8Array, n: number, field: string): void {
  if (!(b instanceof Uint8Array) || b.length !== n) {
    throw new RangeError(
      `Cannot encode ${field}: expected ${n} bytes, got ${b instanceof Uint8Array ? b.length : typeof b}`,
    );
  }
  w.bytes(b);
}

/** Writes a length-prefixed byte string (prefix width 1, 2 or 4 bytes). */
export function writePrefixed(w: ByteWriter, b: Uint8Array, width: 1 | 2 | 4, field: string): void {
  const max = width === 1 ? 0xff : width === 2 ? 0xffff : 0xffffffff;
  if (!(b instanceof Uint8Array) || b.length > max) {
    throw new RangeError(
      `Cannot encode ${field}: length ${b instanceof Uint8Array ? b.length : typeof b} ` +
        `does not fit a ${width * 8}-bit prefix`,
    );
  }
  if (width === 1) w.u8(b.length);
  else if (width === 2) w.u16(b.length);
  else w.u32(b.length);
  w.bytes(b);
}

/** Writes a list count prefix (u8 or u16). */
export function writeCount(w: ByteWriter, n: number, width: 1 | 2, field: string): void {
  if (n > (width === 1 ? 0xff : 0xffff))
    throw new RangeError(`Cannot encode ${field}: ${n} elements do not fit a ${width * 8}-bit count`);
  if (width === 1) w.u8(n);
  else w.u16(n);
}
