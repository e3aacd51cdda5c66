/**
 * The TIP-25 JSON shapes that Hornet / iota.go emit (docs/protocol.md §18). Key order of every interface = emitted key
 * order. `HexString` = `0x` + lowercase hex; `U64String` = decimal digits; `U256Hex` = `0x` + hex without leading
 * zeros.
 */
export type HexString = string;
export type U64String = string;
export type U256Hex = string;

// Addresses (§9)
export interface Ed25519AddressJson {
  type: 0;
  pubKeyHash: HexString;
}
export interface AliasAddressJson {
  type: 8;
  aliasId: HexString;
}
export interface NftAddressJson {
  type: 16;
  nftId: HexString;
}
export type AddressJson = Ed25519AddressJson | AliasAddressJson | NftAddressJson;

// Unlock conditions (§7)
export interface AddressUnlockConditionJson {
  type: 0;
  address: AddressJson;
}
export interface StorageDepositReturnUnlockConditionJson {
  type: 1;
  returnAddress: AddressJson;
  amount: U64String;
}
export interface TimelockUnlockConditionJson {
  type: 2;
  unixTime: number;
}
export interface ExpirationUnlockConditionJson {
  type: 3;
  returnAddress: AddressJson;
  unixTime: number;
}
export interface StateControllerAddressUnlockConditionJson {
  type: 4;
  address: AddressJson;
}
export interface GovernorAddressUnlockConditionJson {
  type: 5;
  address: AddressJson;
}
export interface ImmutableAliasAddressUnlockConditionJson {
  type: 6;
  address: AliasAddressJson;
}
export type UnlockConditionJson =
  | AddressUnlockConditionJson
  | StorageDepositReturnUnlockConditionJson
  | TimelockUnlockConditionJson
  | ExpirationUnlockConditionJson
  | StateControllerAddressUnlockConditionJson
  | GovernorAddressUnlockConditionJson
  | ImmutableAliasAddressUnlockConditionJson;

// Features (§8)
export interface SenderFeatureJson {
  type: 0;
  address: AddressJson;
}
export interface IssuerFeatureJson {
  type: 1;
  address: AddressJson;
}
export interface MetadataFeatureJson {
  type: 2;
  data: HexString;
}
export interface TagFeatureJson {
  type: 3;
  tag: HexString;
}
export type FeatureJson = SenderFeatureJson | IssuerFeatureJson | MetadataFeatureJson | TagFeatureJson;

// Native tokens and token scheme (§5, §6)
export interface NativeTokenJson {
  id: HexString;
  amount: U256Hex;
}
export interface SimpleTokenSchemeJson {
  type: 0;
  mintedTokens: U256Hex;
  meltedTokens: U256Hex;
  maximumSupply: U256Hex;
}
export type TokenSchemeJson = SimpleTokenSchemeJson;

// Outputs (§5)
export interface TreasuryOutputJson {
  type: 2;
  amount: U64String;
}
export interface BasicOutputJson {
  type: 3;
  amount: U64String;
  nativeTokens?: NativeTokenJson[];
  unlockConditions: UnlockConditionJson[];
  features?: FeatureJson[];
}
export interface AliasOutputJson {
  type: 4;
  amount: U64String;
  nativeTokens?: NativeTokenJson[];
  aliasId: HexString;
  stateIndex: number;
  stateMetadata?: HexString;
  foundryCounter: number;
  unlockConditions: UnlockConditionJson[];
  features?: FeatureJson[];
  immutableFeatures?: FeatureJson[];
}
export interface FoundryOutputJson {
  type: 5;
  amount: U64String;
  nativeTokens?: NativeTokenJson[];
  serialNumber: number;
  tokenScheme: TokenSchemeJson;
  unlockConditions: UnlockConditionJson[];
  features?: FeatureJson[];
  immutableFeatures?: FeatureJson[];
}
export interface NftOutputJson {
  type: 6;
  amount: U64String;
  nativeTokens?: NativeTokenJson[];
  nftId: HexString;
  unlockConditions: UnlockConditionJson[];
  features?: FeatureJson[];
  immutableFeatures?: FeatureJson[];
}
export type CommonOutputJson = BasicOutputJson | AliasOutputJson | FoundryOutputJson | NftOutputJson;
export type OutputJson = TreasuryOutputJson | CommonOutputJson;

