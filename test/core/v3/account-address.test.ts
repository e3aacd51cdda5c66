/**
 * v3 account addresses in bech32 (src/core/v3/ids/account-address.ts): iota.go's own example (api/core_test.go, the
 * account ID 0xff followed by zeros under `rms`), the round trip, and each refusal with its code.
 */
import { expect } from 'chai';
import { bech32Encode } from '../../../src/core/ids/bech32.ts';
import { accountAddressToBech32V3, accountIdFromBech32V3 } from '../../../src/core/v3/ids/account-address.ts';
import { protocolErrorOf } from '../../support/protocol-error.ts';

const IOTA_GO_ID = Uint8Array.of(0xff, ...new Uint8Array(31));
const IOTA_GO_ADDRESS = 'rms1prlsqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqcyz9fx';

describe('core v3: account addresses in bech32', () => {
  it("writes iota.go's example and reads it back", () => {
    expect(accountAddressToBech32V3('rms', IOTA_GO_ID)).to.equal(IOTA_GO_ADDRESS);
    expect([...accountIdFromBech32V3(IOTA_GO_ADDRESS, 'rms')]).to.deep.equal([...IOTA_GO_ID]);
    expect([...accountIdFromBech32V3(IOTA_GO_ADDRESS.toUpperCase(), 'rms')]).to.deep.equal([...IOTA_GO_ID]);
    expect(() => accountAddressToBech32V3('rms', new Uint8Array(31))).to.throw(RangeError);
  });

  it('refuses a malformed bech32, another network, another kind of address, a wrong length', () => {
    const cases: [string, string, RegExp][] = [
      ['hello', 'INVALID_BECH32', /Cannot decode bech32/],
      [`${IOTA_GO_ADDRESS.slice(0, -1)}q`, 'INVALID_BECH32', /checksum/],
      [`rms1${IOTA_GO_ADDRESS.slice(4, 10).toUpperCase()}${IOTA_GO_ADDRESS.slice(10)}`, 'INVALID_BECH32', /mixed case/],
      [accountAddressToBech32V3('smr', IOTA_GO_ID), 'INVALID_BECH32', /"smr" is not this network's "rms"/],
      [bech32Encode('rms', Uint8Array.of(0, ...IOTA_GO_ID)), 'INVALID_FIELD', /it is an Ed25519 address/],
      [bech32Encode('rms', Uint8Array.of(16, ...IOTA_GO_ID)), 'INVALID_FIELD', /it is an NFT address/],
      [bech32Encode('rms', Uint8Array.of(9, ...IOTA_GO_ID)), 'INVALID_FIELD', /of unknown type 9/],
      [bech32Encode('rms', Uint8Array.of(8, 1, 2)), 'INVALID_BECH32', /33 bytes, got 3/],
    ];
    for (const [text, code, message] of cases) {
      const e = protocolErrorOf(() => accountIdFromBech32V3(text, 'rms'));
      expect([e.code, e.message], text).to.satisfy(([c, m]: [string, string]) => c === code && message.test(m));
    }
  });
});
