/** Ed25519 signature (docs/protocol.md §10.1): `{ type: 0, publicKey (32 B), signature (64 B) }`. */
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  SIGNATURE_ED25519,
  type Signature,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readFixed, readObject, required } from './read.ts';
import { readType, type TypeFamily } from './type.ts';
import type { SignatureJson } from './types.ts';
import { bytesToJson } from './write.ts';

export const SIGNATURE_TYPES: TypeFamily = { what: 'signature', names: { [SIGNATURE_ED25519]: 'Ed25519' } };

export function signatureToJson(s: Signature): SignatureJson {
  return { type: s.type, publicKey: bytesToJson(s.publicKey), signature: bytesToJson(s.signature) };
}

export function parseSignature(v: unknown, p: JsonPath): Signature {
  const o = readObject(v, p);
  readType(o, p, SIGNATURE_TYPES);
  return {
    type: SIGNATURE_ED25519,
    publicKey: readFixed(required(o, 'publicKey', p), p.key('publicKey'), ED25519_PUBLIC_KEY_LENGTH),
    signature: readFixed(required(o, 'signature', p), p.key('signature'), ED25519_SIGNATURE_LENGTH),
  };
}

export function signatureFromJson(json: unknown): Signature {
  return fromJson('signature', json, parseSignature);
}
