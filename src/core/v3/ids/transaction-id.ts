/**
 * Transaction identifiers (docs/protocol.md §V7.5–§V7.7).
 * transactionId = BLAKE2b-256(transactionCommitment ‖ outputCommitment) ‖ creationSlot LE, where
 * transactionCommitment = BLAKE2b-256(essence bytes) and outputCommitment = Merkle root of the serialized outputs.
 * The signed transaction ID (docs/protocol.md §V12.2 D1: what TIP-45 calls "Transaction ID") hashes Transaction ‖
 * Unlocks instead.
 */
import { blake2b256, blake2b256Parts } from '../../crypto/blake2b.ts';
import { ByteWriter } from '../../codec/writer.ts';
import type { TransactionV3, SignedTransactionPayloadV3 } from '../model/transaction.ts';
import type { OutputV3 } from '../model/output.ts';
import { writeKind } from '../codec/binary.ts';
import { ESSENCE_FIELDS } from '../codec/layouts.ts';
import { encodeOutputV3, encodeTransactionV3, encodeUnlocksV3 } from '../codec/index.ts';
import { merkleRoot } from './merkle.ts';
import { idWithSlot } from './slot.ts';

/** The serialized essence: transaction fields networkId … payload (everything but the outputs). */
export function essenceBytesV3(tx: TransactionV3): Uint8Array {
  encodeTransactionV3(tx); // validates the whole transaction (rules may involve the outputs)
  const w = new ByteWriter(512);
  const o = tx as unknown as Record<string, unknown>;
  for (const f of ESSENCE_FIELDS) writeKind(w, f.kind, o[f.name], f.name, 'transaction');
  return w.finish();
}

export function transactionCommitmentV3(tx: TransactionV3): Uint8Array {
  return blake2b256(essenceBytesV3(tx));
}

export function outputCommitmentV3(outputs: readonly OutputV3[]): Uint8Array {
  return merkleRoot(outputs.map((o) => encodeOutputV3(o)));
}

/** The 36-byte Transaction ID used by output IDs, UTXO inputs and the REST routes. */
export function transactionIdV3(tx: TransactionV3): Uint8Array {
  return idWithSlot(blake2b256Parts(transactionCommitmentV3(tx), outputCommitmentV3(tx.outputs)), tx.creationSlot);
}

/** BLAKE2b-256 of the serialized Transaction: the message every Signature Unlock signs. */
export function transactionSigningHashV3(tx: TransactionV3): Uint8Array {
  return blake2b256(encodeTransactionV3(tx));
}

/** BLAKE2b-256(Transaction ‖ Unlocks with count) ‖ creationSlot LE (iota.go SignedTransaction.ID). */
export function signedTransactionIdV3(payload: SignedTransactionPayloadV3): Uint8Array {
  const h = blake2b256Parts(encodeTransactionV3(payload.transaction), encodeUnlocksV3(payload.unlocks));
  return idWithSlot(h, payload.transaction.creationSlot);
}

/** Output ID (38 bytes) = transaction ID ‖ index u16 LE. */
export function outputIdV3(transactionId: Uint8Array, index: number): Uint8Array {
  if (transactionId.length !== 36) throw new RangeError(`a transaction ID has 36 bytes, got ${transactionId.length}`);
  if (!Number.isInteger(index) || index < 0 || index > 0xffff)
    throw new RangeError(`output index ${index} is not a u16`);
  const out = new Uint8Array(38);
  out.set(transactionId);
  out[36] = index & 0xff;
  out[37] = index >> 8;
  return out;
}

/** Splits a 38-byte output ID into its transaction ID and index. */
export function splitOutputIdV3(outputId: Uint8Array): { transactionId: Uint8Array; index: number } {
  if (outputId.length !== 38) throw new RangeError(`an output ID has 38 bytes, got ${outputId.length}`);
  return { transactionId: outputId.slice(0, 36), index: outputId[36]! | (outputId[37]! << 8) };
}

/** Account / NFT / Anchor / Delegation ID of a chain created by `outputId`: BLAKE2b-256(outputId). */
export function chainIdFromOutputIdV3(outputId: Uint8Array): Uint8Array {
  if (outputId.length !== 38) throw new RangeError(`an output ID has 38 bytes, got ${outputId.length}`);
  return blake2b256(outputId);
}

/** Foundry ID = token ID: 0x08 ‖ accountId ‖ serialNumber u32 LE ‖ token scheme type (38 bytes). */
export function foundryIdV3(accountId: Uint8Array, serialNumber: number, tokenSchemeType = 0): Uint8Array {
  if (accountId.length !== 32) throw new RangeError(`an account ID has 32 bytes, got ${accountId.length}`);
  const out = new Uint8Array(38);
  out[0] = 8;
  out.set(accountId, 1);
  new DataView(out.buffer).setUint32(33, serialNumber, true);
  out[37] = tokenSchemeType;
  return out;
}
