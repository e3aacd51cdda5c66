/**
 * Inputs Commitment (docs/protocol.md §12.9): BLAKE2b-256( BLAKE2b-256(out_1) ‖ … ‖ BLAKE2b-256(out_n) ), where
 * out_i is the complete serialized output referenced by input i, in input order.
 */
import { blake2b256, blake2b256Parts } from '../crypto/blake2b.ts';

export function inputsCommitment(consumedOutputBytes: Uint8Array[]): Uint8Array {
  return blake2b256Parts(...consumedOutputBytes.map(blake2b256));
}