// Inputs, signatures, unlocks (§4, §10)
export interface UtxoInputJson {
  type: 0;
  transactionId: HexString;
  transactionOutputIndex: number;
}
export interface TreasuryInputJson {
  type: 1;
  milestoneId: HexString;
}
export type InputJson = UtxoInputJson | TreasuryInputJson;

export interface Ed25519SignatureJson {
  type: 0;
  publicKey: HexString;
  signature: HexString;
}
export type SignatureJson = Ed25519SignatureJson;

export interface SignatureUnlockJson {
  type: 0;
  signature: SignatureJson;
}
export interface ReferenceUnlockJson {
  type: 1;
  reference: number;
}
export interface AliasUnlockJson {
  type: 2;
  reference: number;
}
export interface NftUnlockJson {
  type: 3;
  reference: number;
}
export type UnlockJson = SignatureUnlockJson | ReferenceUnlockJson | AliasUnlockJson | NftUnlockJson;

// Payloads (§3)
export interface TaggedDataPayloadJson {
  type: 5;
  tag?: HexString;
  data?: HexString;
}

export interface TransactionEssenceJson {
  type: 1;
  networkId: U64String;
  inputs: UtxoInputJson[];
  inputsCommitment: HexString;
  outputs: CommonOutputJson[];
  payload?: TaggedDataPayloadJson;
}

export interface TransactionPayloadJson {
  type: 6;
  essence: TransactionEssenceJson;
  unlocks: UnlockJson[];
}

export interface TreasuryTransactionPayloadJson {
  type: 4;
  input: TreasuryInputJson;
  output: TreasuryOutputJson;
}

export interface MigratedFundsEntryJson {
  tailTransactionHash: HexString;
  address: AddressJson;
  deposit: U64String;
}

export interface ReceiptMilestoneOptionJson {
  type: 0;
  migratedAt: number;
  final: boolean;
  funds: MigratedFundsEntryJson[];
  transaction: TreasuryTransactionPayloadJson;
}
export interface ProtocolParamsMilestoneOptionJson {
  type: 1;
  targetMilestoneIndex: number;
  protocolVersion: number;
  params: HexString;
}
export type MilestoneOptionJson = ReceiptMilestoneOptionJson | ProtocolParamsMilestoneOptionJson;

export interface MilestonePayloadJson {
  type: 7;
  index: number;
  timestamp: number;
  protocolVersion: number;
  previousMilestoneId: HexString;
  parents: HexString[];
  inclusionMerkleRoot: HexString;
  appliedMerkleRoot: HexString;
  metadata?: HexString;
  options?: MilestoneOptionJson[];
  signatures: Ed25519SignatureJson[];
}

export type BlockPayloadJson = TaggedDataPayloadJson | TransactionPayloadJson | MilestonePayloadJson;
export type PayloadJson = BlockPayloadJson | TreasuryTransactionPayloadJson;

// Block (§2)
export interface BlockJson {
  protocolVersion: number;
  parents: HexString[];
  payload?: BlockPayloadJson;
  nonce: U64String;
}

// Protocol parameters, the `protocol` object of GET /api/core/v2/info (§11)
export interface RentStructureJson {
  vByteCost: number;
  vByteFactorData: number;
  vByteFactorKey: number;
}
export interface ProtocolParametersJson {
  version: number;
  networkName: string;
  bech32Hrp: string;
  minPowScore: number;
  belowMaxDepth: number;
  rentStructure: RentStructureJson;
  tokenSupply: U64String;
}
