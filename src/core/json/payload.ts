/**
 * Payload dispatch (docs/protocol.md §3): tagged data (5), transaction (6), milestone (7), treasury transaction (4).
 */
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
  payloadKindEntry,
  type BlockPayload,
  type Payload,
  type PayloadOf,
  type PayloadType,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import { milestoneToJson, parseMilestoneBody } from './milestone.ts';
import type { JsonPath } from './path.ts';
import { PAYLOAD_IN_BLOCK, PAYLOAD_TYPES } from './payload-type.ts';
import { readObject, type JsonObject } from './read.ts';
import { parseTaggedDataBody, taggedDataToJson } from './tagged-data.ts';
import { parseTransactionBody, transactionToJson } from './transaction.ts';
import { parseTreasuryTransactionBody, treasuryTransactionToJson } from './treasury-transaction.ts';
import { readType, type TypeContext } from './type.ts';
import type { BlockPayloadJson, PayloadJson } from './types.ts';

/** JSON writer and body parser of each payload kind. */
const KINDS: {
  readonly [T in PayloadType]: {
    toJson(pl: PayloadOf<T>): PayloadJson;
    parseBody(o: JsonObject, p: JsonPath): PayloadOf<T>;
  };
} = {
  [PAYLOAD_TAGGED_DATA]: { toJson: taggedDataToJson, parseBody: parseTaggedDataBody },
  [PAYLOAD_TRANSACTION]: { toJson: transactionToJson, parseBody: parseTransactionBody },
  [PAYLOAD_MILESTONE]: { toJson: milestoneToJson, parseBody: parseMilestoneBody },
  [PAYLOAD_TREASURY_TRANSACTION]: { toJson: treasuryTransactionToJson, parseBody: parseTreasuryTransactionBody },
};

export function payloadToJson(pl: Payload): PayloadJson {
  const kind = payloadKindEntry(KINDS, pl.type);
  if (kind === undefined) throw new TypeError(`payloadToJson: unknown payload type ${String(pl.type)}`);
  return kind.toJson(pl as never);
}

export function parsePayload(v: unknown, p: JsonPath, context?: TypeContext): Payload {
  const o = readObject(v, p);
  return payloadKindEntry(KINDS, readType(o, p, PAYLOAD_TYPES, context))!.parseBody(o, p);
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
