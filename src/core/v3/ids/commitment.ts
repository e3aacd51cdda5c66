/** Slot commitment ID (docs/protocol.md §V7.4) and protocol parameters hash (§V7.10). */
import { blake2b256 } from '../../crypto/blake2b.ts';
import type { SlotCommitmentV3 } from '../model/block.ts';
import type { ProtocolParametersV3 } from '../model/params.ts';
import { encodeProtocolParametersV3, encodeSlotCommitmentV3 } from '../codec/index.ts';
import { idWithSlot } from './slot.ts';

/** BLAKE2b-256(commitment bytes) ‖ slot LE. */
export function slotCommitmentIdV3(commitment: SlotCommitmentV3): Uint8Array {
  return idWithSlot(blake2b256(encodeSlotCommitmentV3(commitment)), commitment.slot);
}

/** BLAKE2b-256 of the serialized parameters (what validation blocks carry as protocolParametersHash). */
export function protocolParametersHashV3(params: ProtocolParametersV3): Uint8Array {
  return blake2b256(encodeProtocolParametersV3(params));
}
