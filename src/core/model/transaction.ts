/** Inputs, signatures, unlocks, essence and the transaction payload (TIP-20 / docs/protocol.md §3.2, §4, §10). */
import type { CommonOutput } from './output.ts';
import type { TaggedDataPayload } from './payload.ts';

export const INPUT_UTXO = 0;
export const INPUT_TREASURY = 1;
export interface UtxoInput {
  type: typeof INPUT_UTXO;
  transactionId: Uint8Array;
  transactionOutputIndex: number;
}
export interface TreasuryInput {
  type: typeof INPUT_TREASURY;
  milestoneId: Uint8Array;
}
export type Input = UtxoInput | TreasuryInput;

export const SIGNATURE_ED25519 = 0;
export interface Ed25519Signature {
  type: typeof SIGNATURE_ED25519;
  publicKey: Uint8Array;
  signature: Uint8Array;
}
export type Signature = Ed25519Signature;

export const UNLOCK_SIGNATURE = 0;
export const UNLOCK_REFERENCE = 1;
export const UNLOCK_ALIAS = 2;
export const UNLOCK_NFT = 3;
export interface SignatureUnlock {
  type: typeof UNLOCK_SIGNATURE;
  signature: Signature;
}
export interface ReferenceUnlock {
  type: typeof UNLOCK_REFERENCE;
  reference: number;
}
export interface AliasUnlock {
  type: typeof UNLOCK_ALIAS;
  reference: number;
}
export interface NftUnlock {
  type: typeof UNLOCK_NFT;
  reference: number;
}
export type Unlock = SignatureUnlock | ReferenceUnlock | AliasUnlock | NftUnlock;

export const ESSENCE_REGULAR = 1;
export interface TransactionEssence {
  type: typeof ESSENCE_REGULAR;
  networkId: bigint;
  /** Only UTXO inputs are valid in an essence. */
  inputs: UtxoInput[];
  inputsCommitment: Uint8Array;
  outputs: CommonOutput[];
  payload?: TaggedDataPayload;
}
