/** Payload dispatch by the u32 type: tagged data (5), transaction (6), milestone (7), treasury transaction (4). */
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
  type BlockPayload,
  type Payload,
} from '../model/payload.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readTaggedData, writeTaggedData } from './tagged-data.ts';
import { readTransaction, readTreasuryTransaction, writeTransaction, writeTreasuryTransaction } from './transaction.ts';
import { readMilestone, writeMilestone } from './milestone.ts';
import { payloadKindProblem, type PayloadContext } from './rules.ts';
import { decodeWhole, encodeWith, failAt } from './common.ts';

/** Reads a payload (from its u32 type) of a kind allowed in `context`. */
export function readPayload(r: ByteReader, field: string, context: PayloadContext = 'any'): Payload {
  const at = r.offset;
  const type = r.peekU32(field);
  const p = payloadKindProblem(context, type);
  if (p) failAt(r, p, field, at, String(type));
  switch (type) {
    case PAYLOAD_TAGGED_DATA:
      return readTaggedData(r, field);
    case PAYLOAD_TRANSACTION:
      return readTransaction(r, field);
    case PAYLOAD_MILESTONE:
      return readMilestone(r, field);
    default:
      return readTreasuryTransaction(r, field);
  }
}

export function writePayload(w: ByteWriter, p: Payload): void {
  switch (p.type) {
    case PAYLOAD_TAGGED_DATA:
      return writeTaggedData(w, p);
    case PAYLOAD_TRANSACTION:
      return writeTransaction(w, p);
    case PAYLOAD_MILESTONE:
      return writeMilestone(w, p);
    case PAYLOAD_TREASURY_TRANSACTION:
      return writeTreasuryTransaction(w, p);
    default:
      throw new RangeError(`Cannot encode payload: unknown type ${String((p as Payload).type)}`);
  }
}

/** From the u32 type through the end; no length prefix. The transaction ID is BLAKE2b-256 of these bytes. */
export function encodePayload(p: Payload): Uint8Array {
  return encodeWith(writePayload, p);
}

/** Any Stardust payload (4, 5, 6, 7), strict, filling `bytes` exactly. */
export function decodePayload(bytes: Uint8Array): Payload {
  return decodeWhole(bytes, 'payload', (r) => readPayload(r, 'payload'));
}

/** A payload a block may carry (5, 6, 7). */
export function decodeBlockPayload(bytes: Uint8Array): BlockPayload {
  return decodeWhole(bytes, 'payload', (r) => readPayload(r, 'payload', 'block') as BlockPayload);
}
