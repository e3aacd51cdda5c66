/** Outputs, unlock conditions and features (docs/protocol.md §V6). u64/u256 are bigint; IDs and hashes are bytes. */
import type { AccountAddressV3, AddressV3 } from './address.ts';

export interface AddressUnlockConditionV3 {
  type: 0;
  address: AddressV3;
}
export interface StorageDepositReturnUnlockConditionV3 {
  type: 1;
  returnAddress: AddressV3;
  amount: bigint;
}
export interface TimelockUnlockConditionV3 {
  type: 2;
  slot: number;
}
export interface ExpirationUnlockConditionV3 {
  type: 3;
  returnAddress: AddressV3;
  slot: number;
}
export interface StateControllerAddressUnlockConditionV3 {
  type: 4;
  address: AddressV3;
}
export interface GovernorAddressUnlockConditionV3 {
  type: 5;
  address: AddressV3;
}
export interface ImmutableAccountAddressUnlockConditionV3 {
  type: 6;
  address: AccountAddressV3;
}
export type UnlockConditionV3 =
  | AddressUnlockConditionV3
  | StorageDepositReturnUnlockConditionV3
  | TimelockUnlockConditionV3
  | ExpirationUnlockConditionV3
  | StateControllerAddressUnlockConditionV3
  | GovernorAddressUnlockConditionV3
  | ImmutableAccountAddressUnlockConditionV3;

/** Metadata map: printable-ASCII key -> value bytes. */
export type MetadataEntriesV3 = Record<string, Uint8Array>;
export interface BlockIssuerKeyV3 {
  type: 0;
  pubKeyHash: Uint8Array;
}
export interface SenderFeatureV3 {
  type: 0;
  address: AddressV3;
}
export interface IssuerFeatureV3 {
  type: 1;
  address: AddressV3;
}
export interface MetadataFeatureV3 {
  type: 2;
  entries: MetadataEntriesV3;
}
export interface StateMetadataFeatureV3 {
  type: 3;
  entries: MetadataEntriesV3;
}
export interface TagFeatureV3 {
  type: 4;
  tag: Uint8Array;
}
export interface NativeTokenFeatureV3 {
  type: 5;
  id: Uint8Array;
  amount: bigint;
}
export interface BlockIssuerFeatureV3 {
  type: 6;
  expirySlot: number;
  blockIssuerKeys: BlockIssuerKeyV3[];
}
export interface StakingFeatureV3 {
  type: 7;
  stakedAmount: bigint;
  fixedCost: bigint;
  startEpoch: number;
  endEpoch: number;
}
export type FeatureV3 =
  | SenderFeatureV3
  | IssuerFeatureV3
  | MetadataFeatureV3
  | StateMetadataFeatureV3
  | TagFeatureV3
  | NativeTokenFeatureV3
  | BlockIssuerFeatureV3
  | StakingFeatureV3;

export interface SimpleTokenSchemeV3 {
  type: 0;
  mintedTokens: bigint;
  meltedTokens: bigint;
  maximumSupply: bigint;
}

export interface BasicOutputV3 {
  type: 0;
  amount: bigint;
  mana: bigint;
  unlockConditions: UnlockConditionV3[];
  features: FeatureV3[];
}
export interface AccountOutputV3 {
  type: 1;
  amount: bigint;
  mana: bigint;
  accountId: Uint8Array;
  foundryCounter: number;
  unlockConditions: UnlockConditionV3[];
  features: FeatureV3[];
  immutableFeatures: FeatureV3[];
}
export interface AnchorOutputV3 {
  type: 2;
  amount: bigint;
  mana: bigint;
  anchorId: Uint8Array;
  stateIndex: number;
  unlockConditions: UnlockConditionV3[];
  features: FeatureV3[];
  immutableFeatures: FeatureV3[];
}
export interface FoundryOutputV3 {
  type: 3;
  amount: bigint;
  serialNumber: number;
  tokenScheme: SimpleTokenSchemeV3;
  unlockConditions: UnlockConditionV3[];
  features: FeatureV3[];
  immutableFeatures: FeatureV3[];
}
export interface NftOutputV3 {
  type: 4;
  amount: bigint;
  mana: bigint;
  nftId: Uint8Array;
  unlockConditions: UnlockConditionV3[];
  features: FeatureV3[];
  immutableFeatures: FeatureV3[];
}
export interface DelegationOutputV3 {
  type: 5;
  amount: bigint;
  delegatedAmount: bigint;
  delegationId: Uint8Array;
  validatorAddress: AccountAddressV3;
  startEpoch: number;
  endEpoch: number;
  unlockConditions: UnlockConditionV3[];
}
export type OutputV3 =
  | BasicOutputV3
  | AccountOutputV3
  | AnchorOutputV3
  | FoundryOutputV3
  | NftOutputV3
  | DelegationOutputV3;
