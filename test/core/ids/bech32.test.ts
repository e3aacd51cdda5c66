import { expect } from 'chai';
import { fromHex, toHex0x } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import { bech32Decode, bech32DecodeAddress, bech32Encode, bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519, ADDRESS_NFT, type Address } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

const addresses = loadVectors('stardust/addresses.json');
const outputs = loadVectors('stardust/outputs.json');

function makeAddress(type: number, body: Uint8Array): Address {
  if (type === ADDRESS_ED25519) return { type, pubKeyHash: body };
  if (type === ADDRESS_ALIAS) return { type, aliasId: body };
  if (type === ADDRESS_NFT) return { type, nftId: body };
  throw new Error(`bad type ${type}`);
}

function bodyOf(a: Address): Uint8Array {
  return a.type === ADDRESS_ED25519 ? a.pubKeyHash : a.type === ADDRESS_ALIAS ? a.aliasId : a.nftId;
}

function expectInvalid(text: string, pattern?: RegExp): void {
  try {
    bech32DecodeAddress(text);
  } catch (e) {
    expect(e).to.be.instanceOf(ProtocolError);
    expect((e as ProtocolError).code).to.equal('INVALID_BECH32');
    if (pattern) expect((e as Error).message).to.match(pattern);
    return;
  }
  expect.fail(`"${text}" should be rejected`);
}

