import { expect } from 'chai';
import { fromHex, toHex, utf8Encode } from '../../../src/core/bytes.ts';
import { blake2b256, blake2b256Parts } from '../../../src/core/crypto/index.ts';

describe('crypto/blake2b', () => {
  it('hashes the empty string to the well-known BLAKE2b-256 value (= MTH([]) of TIP-4)', () => {
    expect(toHex(blake2b256(new Uint8Array(0)))).to.equal('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('hashes "abc" to the RFC 7693-family reference value for a 32-byte digest', () => {
    // BLAKE2b-256("abc"), the standard test value for dkLen 32
    expect(toHex(blake2b256(utf8Encode('abc')))).to.equal('bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319');
  });

  it('multi-part hashing equals hashing the concatenation, whatever the split', () => {
    const data = fromHex('00'.repeat(3) + '0102030405060708090a0b0c0d0e0f' + 'ff'.repeat(200));
    const whole = toHex(blake2b256(data));
    for (const cut of [0, 1, 7, 64, 128, 129, data.length]) {
      expect(toHex(blake2b256Parts(data.subarray(0, cut), data.subarray(cut)))).to.equal(whole, `cut at ${cut}`);
    }
    expect(toHex(blake2b256Parts())).to.equal(toHex(blake2b256(new Uint8Array(0))));
    expect(toHex(blake2b256Parts(data.subarray(0, 5), new Uint8Array(0), data.subarray(5)))).to.equal(whole);
  });

  it('returns 32 bytes and differs on a one-bit change', () => {
    const a = blake2b256(utf8Encode('shimmer'));
    const b = blake2b256(utf8Encode('shimmes'));
    expect(a.length).to.equal(32);
    expect(toHex(a)).to.not.equal(toHex(b));
  });
});
