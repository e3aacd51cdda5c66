/** Ed25519 signature (docs/protocol.md §10.1): u8 type 0, public key Bytes[32], signature Bytes[64]. */
import { SIGNATURE_ED25519, type Signature } from '../model/transaction.ts';
import { ED25519_PUBLIC_KEY_LENGTH, ED25519_SIGNATURE_LENGTH } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { signatureKindProblem } from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeFixed } from './common.ts';

export const SIGNATURE_LENGTH = 1 + ED25519_PUBLIC_KEY_LENGTH + ED25519_SIGNATURE_LENGTH;

export function readSignature(r: ByteReader, field: string): Signature {
  const at = r.offset;
  const type = r.u8(field);
  const p = signatureKindProblem(type);
  if (p) failAt(r, p, field, at, String(type));
  return {
    type: SIGNATURE_ED25519,
    publicKey: r.fixed(ED25519_PUBLIC_KEY_LENGTH, field),
    signature: r.fixed(ED25519_SIGNATURE_LENGTH, field),
  };
}

export function writeSignature(w: ByteWriter, s: Signature): void {
  if (s.type !== SIGNATURE_ED25519) throw new RangeError(`Cannot encode signature: unknown type ${String(s.type)}`);
  w.u8(SIGNATURE_ED25519);
  writeFixed(w, s.publicKey, ED25519_PUBLIC_KEY_LENGTH, 'signature public key');
  writeFixed(w, s.signature, ED25519_SIGNATURE_LENGTH, 'signature');
}

export function encodeSignature(s: Signature): Uint8Array {
  return encodeWith(writeSignature, s);
}

export function decodeSignature(bytes: Uint8Array): Signature {
  return decodeWhole(bytes, 'signature', (r) => readSignature(r, 'signature'));
}
