/**
 * Binary codec of IOTA 2.0 (protocol version 3) objects: strict decoding (bounds, allowed types, order, no trailing
 * bytes) and canonical encoding (encode(decode(b)) equals b).
 */
import { reject } from '../../errors.ts';
import { MAX_BLOCK_SIZE_V3 } from '../model/codes.ts';
import type { BlockV3, OutputIdProofV3, SlotCommitmentV3 } from '../model/block.ts';
import type { OutputV3 } from '../model/output.ts';
import type { ProtocolParametersV3 } from '../model/params.ts';
import type { BlockPayloadV3, SignedTransactionPayloadV3, TransactionV3, UnlockV3 } from '../model/transaction.ts';
import type { AddressV3 } from '../model/address.ts';
import { decodeKind, encodeKind } from './binary.ts';
import { kinds } from './layouts.ts';
import { PROTOCOL_PARAMETERS_KIND } from './params.ts';
import type { Kind } from './schema.ts';

/** Canonical bytes of a block (the same rules are enforced as when decoding). */
export function encodeBlockV3(block: BlockV3): Uint8Array {
  const bytes = encodeKind(kinds.block, block, 'block');
  if (bytes.length > MAX_BLOCK_SIZE_V3) {
    reject('BLOCK_TOO_LARGE', `Cannot encode block: ${bytes.length} bytes exceed the maximum of ${MAX_BLOCK_SIZE_V3}`, {
      value: String(bytes.length),
    });
  }
  return bytes;
}

/** The strict decoder and the canonical encoder of one kind; `subject` names it in errors. */
function kindCodec<T>(
  kind: Kind,
  subject: string,
): [decode: (bytes: Uint8Array) => T, encode: (value: T) => Uint8Array] {
  return [(bytes) => decodeKind(bytes, kind, subject) as T, (value) => encodeKind(kind, value, subject)];
}

/** A block payload (tagged data, signed transaction, candidacy announcement), starting with its type byte. */
export const [decodePayloadV3, encodePayloadV3] = kindCodec<BlockPayloadV3>(kinds.payload, 'payload');

/** A signed transaction payload (type byte 1 + transaction + unlocks). */
export const [decodeSignedTransactionV3, encodeSignedTransactionV3] = kindCodec<SignedTransactionPayloadV3>(
  kinds.signedTransaction,
  'signed transaction',
);

/** The Transaction alone (no type byte, no unlocks): what signature unlocks sign (its BLAKE2b-256). */
export const [decodeTransactionV3, encodeTransactionV3] = kindCodec<TransactionV3>(kinds.transaction, 'transaction');

/** The unlocks list with its u16 count. */
export const [, encodeUnlocksV3] = kindCodec<UnlockV3[]>(kinds.unlocks, 'unlocks');

export const [decodeOutputV3, encodeOutputV3] = kindCodec<OutputV3>(kinds.output, 'output');

export const [decodeAddressV3, encodeAddressV3] = kindCodec<AddressV3>(kinds.address, 'address');

export const [decodeSlotCommitmentV3, encodeSlotCommitmentV3] = kindCodec<SlotCommitmentV3>(
  kinds.slotCommitment,
  'slot commitment',
);

export const [decodeOutputIdProofV3, encodeOutputIdProofV3] = kindCodec<OutputIdProofV3>(
  kinds.outputIdProof,
  'output ID proof',
);

export const [decodeProtocolParametersV3, encodeProtocolParametersV3] = kindCodec<ProtocolParametersV3>(
  PROTOCOL_PARAMETERS_KIND,
  'protocol parameters',
);
