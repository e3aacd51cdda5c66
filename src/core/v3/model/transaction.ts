/** Transactions, payloads, signatures and unlocks (docs/protocol.md §V4, §V5). */
import type { OutputV3 } from './output.ts';

export interface Ed25519SignatureV3 {
  type: 0;
  publicKey: Uint8Array;
  signature: Uint8Array;
}

export interface CommitmentInputV3 {
  type: 0;
  commitmentId: Uint8Array;
}
export interface BlockIssuanceCreditInputV3 {
  type: 1;
  accountId: Uint8Array;
}
export interface RewardInputV3 {
  type: 2;
  index: number;
}
export type ContextInputV3 = CommitmentInputV3 | BlockIssuanceCreditInputV3 | RewardInputV3;

export interface UtxoInputV3 {
  type: 0;
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}
export interface AllotmentV3 {
  accountId: Uint8Array;
  mana: bigint;
}

export interface TaggedDataPayloadV3 {
  type: 0;
  tag: Uint8Array;
  data: Uint8Array;
}
export interface CandidacyAnnouncementPayloadV3 {
  type: 2;
}

export interface TransactionV3 {
  networkId: bigint;
  creationSlot: number;
  contextInputs: ContextInputV3[];
  inputs: UtxoInputV3[];
  allotments: AllotmentV3[];
  /** Capability bitmask, 0 or 1 byte, no trailing zero byte. */
  capabilities: Uint8Array;
  /** Only Tagged Data may be embedded. */
  payload?: TaggedDataPayloadV3;
  outputs: OutputV3[];
}

export interface SignatureUnlockV3 {
  type: 0;
  signature: Ed25519SignatureV3;
}
export interface ReferenceUnlockV3 {
  type: 1;
  reference: number;
}
export interface AccountUnlockV3 {
  type: 2;
  reference: number;
}
export interface AnchorUnlockV3 {
  type: 3;
  reference: number;
}
export interface NftUnlockV3 {
  type: 4;
  reference: number;
}
export interface MultiUnlockV3 {
  type: 5;
  unlocks: UnlockV3[];
}
export interface EmptyUnlockV3 {
  type: 6;
}
export type UnlockV3 =
  | SignatureUnlockV3
  | ReferenceUnlockV3
  | AccountUnlockV3
  | AnchorUnlockV3
  | NftUnlockV3
  | MultiUnlockV3
  | EmptyUnlockV3;

export interface SignedTransactionPayloadV3 {
  type: 1;
  transaction: TransactionV3;
  unlocks: UnlockV3[];
}

export type BlockPayloadV3 = TaggedDataPayloadV3 | SignedTransactionPayloadV3 | CandidacyAnnouncementPayloadV3;
