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
import {
  ADDRESS_ED25519,
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  type Ed25519Address,
} from '../model/index.ts';
import { blake2b256 } from './blake2b.ts';

export const ED25519_SEED_LENGTH = 32;

/**
 * An optional faster verifier, installed by the host runtime (the core itself stays runtime-neutral).
 * Contract: it may return true ONLY for signatures that are also valid under ZIP-215 (e.g. a strict RFC 8032 verifier:
 * cofactorless equation, S < L, canonical R, k over the transmitted bytes — every signature it accepts satisfies the
 * cofactored ZIP-215 equation too). Returning false (or throwing) is never taken as a verdict: `ed25519Verify` then
 * runs the exact ZIP-215 check. So an accelerator can only make honest signatures faster; it cannot change which
 * signatures are valid. It is called only with a 32-byte key and a 64-byte signature.
 */
export type Ed25519Accelerator = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

let accelerator: Ed25519Accelerator | undefined;

/** Installs (or, with undefined, removes) the process-wide fast path of `ed25519Verify`. Returns the previous one. */
export function setEd25519Accelerator(fast: Ed25519Accelerator | undefined): Ed25519Accelerator | undefined {
  const previous = accelerator;
  accelerator = fast;
  return previous;
}

/** The installed accelerator, if any. */
export function getEd25519Accelerator(): Ed25519Accelerator | undefined {
  return accelerator;
}

/**
 * True when `signature` (64 bytes) is a valid ZIP-215 signature of `message` by `publicKey` (32 bytes).
 * Never throws for bad input: a key or signature of the wrong length, or one that does not decode, is just invalid.
 * Uses the installed accelerator first (see `Ed25519Accelerator`); the verdict is always exactly ZIP-215's.
 */
export function ed25519Verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== ED25519_PUBLIC_KEY_LENGTH || signature.length !== ED25519_SIGNATURE_LENGTH) return false;
  if (accelerator !== undefined) {
    try {
      if (accelerator(publicKey, message, signature) === true) return true;
    } catch {
      // not a verdict: fall through to the exact check
    }
  }
  return ed25519VerifyZip215(publicKey, message, signature);
}

/** The exact ZIP-215 check alone (never uses the accelerator): the reference the fast path is tested against. */
export function ed25519VerifyZip215(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
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
