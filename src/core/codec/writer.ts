/** A growable little-endian writer. One instance can be reused (reset) to avoid allocation in hot loops. */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initialCapacity = 1024) {
    this.buf = new Uint8Array(initialCapacity);
    this.view = new DataView(this.buf.buffer);
  }

  reset(): this {
    this.length = 0;
    return this;
  }

  private ensure(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.length++] = v;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
    return this;
  }

  u64(v: bigint): this {
    this.ensure(8);
    this.view.setBigUint64(this.length, v, true);
    this.length += 8;
    return this;
  }

  u256(v: bigint): this {
    this.ensure(32);
    for (let i = 0; i < 4; i++) {
      this.view.setBigUint64(this.length + i * 8, v & 0xffffffffffffffffn, true);
      v >>= 64n;
    }
    this.length += 32;
    return this;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  /** Reserves a u32 to be patched later (embedded payload length); returns its position. */
  reserveU32(): number {
    this.ensure(4);
    const at = this.length;
    this.length += 4;
    return at;
  }

  patchU32(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }

  /** A copy of what was written. */
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  /** A view of what was written (valid until the next write or reset). */
  written(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
