/**
 * Block ID (docs/protocol.md §V7.1): BLAKE2b-256(headerHash ‖ bodyHash ‖ 97 signature bytes) ‖ slot LE, where
 * the slot is the slot of the header's issuing time. The signature signs headerHash ‖ bodyHash (§V7.3).
 */
import { blake2b256, blake2b256Parts } from '../../crypto/blake2b.ts';
import { concatBytes } from '../../bytes.ts';
import type { BlockV3 } from '../model/block.ts';
import type { TimeParametersV3 } from '../model/params.ts';
import { decodeKind } from '../codec/binary.ts';
import { kinds } from '../codec/layouts.ts';
import { encodeBlockV3 } from '../codec/index.ts';
import { idWithSlot, slotFromTime } from './slot.ts';

export const BLOCK_HEADER_LENGTH = 89;
export const BLOCK_SIGNATURE_LENGTH = 97;

export interface BlockHashesV3 {
  headerHash: Uint8Array;
  bodyHash: Uint8Array;
  /** The 97 signature bytes (type byte, public key, signature). */
  signatureBytes: Uint8Array;
  /** headerHash ‖ bodyHash: the message the block signature signs. */
  signingMessage: Uint8Array;
}

/** Hashes of a serialized block's parts, cut as the node cuts them: [0,89), [89,len-97), [len-97,len). */
export function blockHashesV3(bytes: Uint8Array): BlockHashesV3 {
  if (bytes.length < BLOCK_HEADER_LENGTH + 1 + BLOCK_SIGNATURE_LENGTH) {
    throw new RangeError(
      `a serialized block has at least ${BLOCK_HEADER_LENGTH + 1 + BLOCK_SIGNATURE_LENGTH} bytes, got ${bytes.length}`,
    );
  }
  const headerHash = blake2b256(bytes.subarray(0, BLOCK_HEADER_LENGTH));
  const bodyHash = blake2b256(bytes.subarray(BLOCK_HEADER_LENGTH, bytes.length - BLOCK_SIGNATURE_LENGTH));
  const signatureBytes = bytes.slice(bytes.length - BLOCK_SIGNATURE_LENGTH);
  return { headerHash, bodyHash, signatureBytes, signingMessage: concatBytes(headerHash, bodyHash) };
}

/**
 * The 36-byte block ID of a serialized block. The bytes are decoded first (strictly, without the parameter checks
 * of decodeBlockV3), so an ID is only ever computed for a well-formed block.
 */
export function blockIdV3(bytes: Uint8Array, params: TimeParametersV3): Uint8Array {
  const block = decodeKind(bytes, kinds.block, 'block') as BlockV3;
  return blockIdFromParts(bytes, block.header.issuingTime, params);
}

/** The block ID of a block model (computed from its canonical bytes). */
export function blockIdOfV3(block: BlockV3, params: TimeParametersV3): Uint8Array {
  return blockIdFromParts(encodeBlockV3(block), block.header.issuingTime, params);
}

function blockIdFromParts(bytes: Uint8Array, issuingTime: bigint, params: TimeParametersV3): Uint8Array {
  const h = blockHashesV3(bytes);
  return idWithSlot(blake2b256Parts(h.headerHash, h.bodyHash, h.signatureBytes), slotFromTime(issuingTime, params));
}

/** The slot a block belongs to (slot of its issuing time). */
export function blockSlotV3(block: BlockV3, params: TimeParametersV3): number {
  return slotFromTime(block.header.issuingTime, params);
}
