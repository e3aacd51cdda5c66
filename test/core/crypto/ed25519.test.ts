import { expect } from 'chai';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import {
  blake2b256,
  ed25519AddressFromPublicKey,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
} from '../../../src/core/crypto/index.ts';
import { ADDRESS_ED25519 } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

const zip215 = loadVectors('stardust/signatures_ed25519_zip215.json');
const addresses = loadVectors('stardust/addresses.json');

interface Zip215Case {
  index: number;
  address: string;
  message: string;
  pub_key: string;
  signature: string;
  valid: boolean;
}

describe('crypto/ed25519', () => {
  describe('TIP-14 ZIP-215 cases (signatures_ed25519_zip215.json)', () => {
    const cases: Zip215Case[] = zip215.vectors;
    it('has all 12 cases', () => expect(cases).to.have.length(12));

    for (const c of cases) {
      it(
        `case ${c.index}: ${c.valid ? 'valid' : 'invalid'} ` +
          '(signature verifies AND address = 0x00 ‖ BLAKE2b-256(pub_key))',
        () => {
          const pub = fromHex(c.pub_key);
          const sigOk = ed25519Verify(pub, fromHex(c.message), fromHex(c.signature));
          const addr = ed25519AddressFromPublicKey(pub);
          const addrOk = '00' + toHex(addr.pubKeyHash) === c.address;
          expect(sigOk && addrOk).to.equal(c.valid);
        },
      );
    }

    it('case 10 fails only the address part (the TIP hashed a reduced key); its signature itself verifies', () => {
      const c = cases[10]!;
      expect(ed25519Verify(fromHex(c.pub_key), fromHex(c.message), fromHex(c.signature))).to.equal(true);
      expect('00' + toHex(ed25519AddressFromPublicKey(fromHex(c.pub_key)).pubKeyHash)).to.not.equal(c.address);
    });

    it('cases 0, 1, 9 and 11 (non-canonical A or R, small order) are accepted, as ZIP-215 requires', () => {
      for (const i of [0, 1, 9, 11]) {
        const c = cases[i]!;
        expect(ed25519Verify(fromHex(c.pub_key), fromHex(c.message), fromHex(c.signature)), `case ${i}`).to.equal(true);
      }
    });

    it('case 8 (S >= L) is rejected', () => {
      const c = cases[8]!;
      expect(ed25519Verify(fromHex(c.pub_key), fromHex(c.message), fromHex(c.signature))).to.equal(false);
    });
  });

  describe('addresses.json', () => {
    it('derives public key and address from the 32-byte seed (iota.js vector)', () => {
      for (const v of addresses.ed25519FromSeed) {
        const pub = ed25519PublicKeyFromSeed(fromHex(v.seedHex));
        expect(toHex(pub)).to.equal(v.derived.publicKeyHex);
        const addr = ed25519AddressFromPublicKey(pub);
        expect(addr.type).to.equal(ADDRESS_ED25519);
        expect(toHex(addr.pubKeyHash)).to.equal(v.addressHex);
      }
    });

    it('derives the serialized address of all 5 TIP-14 public keys (key bytes hashed as given)', () => {
      expect(addresses.ed25519FromPublicKey).to.have.length(5);
      for (const v of addresses.ed25519FromPublicKey) {
        const addr = ed25519AddressFromPublicKey(fromHex(v.publicKeyHex));
        expect('0' + addr.type + toHex(addr.pubKeyHash)).to.equal(v.serializedAddressHex);
      }
    });
  });

  describe('sign / verify', () => {
    const seed = fromHex('aa'.repeat(32));
    const pub = ed25519PublicKeyFromSeed(seed);
    const msg = blake2b256(fromHex('01020304'));
    const sig = ed25519Sign(seed, msg);

    it('produces a 64-byte deterministic signature that verifies', () => {
      expect(sig.length).to.equal(64);
      expect(toHex(ed25519Sign(seed, msg))).to.equal(toHex(sig));
      expect(ed25519Verify(pub, msg, sig)).to.equal(true);
    });

    it('rejects a tampered signature, key or message', () => {
      for (let i = 0; i < 64; i += 9) {
        const bad = sig.slice();
        bad[i] ^= 0x01;
        expect(ed25519Verify(pub, msg, bad), `signature byte ${i}`).to.equal(false);
      }
      const badMsg = msg.slice();
      badMsg[31] ^= 0x80;
      expect(ed25519Verify(pub, badMsg, sig)).to.equal(false);
      const otherPub = ed25519PublicKeyFromSeed(fromHex('bb'.repeat(32)));
      expect(ed25519Verify(otherPub, msg, sig)).to.equal(false);
      const badPub = pub.slice();
      badPub[0] ^= 0x01;
      expect(ed25519Verify(badPub, msg, sig)).to.equal(false);
    });

    it('returns false (never throws) for wrong lengths or undecodable points', () => {
      expect(ed25519Verify(pub.subarray(0, 31), msg, sig)).to.equal(false);
      expect(ed25519Verify(pub, msg, sig.subarray(0, 63))).to.equal(false);
      expect(ed25519Verify(pub, msg, new Uint8Array(65))).to.equal(false);
      // y = 2 is not on the curve: the key does not decode
      const notOnCurve = new Uint8Array(32);
      notOnCurve[0] = 2;
      expect(ed25519Verify(notOnCurve, msg, sig)).to.equal(false);
    });

    it('rejects seeds and public keys of the wrong length as programming errors', () => {
      expect(() => ed25519Sign(new Uint8Array(31), msg)).to.throw(RangeError);
      expect(() => ed25519PublicKeyFromSeed(new Uint8Array(64))).to.throw(RangeError);
      expect(() => ed25519AddressFromPublicKey(new Uint8Array(33))).to.throw(RangeError);
    });
  });
});
