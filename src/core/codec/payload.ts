/** Payload dispatch by the u32 type: tagged data (5), transaction (6), milestone (7), treasury transaction (4). */
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
} from '../model/payload.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readTaggedData, writeTaggedData } from './tagged-data.ts';
import { readTransaction, readTreasuryTransaction, writeTransaction, writeTreasuryTransaction } from './transaction.ts';
import { readMilestone, writeMilestone } from './milestone.ts';
import { payloadKindProblem, type PayloadContext } from './rules.ts';
import { decodeWhole, encodeWith, failAt } from './common.ts';

/** Reader and writer of each payload kind. */
const CODECS: {
  readonly [T in PayloadType]: {
    read(r: ByteReader, field: string): PayloadOf<T>;
    write(w: ByteWriter, p: PayloadOf<T>): void;
  };
} = {
  [PAYLOAD_TAGGED_DATA]: { read: readTaggedData, write: writeTaggedData },
  [PAYLOAD_TRANSACTION]: { read: readTransaction, write: writeTransaction },
  [PAYLOAD_MILESTONE]: { read: readMilestone, write: writeMilestone },
  [PAYLOAD_TREASURY_TRANSACTION]: { read: readTreasuryTransaction, write: writeTreasuryTransaction },
};

/** Reads a payload (from its u32 type) of a kind allowed in `context`. */
export function readPayload(r: ByteReader, field: string, context: PayloadContext = 'any'): Payload {
  const at = r.offset;
  const type = r.peekU32(field);
  const p = payloadKindProblem(context, type);
  if (p) failAt(r, p, field, at, String(type));
  return payloadKindEntry(CODECS, type)!.read(r, field);
}

export function writePayload(w: ByteWriter, p: Payload): void {
  const codec = payloadKindEntry(CODECS, p.type);
  if (codec === undefined) throw new RangeError(`Cannot encode payload: unknown type ${String(p.type)}`);
  codec.write(w, p as never);
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
