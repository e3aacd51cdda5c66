/**
 * Unlocks (docs/protocol.md §10.2): signature unlock `{ type: 0, signature }`,
 * reference/alias/NFT unlocks `{ type, reference }`.
 */
import { UNLOCK_ALIAS, UNLOCK_NFT, UNLOCK_REFERENCE, UNLOCK_SIGNATURE, type Unlock } from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readObject, readU16, required } from './read.ts';
import { parseSignature, signatureToJson } from './signature.ts';
import { readType, type TypeFamily } from './type.ts';
import type { UnlockJson } from './types.ts';

export const UNLOCK_TYPES: TypeFamily = {
  what: 'unlock',
  names: {
    [UNLOCK_SIGNATURE]: 'signature',
    [UNLOCK_REFERENCE]: 'reference',
    [UNLOCK_ALIAS]: 'alias',
    [UNLOCK_NFT]: 'NFT',
  },
};

export function unlockToJson(u: Unlock): UnlockJson {
  switch (u.type) {
    case UNLOCK_SIGNATURE:
      return { type: u.type, signature: signatureToJson(u.signature) };
    case UNLOCK_REFERENCE:
    case UNLOCK_ALIAS:
    case UNLOCK_NFT:
      return { type: u.type, reference: u.reference } as UnlockJson;
    default:
      throw new TypeError(`unlockToJson: unknown unlock type ${String((u as { type: unknown }).type)}`);
  }
}

export function parseUnlock(v: unknown, p: JsonPath): Unlock {
  const o = readObject(v, p);
  const type = readType(o, p, UNLOCK_TYPES);
  if (type === UNLOCK_SIGNATURE)
    return { type, signature: parseSignature(required(o, 'signature', p), p.key('signature')) };
  // u16 on the wire; "reference < 128 and points backwards" is the syntactic validator's rule.
  return { type, reference: readU16(required(o, 'reference', p), p.key('reference')) } as Unlock;
}

export function unlockFromJson(json: unknown): Unlock {
  return fromJson('unlock', json, parseUnlock);
}
