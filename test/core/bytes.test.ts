import { expect } from 'chai';
import { compareBytes, fromHex, fromHex0x, toHex0x } from '../../src/core/bytes.ts';
import { ByteReader } from '../../src/core/codec/reader.ts';
import { ByteWriter } from '../../src/core/codec/writer.ts';
import { ProtocolError } from '../../src/core/errors.ts';

describe('core/bytes', () => {
  it('hex round trip, lowercase, 0x', () => {
    const b = fromHex('0x00ff10AB');
    expect(Array.from(b)).to.deep.equal([0, 255, 16, 171]);
    expect(toHex0x(b)).to.equal('0x00ff10ab');
  });
  it('rejects odd length, bad digits and a missing 0x where it is required', () => {
    expect(() => fromHex('0xabc'))
      .to.throw(ProtocolError)
      .with.property('code', 'INVALID_HEX');
    expect(() => fromHex('0xzz'))
      .to.throw(ProtocolError)
      .with.property('code', 'INVALID_HEX');
    expect(() => fromHex0x('abcd', 'tag')).to.throw(/tag/);
  });
  it('compares lexically, shorter prefix first', () => {
    expect(compareBytes(fromHex('01'), fromHex('0100'))).to.be.lessThan(0);
    expect(compareBytes(fromHex('02'), fromHex('0100'))).to.be.greaterThan(0);
    expect(compareBytes(fromHex('0100'), fromHex('0100'))).to.equal(0);
  });
  it('reader/writer agree on little-endian integers up to u256', () => {
    const w = new ByteWriter(4);
    const big = (1n << 255n) + 12345678901234567890n;
    w.u8(7).u16(0xbeef).u32(0xdeadbeef).u64(0xffffffffffffffffn).u256(big);
    const r = new ByteReader(w.finish(), 'test');
    expect(r.u8('a')).to.equal(7);
    expect(r.u16('b')).to.equal(0xbeef);
    expect(r.u32('c')).to.equal(0xdeadbeef);
    expect(r.u64('d')).to.equal(0xffffffffffffffffn);
    expect(r.u256('e')).to.equal(big);
    r.end();
  });
  it('names field and offset when bytes run out or remain', () => {
    const r = new ByteReader(fromHex('0102'), 'block');
    r.u8('protocolVersion');
    expect(() => r.u32('payload length')).to.throw(
      'Cannot decode block: need 4 bytes for payload length, 1 left at offset 1',
    );
    const r2 = new ByteReader(fromHex('0102'), 'block');
    r2.u8('x');
    expect(() => r2.end())
      .to.throw(ProtocolError)
      .with.property('code', 'TRAILING_BYTES');
  });
});
