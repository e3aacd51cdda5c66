/** Milestone payload (docs/protocol.md §3.3): type 7; empty `metadata` and `options` are omitted. */
import { ID_LENGTH, LIMITS, PAYLOAD_MILESTONE, type MilestonePayload } from '../model/index.ts';
import { milestoneOptionToJson, parseMilestoneOption } from './milestone-option.ts';
import type { JsonPath } from './path.ts';
import {
  readFixed,
  readList,
  readOptionalBytes,
  readOptionalList,
  readU32,
  readU8,
  required,
  type JsonObject,
} from './read.ts';
import { parseSignature, signatureToJson } from './signature.ts';
import type { MilestonePayloadJson } from './types.ts';
import { bytesToJson } from './write.ts';

export function milestoneToJson(m: MilestonePayload): MilestonePayloadJson {
  return {
    type: PAYLOAD_MILESTONE,
    index: m.index,
    timestamp: m.timestamp,
    protocolVersion: m.protocolVersion,
    previousMilestoneId: bytesToJson(m.previousMilestoneId),
    parents: m.parents.map(bytesToJson),
    inclusionMerkleRoot: bytesToJson(m.inclusionMerkleRoot),
    appliedMerkleRoot: bytesToJson(m.appliedMerkleRoot),
    ...(m.metadata.length > 0 ? { metadata: bytesToJson(m.metadata) } : {}),
    ...(m.options.length > 0 ? { options: m.options.map(milestoneOptionToJson) } : {}),
    signatures: m.signatures.map(signatureToJson),
  };
}

/** The body after the type was read and checked. */
export function parseMilestoneBody(o: JsonObject, p: JsonPath): MilestonePayload {
  const id = (key: string) => readFixed(required(o, key, p), p.key(key), ID_LENGTH);
  return {
    type: PAYLOAD_MILESTONE,
    index: readU32(required(o, 'index', p), p.key('index')),
    timestamp: readU32(required(o, 'timestamp', p), p.key('timestamp')),
    protocolVersion: readU8(required(o, 'protocolVersion', p), p.key('protocolVersion')),
    previousMilestoneId: id('previousMilestoneId'),
    parents: readList(required(o, 'parents', p), p.key('parents'), LIMITS.parents.max, (e, ep) =>
      readFixed(e, ep, ID_LENGTH),
    ),
    inclusionMerkleRoot: id('inclusionMerkleRoot'),
    appliedMerkleRoot: id('appliedMerkleRoot'),
    metadata: readOptionalBytes(o, 'metadata', p, LIMITS.milestoneMetadata.max),
    options: readOptionalList(o, 'options', p, LIMITS.milestoneOptions.max, parseMilestoneOption),
    signatures: readList(
      required(o, 'signatures', p),
      p.key('signatures'),
      LIMITS.milestoneSignatures.max,
      parseSignature,
    ),
  };
}
