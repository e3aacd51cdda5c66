/**
 * Signing through OpenSSL (`openSslEd25519Signer`, what the built-in v3 validator signs with) gives exactly the public
 * key and the signature bytes of the core's JavaScript signer: Ed25519 signatures are deterministic (RFC 8032). Checked
 * on seeds and messages of every length up to 300 bytes from a fixed seed, so a failure repeats.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ed25519PublicKeyFromSeed, ed25519Sign, ed25519VerifyZip215 } from '../../../src/core/crypto/ed25519.ts';
import { openSslEd25519Signer } from '../../../src/node/crypto/ed25519-openssl.ts';

const bytes = (label: string, n: number): Uint8Array => {
  const out = new Uint8Array(n);
  for (let off = 0, i = 0; off < n; off += 64, i++)
    out.set(
      createHash('sha512')
        .update(`${label} ${i}`)
        .digest()
        .subarray(0, Math.min(64, n - off)),
      off,
    );
  return out;
};

describe('Ed25519 signing through OpenSSL', () => {
  it('gives the public key and the signatures of the JavaScript signer, byte for byte', () => {
    for (let s = 0; s < 20; s++) {
      const seed = bytes(`seed ${s}`, 32);
      const signer = openSslEd25519Signer(seed);
      expect(signer.publicKey).to.deep.equal(ed25519PublicKeyFromSeed(seed));
      for (let n = s; n <= 300; n += 20) {
        const message = bytes(`message ${s} ${n}`, n);
        const signature = signer.sign(message);
        expect(signature).to.deep.equal(ed25519Sign(seed, message));
        expect(ed25519VerifyZip215(signer.publicKey, message, signature)).to.equal(true);
      }
    }
  });
});
