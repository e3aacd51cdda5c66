/** Blocks, slot commitments and output ID proofs (docs/protocol.md §V3, §V7.4, §V7.8). */
import type { BlockPayloadV3, Ed25519SignatureV3 } from './transaction.ts';

export interface BlockHeaderV3 {
  protocolVersion: number;
  networkId: bigint;
  /** Nanoseconds since the Unix epoch. */
  issuingTime: bigint;
  slotCommitmentId: Uint8Array;
  latestFinalizedSlot: number;
  issuerId: Uint8Array;
}

export interface BasicBlockBodyV3 {
  type: 0;
  strongParents: Uint8Array[];
  weakParents: Uint8Array[];
  shallowLikeParents: Uint8Array[];
  payload?: BlockPayloadV3;
  maxBurnedMana: bigint;
}

export interface ValidationBlockBodyV3 {
  type: 1;
  strongParents: Uint8Array[];
  weakParents: Uint8Array[];
  shallowLikeParents: Uint8Array[];
  highestSupportedVersion: number;
  protocolParametersHash: Uint8Array;
}

export type BlockBodyV3 = BasicBlockBodyV3 | ValidationBlockBodyV3;

export interface BlockV3 {
  header: BlockHeaderV3;
  body: BlockBodyV3;
  signature: Ed25519SignatureV3;
}

export interface SlotCommitmentV3 {
  protocolVersion: number;
  slot: number;
  previousCommitmentId: Uint8Array;
  rootsId: Uint8Array;
  cumulativeWeight: bigint;
  referenceManaCost: bigint;
}

export type ProofNodeV3 =
  | { type: 0; l: ProofNodeV3; r: ProofNodeV3 }
  | { type: 1; hash: Uint8Array }
  | { type: 2; hash: Uint8Array };

export interface OutputIdProofV3 {
  slot: number;
  outputIndex: number;
  transactionCommitment: Uint8Array;
  outputCommitmentProof: ProofNodeV3;
}
