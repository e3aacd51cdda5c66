/**
 * encodeAddress writes the 33 bytes directly: the same bytes as writeAddress through a ByteWriter, the same
 * refusals.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { encodeAddress, writeAddress } from '../../../src/core/codec/address.ts';
import { ByteWriter } from '../../../src/core/codec/writer.ts';
import type { Address } from '../../../src/core/model/address.ts';

const viaWriter = (a: Address): Uint8Array => {
  const w = new ByteWriter(8);
  writeAddress(w, a);
  return w.finish();
};

const id = fc.uint8Array({ minLength: 32, maxLength: 32 });
const anyAddress: fc.Arbitrary<Address> = fc.oneof(
  id.map((pubKeyHash) => ({ type: 0 as const, pubKeyHash })),
  id.map((aliasId) => ({ type: 8 as const, aliasId })),
  id.map((nftId) => ({ type: 16 as const, nftId })),
);

describe('codec: encodeAddress', () => {
  it('equals writeAddress for every address type', () => {
    fc.assert(
      fc.property(anyAddress, (a) => {
        const bytes = encodeAddress(a);
        expect(bytes).to.deep.equal(viaWriter(a));
        expect(bytes.length).to.equal(33);
      }),
      { numRuns: 300 },
    );
  });

  it('returns a fresh array each time', () => {
    const a: Address = { type: 0, pubKeyHash: new Uint8Array(32).fill(7) };
    const first = encodeAddress(a);
    expect(encodeAddress(a)).to.not.equal(first);
    expect(first.buffer.byteLength).to.equal(33);
  });

  it('refuses what writeAddress refuses, with the same message', () => {
    const bad = [
      { type: 1, pubKeyHash: new Uint8Array(32) },
      { type: 0, pubKeyHash: new Uint8Array(31) },
      { type: 8, aliasId: 'not bytes' },
    ] as unknown as Address[];
    for (const a of bad) {
      const expected = (() => {
        try {
          viaWriter(a);
        } catch (e) {
          return (e as Error).message;
        }
        throw new Error('writeAddress accepted a bad address');
      })();
      expect(() => encodeAddress(a)).to.throw(RangeError, expected);
    }
  });
});
