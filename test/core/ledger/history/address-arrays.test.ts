/** AddressArrays: one serialized array per distinct address, the bytes of encodeAddress. */
import { expect } from 'chai';
import { encodeAddress } from '../../../../src/core/codec/address.ts';
import { AddressArrays } from '../../../../src/core/ledger/history/owner.ts';
import type { Address } from '../../../../src/core/model/address.ts';

const id = (b: number): Uint8Array => new Uint8Array(32).fill(b);

describe('history: AddressArrays', () => {
  it('gives the bytes of encodeAddress, one array per address whatever object names it', () => {
    const arrays = new AddressArrays();
    const a = arrays.of({ type: 0, pubKeyHash: id(1) });
    expect(a).to.deep.equal(encodeAddress({ type: 0, pubKeyHash: id(1) }));
    expect(arrays.of({ type: 0, pubKeyHash: id(1) })).to.equal(a);
    expect(arrays.of({ type: 0, pubKeyHash: id(2) })).to.not.equal(a);
  });

  it('tells the types apart for the same 32 bytes', () => {
    const arrays = new AddressArrays();
    const all: Address[] = [
      { type: 0, pubKeyHash: id(3) },
      { type: 8, aliasId: id(3) },
      { type: 16, nftId: id(3) },
    ];
    const bytes = all.map((a) => arrays.of(a));
    expect(bytes).to.deep.equal(all.map((a) => encodeAddress(a)));
    expect(new Set(bytes).size).to.equal(3);
  });

  it('refuses what encodeAddress refuses', () => {
    const arrays = new AddressArrays();
    expect(() => arrays.of({ type: 0, pubKeyHash: new Uint8Array(31) })).to.throw(RangeError);
    expect(() => arrays.of({ type: 1, pubKeyHash: id(0) } as unknown as Address)).to.throw(RangeError);
  });
});
