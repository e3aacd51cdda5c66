/** Tagged Data payload (type 5, docs/protocol.md §3.1). */
import { PAYLOAD_TAGGED_DATA, type TaggedDataPayload } from '../model/payload.ts';
import { LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { decodeWhole, encodeWith, writePrefixed } from './common.ts';

/** Reads from the u32 payload type. */
export function readTaggedData(r: ByteReader, field: string): TaggedDataPayload {
  const at = r.offset;
  const type = r.u32(field);
  if (type !== PAYLOAD_TAGGED_DATA)
    r.fail('TYPE_NOT_ALLOWED', `expected tagged data payload (5), got type ${type}`, field, at, String(type));
  const tag = r.prefixed(1, 'taggedData.tag', LIMITS.taggedDataTag.min, LIMITS.taggedDataTag.max);
  const data = r.prefixed(4, 'taggedData.data', 0, 0xffffffff);
  return { type: PAYLOAD_TAGGED_DATA, tag, data };
}

export function writeTaggedData(w: ByteWriter, p: TaggedDataPayload): void {
  w.u32(PAYLOAD_TAGGED_DATA);
  writePrefixed(w, p.tag, 1, 'tagged data tag');
  writePrefixed(w, p.data, 4, 'tagged data');
}

export function encodeTaggedData(p: TaggedDataPayload): Uint8Array {
  return encodeWith(writeTaggedData, p);
}

export function decodeTaggedData(bytes: Uint8Array): TaggedDataPayload {
  return decodeWhole(bytes, 'tagged data payload', (r) => readTaggedData(r, 'payload'));
}
