/** Tagged data payload (docs/protocol.md §3.1): `{ type: 5, tag?, data? }`; empty tag/data are omitted. */
import { LIMITS, PAYLOAD_TAGGED_DATA, type TaggedDataPayload } from '../model/index.ts';
import type { JsonPath } from './path.ts';
import { readOptionalBytes, type JsonObject } from './read.ts';
import type { TaggedDataPayloadJson } from './types.ts';
import { bytesToJson } from './write.ts';

export function taggedDataToJson(t: TaggedDataPayload): TaggedDataPayloadJson {
  return {
    type: PAYLOAD_TAGGED_DATA,
    ...(t.tag.length > 0 ? { tag: bytesToJson(t.tag) } : {}),
    ...(t.data.length > 0 ? { data: bytesToJson(t.data) } : {}),
  };
}

/** The body after the type was read and checked. */
export function parseTaggedDataBody(o: JsonObject, p: JsonPath): TaggedDataPayload {
  return {
    type: PAYLOAD_TAGGED_DATA,
    tag: readOptionalBytes(o, 'tag', p, LIMITS.taggedDataTag.max),
    data: readOptionalBytes(o, 'data', p, Number.MAX_SAFE_INTEGER),
  };
}
