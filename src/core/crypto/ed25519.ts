/**
 * Ed25519 as the IOTA protocol uses it (TIP-14).
 *
 * Verification follows ZIP-215 exactly, and says so explicitly rather than relying on a library default:
 * - non-canonical encodings of the public key A and of R are accepted (decoded modulo p, "zip215: true"),
 * - a scalar S >= L is rejected,
 * - the cofactored equation [8][S]B = [8]R + [8][k]A is checked,
 * - k = SHA-512(R || A || message) over the bytes exactly as transmitted.
 * `@noble/curves` implements these rules when called with `{ zip215: true }`.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { ADDRESS_ED25519, ED25519_PUBLIC_KEY_LENGTH, ED25519_SIGNATURE_LENGTH, type Ed25519Address } from '../model/index.ts';
import { blake2b256 } from './blake2b.ts';

export const ED25519_SEED_LENGTH = 32;

/**
 * True when `signature` (64 bytes) is a valid ZIP-215 signature of `message` by `publicKey` (32 bytes).
 * Never throws for bad input: a key or signature of the wrong length, or one that does not decode, is just invalid.
 */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH || signature.length !== ED25519_SIGNATURE_LENGTH) return false;
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: true });
  } catch {
    return false;
  }
}

function checkSeed(seed: Uint8Array): void {
  if (!(seed instanceof Uint8Array) || seed.length !== ED25519_SEED_LENGTH) {
    throw new RangeError(`Ed25519 private seed must be ${ED25519_SEED_LENGTH} bytes, got ${seed?.length}`);
  }
}

/** RFC 8032 signature (64 bytes) of `message` with the 32-byte private seed. */
export function ed25519Sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
  checkSeed(seed);
  return ed25519.sign(message, seed);
}

/** The 32-byte public key of a 32-byte RFC 8032 private seed. */
export function ed25519PublicKeyFromSeed(seed: Uint8Array): Uint8Array {
  checkSeed(seed);
  return ed25519.getPublicKey(seed);
}

/** Ed25519 address = BLAKE2b-256 of the public key bytes as given (no canonicalisation, TIP-14). */
export function ed25519AddressFromPublicKey(publicKey: Uint8Array): Ed25519Address {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== ED25519_PUBLIC_KEY_LENGTH) {
    throw new RangeError(`Ed25519 public key must be ${ED25519_PUBLIC_KEY_LENGTH} bytes, got ${publicKey?.length}`);
  }
  return { type: ADDRESS_ED25519, pubKeyHash: blake2b256(publicKey) };
}
