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

/** Canonical bytes of a block (the same rules are enforced as when decoding). */
export function encodeBlockV3(block: BlockV3): Uint8Array {
  const bytes = encodeKind(kinds.block, block, 'block');
  if (bytes.length > MAX_BLOCK_SIZE_V3) {
    reject('BLOCK_TOO_LARGE', `Cannot encode block: ${bytes.length} bytes exceed the maximum of ${MAX_BLOCK_SIZE_V3}`, { value: String(bytes.length) });
  }
  return bytes;
}

/** A block payload (tagged data, signed transaction, candidacy announcement), starting with its type byte. */
export function decodePayloadV3(bytes: Uint8Array): BlockPayloadV3 {
  return decodeKind(bytes, kinds.payload, 'payload') as BlockPayloadV3;
}
export function encodePayloadV3(payload: BlockPayloadV3): Uint8Array {
  return encodeKind(kinds.payload, payload, 'payload');
}

/** A signed transaction payload (type byte 1 + transaction + unlocks). */
export function decodeSignedTransactionV3(bytes: Uint8Array): SignedTransactionPayloadV3 {
  return decodeKind(bytes, kinds.signedTransaction, 'signed transaction') as SignedTransactionPayloadV3;
}
export function encodeSignedTransactionV3(payload: SignedTransactionPayloadV3): Uint8Array {
  return encodeKind(kinds.signedTransaction, payload, 'signed transaction');
}

/** The Transaction alone (no type byte, no unlocks): what signature unlocks sign (its BLAKE2b-256). */
export function decodeTransactionV3(bytes: Uint8Array): TransactionV3 {
  return decodeKind(bytes, kinds.transaction, 'transaction') as TransactionV3;
}
export function encodeTransactionV3(tx: TransactionV3): Uint8Array {
  return encodeKind(kinds.transaction, tx, 'transaction');
}

/** The unlocks list with its u16 count. */
export function encodeUnlocksV3(unlocks: UnlockV3[]): Uint8Array {
  return encodeKind(kinds.unlocks, unlocks, 'unlocks');
}

export function decodeOutputV3(bytes: Uint8Array): OutputV3 {
  return decodeKind(bytes, kinds.output, 'output') as OutputV3;
}
export function encodeOutputV3(output: OutputV3): Uint8Array {
  return encodeKind(kinds.output, output, 'output');
}

export function decodeAddressV3(bytes: Uint8Array): AddressV3 {
  return decodeKind(bytes, kinds.address, 'address') as AddressV3;
}
export function encodeAddressV3(address: AddressV3): Uint8Array {
  return encodeKind(kinds.address, address, 'address');
}

export function decodeSlotCommitmentV3(bytes: Uint8Array): SlotCommitmentV3 {
  return decodeKind(bytes, kinds.slotCommitment, 'slot commitment') as SlotCommitmentV3;
}
export function encodeSlotCommitmentV3(c: SlotCommitmentV3): Uint8Array {
  return encodeKind(kinds.slotCommitment, c, 'slot commitment');
}

export function decodeOutputIdProofV3(bytes: Uint8Array): OutputIdProofV3 {
  return decodeKind(bytes, kinds.outputIdProof, 'output ID proof') as OutputIdProofV3;
}
export function encodeOutputIdProofV3(p: OutputIdProofV3): Uint8Array {
  return encodeKind(kinds.outputIdProof, p, 'output ID proof');
}

export function decodeProtocolParametersV3(bytes: Uint8Array): ProtocolParametersV3 {
  return decodeKind(bytes, PROTOCOL_PARAMETERS_KIND, 'protocol parameters') as ProtocolParametersV3;
}
export function encodeProtocolParametersV3(p: ProtocolParametersV3): Uint8Array {
  return encodeKind(PROTOCOL_PARAMETERS_KIND, p, 'protocol parameters');
}
