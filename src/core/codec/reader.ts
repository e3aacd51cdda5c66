/**
 * A strict little-endian reader over a Uint8Array. Every read names the field it reads so that
 * a failure says what, where and the value: "Cannot decode block: need 32 bytes for parents[1] at offset 34, 5 left".
 */
import { reject, type ErrorCode } from '../errors.ts';

export class ByteReader {
  readonly bytes: Uint8Array;
  private readonly view: DataView;
  offset: number;
  /** What is being decoded, for messages ("block", "output", ...). */
  readonly subject: string;

  constructor(bytes: Uint8Array, subject = 'data', offset = 0) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
    this.subject = subject;
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  fail(code: ErrorCode, what: string, field: string, offset = this.offset, value?: string): never {
    const details = value === undefined ? { field, offset } : { field, offset, value };
    return reject(code, `Cannot decode ${this.subject}: ${what} at offset ${offset}`, details);
  }

  private need(n: number, field: string): void {
    if (this.bytes.length - this.offset < n) {
      this.fail('TRUNCATED', `need ${n} byte${n === 1 ? '' : 's'} for ${field}, ${this.remaining} left`, field);
    }
  }

  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.offset++]!;
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  u64(field: string): bigint {
    this.need(8, field);
    const v = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return v;
  }

  u256(field: string): bigint {
    this.need(32, field);
    let v = 0n;
    for (let i = 3; i >= 0; i--) v = (v << 64n) | this.view.getBigUint64(this.offset + i * 8, true);
    this.offset += 32;
    return v;
  }

  /** Fixed-size byte string; a copy, so the model never aliases the input buffer. */
  fixed(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  /** Length-prefixed byte string with the prefix width in bytes (1, 2 or 4) and inclusive bounds. */
  prefixed(width: 1 | 2 | 4, field: string, min: number, max: number): Uint8Array {
    const at = this.offset;
    const n = this.prefix(width, field, 'length');
    if (n < min || n > max) {
      this.fail('LENGTH_OUT_OF_RANGE', `${field} length ${n} is outside ${min}..${max}`, field, at, String(n));
    }
    return this.fixed(n, field);
  }

  /** A count prefix (u8 or u16) checked against inclusive bounds. */
  count(width: 1 | 2, field: string, min: number, max: number): number {
    const at = this.offset;
    const n = this.prefix(width, field, 'count');
    if (n < min || n > max) {
      this.fail('COUNT_OUT_OF_RANGE', `${field} count ${n} is outside ${min}..${max}`, field, at, String(n));
    }
    return n;
  }

  /** A length or count prefix; the field name is only assembled when the read fails. */
  private prefix(width: 1 | 2 | 4, field: string, kind: string): number {
    const at = this.offset;
    if (this.bytes.length - at < width) this.need(width, `${field} ${kind}`);
    this.offset = at + width;
    return width === 1 ? this.bytes[at]! : width === 2 ? this.view.getUint16(at, true) : this.view.getUint32(at, true);
  }

  /** The u32 at the current offset without consuming it (payload types behind a length prefix). */
  peekU32(field: string): number {
    this.need(4, field);
    return this.view.getUint32(this.offset, true);
  }

  /** The object must end exactly here. */
  end(): void {
    if (this.offset !== this.bytes.length) {
      this.fail('TRAILING_BYTES', `${this.remaining} trailing byte${this.remaining === 1 ? '' : 's'}`, this.subject);
    }
  }
}
