/** Unlocks (docs/protocol.md §10.2): signature (0), reference (1), alias (2), NFT (3). */
import { UNLOCK_ALIAS, UNLOCK_NFT, UNLOCK_REFERENCE, UNLOCK_SIGNATURE, type Unlock } from '../model/transaction.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readSignature, writeSignature } from './signature.ts';
import { unlockKindProblem } from './rules.ts';
import { decodeWhole, encodeWith, failAt } from './common.ts';

export function readUnlock(r: ByteReader, field: string): Unlock {
  const at = r.offset;
  const type = r.u8(field);
  const p = unlockKindProblem(type);
  if (p) failAt(r, p, field, at, String(type));
  switch (type) {
    case UNLOCK_SIGNATURE:
      return { type, signature: readSignature(r, field) };
    case UNLOCK_REFERENCE:
      return { type, reference: r.u16(field) };
    case UNLOCK_ALIAS:
      return { type, reference: r.u16(field) };
    default:
      return { type: UNLOCK_NFT, reference: r.u16(field) };
  }
}

export function writeUnlock(w: ByteWriter, u: Unlock): void {
  switch (u.type) {
    case UNLOCK_SIGNATURE:
      w.u8(u.type);
      writeSignature(w, u.signature);
      return;
    case UNLOCK_REFERENCE:
    case UNLOCK_ALIAS:
    case UNLOCK_NFT:
      w.u8(u.type).u16(u.reference);
      return;
    default:
      throw new RangeError(`Cannot encode unlock: unknown type ${String((u as Unlock).type)}`);
  }
}

export function encodeUnlock(u: Unlock): Uint8Array {
  return encodeWith(writeUnlock, u);
}

export function decodeUnlock(bytes: Uint8Array): Unlock {
  return decodeWhole(bytes, 'unlock', (r) => readUnlock(r, 'unlock'));
}