describe('ids/bech32', () => {
  describe('addresses.json (all 9 encodings)', () => {
    it('has 9 vectors', () => expect(addresses.bech32).to.have.length(9));
    for (const v of addresses.bech32) {
      it(`${v.bech32}`, () => {
        const address = makeAddress(v.addressType, fromHex(v.hex));
        expect(bech32EncodeAddress(v.hrp, address)).to.equal(v.bech32);
        const decoded = bech32DecodeAddress(v.bech32);
        expect(decoded.hrp).to.equal(v.hrp);
        expect(decoded.address.type).to.equal(v.addressType);
        expect(toHex0x(bodyOf(decoded.address))).to.equal(v.hex);
        // upper case is the same string for BIP-173
        expect(toHex0x(bodyOf(bech32DecodeAddress(v.bech32.toUpperCase()).address))).to.equal(v.hex);
      });
    }

    it('encodes the alias address of the zero-output-ID alias (outputs.json)', () => {
      const v = outputs.aliasIdFromOutputId[0];
      expect(bech32EncodeAddress('rms', { type: ADDRESS_ALIAS, aliasId: fromHex(v.aliasId) })).to.equal(
        v.aliasAddressBech32Rms,
      );
    });

    it('the first data character names the type: q = Ed25519, p = Alias, z = NFT', () => {
      const body = new Uint8Array(32);
      expect(bech32EncodeAddress('smr', makeAddress(0, body))[4]).to.equal('q');
      expect(bech32EncodeAddress('smr', makeAddress(8, body))[4]).to.equal('p');
      expect(bech32EncodeAddress('smr', makeAddress(16, body))[4]).to.equal('z');
    });
  });

  describe('BIP-173 generic vectors', () => {
    it('accepts the valid BIP-173 checksums', () => {
      for (const s of [
        'A12UEL5L',
        'a12uel5l',
        'an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs',
        'abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw',
        '11' + 'q'.repeat(82) + 'c8247j',
        'split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w',
        '?1ezyfcl',
      ]) {
        const { hrp } = bech32Decode(s);
        expect(hrp).to.equal(s.slice(0, s.lastIndexOf('1')).toLowerCase());
      }
    });

    it('rejects the invalid BIP-173 strings', () => {
      for (const s of [
        '\x201nwldj5', // HRP character out of range
        '\x7f1axkwrx',
        '\x801eym55h',
        'an84characterslonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1569pvx', // too long
        'pzry9x0s0muk', // no separator
        '1pzry9x0s0muk', // empty HRP
        'x1b4n0q5v', // invalid data character
        'li1dgmt3', // too short checksum
        'de1lg7wt\xff', // invalid character in checksum
        'A1G7SGD8', // checksum calculated with uppercase HRP
        '10a06t8', // empty HRP
        '1qzzfhee', // empty HRP
      ]) {
        expect(() => bech32Decode(s), JSON.stringify(s))
          .to.throw(ProtocolError)
          .with.property('code', 'INVALID_BECH32');
      }
    });

    it('rejects a bech32m checksum (Stardust uses BIP-173 bech32)', () => {
      // BIP-350 valid bech32m string
      expect(() => bech32Decode('a1lqfn3a'))
        .to.throw(ProtocolError)
        .with.property('code', 'INVALID_BECH32');
    });

    it('round-trips arbitrary data lengths', () => {
      for (let n = 0; n <= 40; n++) {
        const data = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
        const text = bech32Encode('tst', data);
        const back = bech32Decode(text);
        expect(back.hrp).to.equal('tst');
        expect(toHex0x(back.data)).to.equal(toHex0x(data));
      }
    });
  });

  describe('bad address strings (INVALID_BECH32)', () => {
    const good = 'rms1qr47gz3xxjqpjrwd0yu5glhqrth6w0t08npney8000ust2lcw2r92j5a8rt';

    it('rejects a bad checksum', () => {
      expectInvalid(good.slice(0, -1) + (good.endsWith('t') ? 'q' : 't'), /checksum/);
      // a flipped data character
      expectInvalid(good.slice(0, 10) + (good[10] === 'q' ? 'p' : 'q') + good.slice(11), /checksum/);
    });

    it('rejects mixed case', () => expectInvalid('RMS1' + good.slice(4), /mixed case/));

    it('rejects characters outside the charset (b, i, o, 1 in data)', () => {
      for (const c of ['b', 'i', 'o']) expectInvalid(good.slice(0, 8) + c + good.slice(9), /invalid data character/);
    });

    it('rejects a missing separator, an empty HRP or a too short string', () => {
      expectInvalid('rmsqr47gz3xxjqpjrwd0yu5glhqrth6w0t08npney8000ust2lcw2r92j5a8rt');
      expectInvalid(good.slice(3));
      expectInvalid('rms1qqqqq');
    });

    it('rejects a wrong data length (valid checksum, not 33 bytes)', () => {
      expectInvalid(bech32Encode('rms', new Uint8Array(32)), /32 data bytes/);
      expectInvalid(bech32Encode('rms', new Uint8Array(34)), /34 data bytes/);
    });

    it('rejects an unknown address type (valid checksum)', () => {
      const data = new Uint8Array(33);
      data[0] = 1;
      expectInvalid(bech32Encode('rms', data), /unknown address type 1/);
    });

    it('rejects a different HRP when one is expected', () => {
      expect(bech32DecodeAddress(good, 'rms').hrp).to.equal('rms');
      expect(() => bech32DecodeAddress(good, 'smr'))
        .to.throw(ProtocolError)
        .with.property('code', 'INVALID_BECH32');
    });

    it('rejects non-zero padding bits and an extra padding group', () => {
      // Independent BIP-173 checksum (test-side) so that strings with a valid checksum but bad padding can be built.
      const CS = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
      const G = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
      const poly = (v: number[]): number =>
        v.reduce((c, x) => {
          const t = c >>> 25;
          let n = ((c & 0x1ffffff) << 5) ^ x;
          for (let i = 0; i < 5; i++) if ((t >>> i) & 1) n ^= G[i]!;
          return n >>> 0;
        }, 1);
      const withChecksum = (hrp: string, words: number[]): string => {
        const exp = [...hrp]
          .map((c) => c.charCodeAt(0) >> 5)
          .concat(
            [0],
            [...hrp].map((c) => c.charCodeAt(0) & 31),
          );
        const m = poly([...exp, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
        const cs = [0, 1, 2, 3, 4, 5].map((i) => (m >>> (5 * (5 - i))) & 31);
        return hrp + '1' + [...words, ...cs].map((w) => CS[w]).join('');
      };
      // sanity: the test-side checksum agrees with the implementation
      expect(withChecksum('tst', [0, 0])).to.equal(bech32Encode('tst', new Uint8Array([0])));
      expect(bech32Decode(withChecksum('tst', [31, 28])).data).to.deep.equal(new Uint8Array([0xff]));
      // one byte = 8 bits in 2 groups: the 2 padding bits must be zero
      expect(() => bech32Decode(withChecksum('tst', [31, 29]))).to.throw(ProtocolError, /padding/);
      // a whole extra group (5 padding bits) is not allowed either
      expect(() => bech32Decode(withChecksum('tst', [31, 28, 0]))).to.throw(ProtocolError, /padding/);
    });

    it('refuses to encode with an upper-case or empty HRP', () => {
      expect(() => bech32EncodeAddress('RMS', makeAddress(0, new Uint8Array(32)))).to.throw(ProtocolError);
      expect(() => bech32EncodeAddress('', makeAddress(0, new Uint8Array(32)))).to.throw(ProtocolError);
    });
  });
});
