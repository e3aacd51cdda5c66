/** Every address kind of the spec: hand-checked bytes, binary and JSON round trips, and the multi/restricted rules. */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import { addresses, ed, implicit, multi, restricted } from './fixtures.ts';
import { h, protocolError, type Any } from './helpers.ts';

describe('v3 kinds: addresses', () => {
  it('hand-checked bytes of the multi and restricted addresses', () => {
    const m = V3.encodeAddressV3(multi);
    expect(m.length).to.equal(1 + 1 + (33 + 1) * 2 + 2);
    expect(h(m.subarray(0, 2))).to.equal('0x2802');
    expect(h(m.subarray(m.length - 2))).to.equal('0x0300');
    const r = V3.encodeAddressV3(restricted);
    expect(r[0]).to.equal(48);
    expect(h(r.subarray(r.length - 2))).to.equal('0x0101');
  });
  for (const a of addresses) {
    it(`type ${a.type}: binary and JSON round trips`, () => {
      const bytes = V3.encodeAddressV3(a);
      expect(V3.decodeAddressV3(bytes)).to.deep.equal(a);
      const json = V3.addressToJsonV3(a);
      expect((json as Any).type).to.equal(a.type);
      expect(V3.addressFromJsonV3(json)).to.deep.equal(a);
    });
  }
  it('multi address rules: threshold ≤ sum of weights, no nested multi, sorted unique', () => {
    expect(protocolError(() => V3.encodeAddressV3({ ...multi, threshold: 4 })).code).to.equal('VALUE_OUT_OF_RANGE');
    const nested = {
      type: 40,
      addresses: [
        { address: multi, weight: 1 },
        { address: ed(1), weight: 1 },
      ],
      threshold: 1,
    } as Any;
    expect(protocolError(() => V3.encodeAddressV3(nested)).code).to.equal('TYPE_NOT_ALLOWED');
    const unsorted = { ...multi, addresses: [multi.addresses[1]!, multi.addresses[0]!] };
    expect(protocolError(() => V3.encodeAddressV3(unsorted)).code).to.equal('NOT_SORTED_UNIQUE');
    const bytes = V3.encodeAddressV3(multi);
    const swapped = Uint8Array.from([
      ...bytes.subarray(0, 2),
      ...bytes.subarray(36, 70),
      ...bytes.subarray(2, 36),
      ...bytes.subarray(70),
    ]);
    expect(protocolError(() => V3.decodeAddressV3(swapped)).code).to.equal('NOT_SORTED_UNIQUE');
    const zeroWeight = bytes.slice();
    zeroWeight[35] = 0;
    expect(protocolError(() => V3.decodeAddressV3(zeroWeight)).code).to.equal('VALUE_OUT_OF_RANGE');
  });
  it('restricted address: no trailing zero capability byte, no implicit inside', () => {
    expect(
      protocolError(() => V3.encodeAddressV3({ ...restricted, allowedCapabilities: Uint8Array.of(1, 0) })).code,
    ).to.equal('INVALID_FIELD');
    expect(protocolError(() => V3.encodeAddressV3({ ...restricted, address: implicit } as Any)).code).to.equal(
      'TYPE_NOT_ALLOWED',
    );
    const json = V3.addressToJsonV3({ ...restricted, allowedCapabilities: new Uint8Array(0) }) as Any;
    expect(json).not.to.have.property('allowedCapabilities');
  });
});
