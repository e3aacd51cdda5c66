/** Outputs, unlock conditions, features, native tokens and token schemes (TIP-18 / docs/protocol.md §5-§8). */
import type { Address, AliasAddress } from './address.ts';

export const UC_ADDRESS = 0;
export const UC_STORAGE_DEPOSIT_RETURN = 1;
export const UC_TIMELOCK = 2;
export const UC_EXPIRATION = 3;
export const UC_STATE_CONTROLLER = 4;
export const UC_GOVERNOR = 5;
export const UC_IMMUTABLE_ALIAS = 6;

export interface AddressUnlockCondition {
  type: typeof UC_ADDRESS;
  address: Address;
}
export interface StorageDepositReturnUnlockCondition {
  type: typeof UC_STORAGE_DEPOSIT_RETURN;
  returnAddress: Address;
  amount: bigint;
}
export interface TimelockUnlockCondition {
  type: typeof UC_TIMELOCK;
  unixTime: number;
}
export interface ExpirationUnlockCondition {
  type: typeof UC_EXPIRATION;
  returnAddress: Address;
  unixTime: number;
}
export interface StateControllerAddressUnlockCondition {
  type: typeof UC_STATE_CONTROLLER;
  address: Address;
}
export interface GovernorAddressUnlockCondition {
  type: typeof UC_GOVERNOR;
  address: Address;
}
export interface ImmutableAliasAddressUnlockCondition {
  type: typeof UC_IMMUTABLE_ALIAS;
  address: AliasAddress;
}
export type UnlockCondition =
  | AddressUnlockCondition
  | StorageDepositReturnUnlockCondition
  | TimelockUnlockCondition
  | ExpirationUnlockCondition
  | StateControllerAddressUnlockCondition
  | GovernorAddressUnlockCondition
  | ImmutableAliasAddressUnlockCondition;
/** The unlock conditions that name an address: all but the timelock. */
export type AddressNamingUnlockCondition = Exclude<UnlockCondition, TimelockUnlockCondition>;

/** The address an unlock condition names: the return address of Storage Deposit Return and Expiration. */
export function unlockConditionAddress(uc: AddressNamingUnlockCondition): Address {
  return uc.type === UC_STORAGE_DEPOSIT_RETURN || uc.type === UC_EXPIRATION ? uc.returnAddress : uc.address;
}

export const FEATURE_SENDER = 0;
export const FEATURE_ISSUER = 1;
export const FEATURE_METADATA = 2;
export const FEATURE_TAG = 3;

export interface SenderFeature {
  type: typeof FEATURE_SENDER;
  address: Address;
}
export interface IssuerFeature {
  type: typeof FEATURE_ISSUER;
  address: Address;
}
export interface MetadataFeature {
  type: typeof FEATURE_METADATA;
  data: Uint8Array;
}
export interface TagFeature {
  type: typeof FEATURE_TAG;
  tag: Uint8Array;
}
export type Feature = SenderFeature | IssuerFeature | MetadataFeature | TagFeature;

export interface NativeToken {
  /** Token ID = foundry ID, 38 bytes. */
  id: Uint8Array;
  /** u256, never 0 in a valid output. */
  amount: bigint;
}

export const TOKEN_SCHEME_SIMPLE = 0;
export interface SimpleTokenScheme {
  type: typeof TOKEN_SCHEME_SIMPLE;
  mintedTokens: bigint;
  meltedTokens: bigint;
  maximumSupply: bigint;
}
export type TokenScheme = SimpleTokenScheme;

export const OUTPUT_TREASURY = 2;
export const OUTPUT_BASIC = 3;
export const OUTPUT_ALIAS = 4;
export const OUTPUT_FOUNDRY = 5;
export const OUTPUT_NFT = 6;

export interface TreasuryOutput {
  type: typeof OUTPUT_TREASURY;
  amount: bigint;
}

export interface BasicOutput {
  type: typeof OUTPUT_BASIC;
  amount: bigint;
  nativeTokens: NativeToken[];
  unlockConditions: UnlockCondition[];
  features: Feature[];
}

export interface AliasOutput {
  type: typeof OUTPUT_ALIAS;
  amount: bigint;
  nativeTokens: NativeToken[];
  aliasId: Uint8Array;
  stateIndex: number;
  stateMetadata: Uint8Array;
  foundryCounter: number;
  unlockConditions: UnlockCondition[];
  features: Feature[];
  immutableFeatures: Feature[];
}

export interface FoundryOutput {
  type: typeof OUTPUT_FOUNDRY;
  amount: bigint;
  nativeTokens: NativeToken[];
  serialNumber: number;
  tokenScheme: TokenScheme;
  unlockConditions: UnlockCondition[];
  features: Feature[];
  immutableFeatures: Feature[];
}

export interface NftOutput {
  type: typeof OUTPUT_NFT;
  amount: bigint;
  nativeTokens: NativeToken[];
  nftId: Uint8Array;
  unlockConditions: UnlockCondition[];
  features: Feature[];
  immutableFeatures: Feature[];
}

/** Outputs a transaction essence may carry. */
export type CommonOutput = BasicOutput | AliasOutput | FoundryOutput | NftOutput;
export type Output = TreasuryOutput | CommonOutput;
