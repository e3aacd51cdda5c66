/** Output ID (docs/protocol.md §12.4): Transaction ID (32 bytes) ‖ output index as u16 little-endian; 34 bytes. */
import { concatBytes, fromHex0x, toHex0x } from '../bytes.ts';
import { reject } from '../errors.ts';
import { ID_LENGTH, LIMITS, OUTPUT_ID_LENGTH } from '../model/limits.ts';

export interface ParsedOutputId {
  transactionId: Uint8Array;
  index: number;
}

function checkIndex(index: number, field: string): void {
  if (!Number.isInteger(index) || index < 0 || index > LIMITS.maxOutputIndex) {
    reject('VALUE_OUT_OF_RANGE', `${field}: output index ${index} is outside 0..${LIMITS.maxOutputIndex}`, {
      field,
      value: String(index),
    });
  }
}

/** The 34-byte output ID of output `index` (0..127) of transaction `txId`. */
export function outputId(txId: Uint8Array, index: number): Uint8Array {
  if (txId.length !== ID_LENGTH)
    throw new RangeError(`outputId: transaction ID must be ${ID_LENGTH} bytes, got ${txId.length}`);
  checkIndex(index, 'outputId');
  return concatBytes(txId, new Uint8Array([index & 0xff, index >> 8]));
}

/** Splits an output ID (34 bytes, or its `0x` hex form) into transaction ID and index; index must be 0..127. */
export function parseOutputId(id: Uint8Array | string, field = 'outputId'): ParsedOutputId {
  const bytes = typeof id === 'string' ? fromHex0x(id, field) : id;
  if (bytes.length !== OUTPUT_ID_LENGTH) {
    reject('LENGTH_OUT_OF_RANGE', `${field}: an output ID has ${OUTPUT_ID_LENGTH} bytes, got ${bytes.length}`, {
      field,
      value: toHex0x(bytes),
    });
  }
  const index = bytes[ID_LENGTH]! | (bytes[ID_LENGTH + 1]! << 8);
  checkIndex(index, field);
  return { transactionId: bytes.slice(0, ID_LENGTH), index };
}
