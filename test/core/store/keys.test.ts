import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  PREFIX,
  TABLES,
  emptyCodec,
  idKeyCodec,
  idPairKeyCodec,
  intersectRanges,
  prefixRange,
  prefixUpperBound,
  tableKey,
  u32Codec,
  u32KeyCodec,
  u64Codec,
  utf8Codec,
} from '../../../src/core/store/index.ts';

const b = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
const hx = (x: Uint8Array | undefined): string | undefined => (x === undefined ? undefined : toHex(x));

describe('store keys and codecs', () => {
  it('prefixUpperBound skips trailing 0xff and has no bound for all-0xff', () => {
    expect(hx(prefixUpperBound(b(0x01)))).to.equal('02');
    expect(hx(prefixUpperBound(b(0x01, 0xff)))).to.equal('02');
    expect(hx(prefixUpperBound(b(0x01, 0xfe, 0xff, 0xff)))).to.equal('01ff');
    expect(prefixUpperBound(b(0xff, 0xff))).to.equal(undefined);
    expect(prefixUpperBound(b())).to.equal(undefined);
    const p = b(0x01, 0xff);
    prefixUpperBound(p);
    expect(hx(p)).to.equal('01ff'); // the input is not modified
    expect(prefixRange(b(0xff))).to.deep.equal({ gte: b(0xff) });
  });

  it('intersectRanges keeps the tighter bound of each side', () => {
    expect(
      intersectRanges({ gte: b(1), lt: b(9) }, { gt: b(1) }, { lte: b(5), reverse: true, limit: 2 }),
    ).to.deep.equal({ gt: b(1), lte: b(5), reverse: true, limit: 2 });
    expect(intersectRanges({ gte: b(2) }, { gt: b(1) })).to.deep.equal({ gte: b(2) });
    expect(intersectRanges({ lt: b(5) }, { lte: b(5) })).to.deep.equal({ lt: b(5) });
    expect(intersectRanges()).to.deep.equal({});
  });

  it('every table has its own prefix byte, and the node tables use the documented ones', () => {
    const bytes = Object.values(PREFIX);
    expect(new Set(bytes).size).to.equal(bytes.length);
    for (const [name, table] of Object.entries(TABLES))
      expect(table.prefix, name).to.equal(PREFIX[name as keyof typeof PREFIX]);
  });

  it('lays out keys as documented', () => {
    const id32 = new Uint8Array(32).fill(0xaa);
    const id36 = new Uint8Array(36).fill(0xbb);
    expect(toHex(tableKey(TABLES.blocks, id32))).to.equal('0120' + 'aa'.repeat(32));
    expect(toHex(tableKey(TABLES.children, [id32, id36]))).to.equal('0320' + 'aa'.repeat(32) + 'bb'.repeat(36));
    expect(toHex(tableKey(TABLES.milestones, 258))).to.equal('0700000102');
    expect(toHex(tableKey(TABLES.meta, 'ledgerIndex'))).to.equal('00' + toHex(utf8Codec.encode('ledgerIndex')));
  });

  it('u32 keys are big-endian (numeric order = byte order); values little-endian', () => {
    expect(toHex(u32KeyCodec.encode(0x01020304))).to.equal('01020304');
    expect(u32KeyCodec.decode(b(1, 2, 3, 4), 'k')).to.equal(0x01020304);
    expect(toHex(u32Codec.encode(0x01020304))).to.equal('04030201');
    expect(u64Codec.decode(u64Codec.encode(2n ** 64n - 1n), 'v')).to.equal(2n ** 64n - 1n);
    expect(() => u32KeyCodec.encode(-1)).to.throw(RangeError);
    expect(() => u32Codec.encode(2 ** 32)).to.throw(RangeError);
    expect(() => u64Codec.encode(2n ** 64n)).to.throw(RangeError);
    expect(() => u32KeyCodec.decode(b(1, 2, 3), 'milestones key')).to.throw(
      ProtocolError,
      /milestones key: need 4 bytes for index/,
    );
    expect(() => u32Codec.decode(b(1, 2, 3, 4, 5), 'v')).to.throw(ProtocolError, /trailing/);
  });

  it('id keys carry their length; pair keys split back into both ids', () => {
    const a = b(1, 2, 3);
    expect(hx(idKeyCodec.encode(a))).to.equal('03010203');
    expect(idKeyCodec.decode(b(3, 1, 2, 3), 'k')).to.deep.equal(a);
    expect(idPairKeyCodec.decode(b(2, 9, 9, 7, 7, 7), 'k')).to.deep.equal([b(9, 9), b(7, 7, 7)]);
    expect(() => idKeyCodec.decode(b(4, 1, 2, 3), 'k')).to.throw(ProtocolError, /TRUNCATED|need 4 bytes/);
    expect(() => idKeyCodec.decode(b(0), 'k')).to.throw(ProtocolError, /length 0/);
    expect(() => idPairKeyCodec.decode(b(2, 9, 9), 'children key')).to.throw(
      ProtocolError,
      /need at least 1 byte for second id, 0 left at offset 3/,
    );
    expect(() => idKeyCodec.encode(b())).to.throw(RangeError);
    expect(() => idKeyCodec.encode(new Uint8Array(256))).to.throw(RangeError);
    expect(() => idPairKeyCodec.encode([a, b()])).to.throw(RangeError);
  });

  it('set values are empty; utf8 values are strict', () => {
    expect(emptyCodec.encode(null).length).to.equal(0);
    expect(emptyCodec.decode(b(), 'tips value')).to.equal(null);
    expect(() => emptyCodec.decode(b(1), 'tips value')).to.throw(ProtocolError, /tips value: 1 trailing byte/);
    expect(utf8Codec.decode(utf8Codec.encode('shimmer ✓'), 'v')).to.equal('shimmer ✓');
    expect(() => utf8Codec.decode(b(0xc3), 'meta networkName')).to.throw(ProtocolError, /invalid UTF-8/);
  });
});
