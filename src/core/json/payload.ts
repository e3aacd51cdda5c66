/** Payload dispatch (spec §3): tagged data (5), transaction (6), milestone (7), treasury transaction (4). */
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
  type BlockPayload,
  type Payload,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import { milestoneToJson, parseMilestoneBody } from './milestone.ts';
import type { JsonPath } from './path.ts';
import { PAYLOAD_IN_BLOCK, PAYLOAD_TYPES } from './payload-type.ts';
import { readObject } from './read.ts';
import { parseTaggedDataBody, taggedDataToJson } from './tagged-data.ts';
import { parseTransactionBody, transactionToJson } from './transaction.ts';
import { parseTreasuryTransactionBody, treasuryTransactionToJson } from './treasury-transaction.ts';
import { readType, type TypeContext } from './type.ts';
import type { BlockPayloadJson, PayloadJson } from './types.ts';

export function payloadToJson(pl: Payload): PayloadJson {
  switch (pl.type) {
    case PAYLOAD_TAGGED_DATA:
      return taggedDataToJson(pl);
    case PAYLOAD_TRANSACTION:
      return transactionToJson(pl);
    case PAYLOAD_MILESTONE:
      return milestoneToJson(pl);
    case PAYLOAD_TREASURY_TRANSACTION:
      return treasuryTransactionToJson(pl);
    default:
      throw new TypeError(`payloadToJson: unknown payload type ${String((pl as { type: unknown }).type)}`);
  }
}

export function parsePayload(v: unknown, p: JsonPath, context?: TypeContext): Payload {
  const o = readObject(v, p);
  switch (readType(o, p, PAYLOAD_TYPES, context)) {
    case PAYLOAD_TAGGED_DATA:
      return parseTaggedDataBody(o, p);
    case PAYLOAD_TRANSACTION:
      return parseTransactionBody(o, p);
    case PAYLOAD_MILESTONE:
      return parseMilestoneBody(o, p);
    default:
      return parseTreasuryTransactionBody(o, p);
  }
}

export function parseBlockPayload(v: unknown, p: JsonPath): BlockPayload {
  return parsePayload(v, p, PAYLOAD_IN_BLOCK) as BlockPayload;
}

export function blockPayloadToJson(pl: BlockPayload): BlockPayloadJson {
  return payloadToJson(pl) as BlockPayloadJson;
}

/** Any Stardust payload, the treasury transaction included (it is only valid inside a receipt). */
export function payloadFromJson(json: unknown): Payload {
  return fromJson('payload', json, (v, p) => parsePayload(v, p));
}
