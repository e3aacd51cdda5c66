/**
 * Fast path for Ed25519 verification on Node: OpenSSL's Ed25519 through node:crypto.
 *
 * OpenSSL verifies RFC 8032 strictly: S < L, the cofactorless equation R = [S]B - [k]A with k = SHA-512(R || A || M)
 * over the transmitted bytes, and R must equal the canonical encoding of the computed point. Every signature it accepts
 * therefore also satisfies ZIP-215 (cofactorless implies cofactored; a canonical R decodes to the same point under the
 * permissive decoder; A is decoded the same way, modulo p). It rejects some ZIP-215-valid signatures (non-canonical R,
 * equations that only hold up to torsion): for those `ed25519Verify` falls back to the exact ZIP-215 check, so the
 * verdicts stay ZIP-215's (see `setEd25519Accelerator` in src/core/crypto/ed25519.ts and test/node/crypto/).
 *
 * Public keys are imported once as SPKI DER (the 12-byte Ed25519 SPKI prefix + the 32 raw bytes) and kept in a small
 * bounded LRU cache: wallets and the coordinator reuse keys. Signing with a key the node holds (`openSslEd25519Signer`)
 * gives the same bytes as the core's JavaScript signer, Ed25519 being deterministic, at a fraction of its CPU.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { getEd25519Accelerator, setEd25519Accelerator, type Ed25519Accelerator } from '../../core/crypto/ed25519.ts';

/** SEQUENCE { SEQUENCE { OID 1.3.101.112 (Ed25519) }, BIT STRING (33 bytes: 0 unused bits + 32-byte key) }. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

export const DEFAULT_KEY_CACHE_SIZE = 1024;

export interface OpenSslEd25519Options {
  /** Most public keys kept imported (least recently used evicted first); default 1024. */
  keyCacheSize?: number;
}

export interface OpenSslEd25519Verifier {
  /** The accelerator: true only when OpenSSL accepts the signature; false when it rejects or cannot import the key. */
  readonly verify: Ed25519Accelerator;
  /** Number of keys currently cached. */
  cachedKeys(): number;
}

/**
 * A bounded LRU of imported keys; `null` remembers a key OpenSSL refused to import (so it is not retried each time).
 */
class KeyCache {
  private readonly map = new Map<string, KeyObject | null>();
  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  lookup(publicKey: Uint8Array): KeyObject | null {
    const id = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('hex');
    const hit = this.map.get(id);
    if (hit !== undefined) {
      // refresh recency: Map iterates in insertion order, so the first entry is the least recently used
      this.map.delete(id);
      this.map.set(id, hit);
      return hit;
    }
    let key: KeyObject | null;
    try {
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    } catch {
      key = null;
    }
    this.map.set(id, key);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as string);
    return key;
  }
}

/** Creates an OpenSSL-backed accelerator with its own key cache. */
export function createOpenSslEd25519Verifier(options: OpenSslEd25519Options = {}): OpenSslEd25519Verifier {
  const capacity = options.keyCacheSize ?? DEFAULT_KEY_CACHE_SIZE;
  if (!Number.isSafeInteger(capacity) || capacity < 1)
    throw new RangeError(`keyCacheSize must be a positive integer, got ${capacity}`);
  const cache = new KeyCache(capacity);
  const fast: Ed25519Accelerator = (publicKey, message, signature) => {
    if (publicKey.length !== 32 || signature.length !== 64) return false;
    const key = cache.lookup(publicKey);
    if (key === null) return false;
    try {
      return verify(null, message, key, signature);
    } catch {
      return false;
    }
  };
  return { verify: fast, cachedKeys: () => cache.size };
}

// RFC 8032 section 7.1, TEST 2 (one-byte message): a known good signature, to check the OpenSSL build works at all.
const SELF_TEST = {
  publicKey: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c',
  message: '72',
  signature:
    '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da' +
    '085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00',
};

/** True when the verifier accepts the RFC 8032 test signature and rejects it once a message bit is flipped. */
export function selfTest(verifier: OpenSslEd25519Verifier): boolean {
  const pub = Buffer.from(SELF_TEST.publicKey, 'hex');
  const sig = Buffer.from(SELF_TEST.signature, 'hex');
  return (
    verifier.verify(pub, Buffer.from(SELF_TEST.message, 'hex'), sig) === true &&
    verifier.verify(pub, Uint8Array.of(0x73), sig) === false
  );
}

/**
 * Installs the OpenSSL fast path for `ed25519Verify` in this process (idempotent: with default options, an already
 * installed default verifier is kept, with its key cache). Returns false, and installs nothing, when this Node's
 * OpenSSL fails the self-test (e.g. a build without Ed25519): verification then stays on the pure ZIP-215 code.
 */
export function installOpenSslEd25519(options: OpenSslEd25519Options = {}): boolean {
  // several nodes in one process (tests) share one verifier and its key cache
  if (options.keyCacheSize === undefined && shared !== undefined && getEd25519Accelerator() === shared.verify)
    return true;
  const verifier = createOpenSslEd25519Verifier(options);
  if (!selfTest(verifier)) return false;
  setEd25519Accelerator(verifier.verify);
  if (options.keyCacheSize === undefined) shared = verifier;
  return true;
}

let shared: OpenSslEd25519Verifier | undefined;

/** PKCS#8 PrivateKeyInfo of an Ed25519 key up to its 32-byte seed (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 key (seed) made once for OpenSSL: its public key, and signing with it. */
export interface OpenSslEd25519Signer {
  readonly publicKey: Uint8Array;
  /** The RFC 8032 signature of `message`: Ed25519 signatures are deterministic, so the same bytes as any signer's. */
  sign(message: Uint8Array): Uint8Array;
}

/** A signer over the 32-byte `seed` (the built-in v3 validator signs a block every round; a JavaScript one is slow). */
export function openSslEd25519Signer(seed: Uint8Array): OpenSslEd25519Signer {
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return {
    publicKey: new Uint8Array(spki.subarray(spki.length - 32)),
    sign: (message) => new Uint8Array(sign(null, message, key)),
  };
}
