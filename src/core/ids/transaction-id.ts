/**
 * Transaction ID and essence hash from bytes (docs/protocol.md §12.2, §12.3).
 * - Transaction ID = BLAKE2b-256 of the serialized Transaction payload, from its u32 type `06000000` through the last
 *   unlock; the u32 length prefix a block puts before its payload is NOT part of it.
 * - Essence hash = BLAKE2b-256 of the serialized Transaction Essence (from its type byte `01`); every Signature Unlock
 *   signs these 32 bytes.
 */
import { blake2b256 } from '../crypto/blake2b.ts';
import { toHex } from '../bytes.ts';
import { PAYLOAD_TRANSACTION } from '../model/payload.ts';
import { ESSENCE_REGULAR } from '../model/transaction.ts';

/** BLAKE2b-256 of a serialized Transaction payload (must start with the u32 payload type 6). */
export function transactionId(transactionPayloadBytes: Uint8Array): Uint8Array {
  const b = transactionPayloadBytes;
  if (b.length < 4 || b[0] !== PAYLOAD_TRANSACTION || b[1] !== 0 || b[2] !== 0 || b[3] !== 0) {
    // A programming mistake, typically the block's payload-length prefix left in front of the payload.
    throw new RangeError(`transactionId: bytes must start with payload type 06000000, got ${toHex(b.subarray(0, 4))}`);
  }
  return blake2b256(b);
}

/** The signing message: BLAKE2b-256 of a serialized Transaction Essence (must start with essence type 1). */
export function essenceHashFromBytes(essenceBytes: Uint8Array): Uint8Array {
  if (essenceBytes.length < 1 || essenceBytes[0] !== ESSENCE_REGULAR) {
    throw new RangeError(
      `essenceHashFromBytes: bytes must start with essence type 01, got ${toHex(essenceBytes.subarray(0, 1))}`,
    );
  }
  return blake2b256(essenceBytes);
}
