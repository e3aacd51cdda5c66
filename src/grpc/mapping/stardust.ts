/**
 * The tables of the proto <-> model mapping for every Stardust object: one line per field, one line per union case.
 * The `Fields<M>` type makes a table fail to compile when the model gains a field the table does not map.
 */
import * as m from '../../core/model/index.ts';
import {
  ID_LENGTH,
  TOKEN_ID_LENGTH,
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
} from '../../core/model/limits.ts';
import type * as pb from '../gen/stardust.ts';
import {
  bool,
  bytes,
  string,
  fixedBytes,
  list,
  optional,
  struct,
  u16,
  u256,
  u32,
  u64,
  u8,
  union,
  type Codec,
} from './codec.ts';

type C<M, P> = Codec<M, P>;

const id = fixedBytes(ID_LENGTH);
const TAIL_TRANSACTION_HASH_LENGTH = m.LIMITS.tailTransactionHashLength;

// ---------------------------------------------------------------- addresses

export const ed25519Address: C<m.Ed25519Address, pb.Ed25519Address> = struct<m.Ed25519Address, pb.Ed25519Address>(
  m.ADDRESS_ED25519,
  { pubKeyHash: id },
);
export const aliasAddress: C<m.AliasAddress, pb.AliasAddress> = struct<m.AliasAddress, pb.AliasAddress>(
  m.ADDRESS_ALIAS,
  { aliasId: id },
);
export const nftAddress: C<m.NftAddress, pb.NftAddress> = struct<m.NftAddress, pb.NftAddress>(m.ADDRESS_NFT, {
  nftId: id,
});

export const address: C<m.Address, pb.Address> = union<m.Address, pb.Address>('address', [
  { type: m.ADDRESS_ED25519, case: 'ed25519', codec: ed25519Address },
  { type: m.ADDRESS_ALIAS, case: 'alias', codec: aliasAddress },
  { type: m.ADDRESS_NFT, case: 'nft', codec: nftAddress },
]);

// ---------------------------------------------------------------- unlock conditions

export const unlockCondition: C<m.UnlockCondition, pb.UnlockCondition> = union<m.UnlockCondition, pb.UnlockCondition>(
  'unlock condition',
  [
    {
      type: m.UC_ADDRESS,
      case: 'address',
      codec: struct<m.AddressUnlockCondition, pb.AddressUnlockCondition>(m.UC_ADDRESS, { address }),
    },
    {
      type: m.UC_STORAGE_DEPOSIT_RETURN,
      case: 'storageDepositReturn',
      codec: struct<m.StorageDepositReturnUnlockCondition, pb.StorageDepositReturnUnlockCondition>(
        m.UC_STORAGE_DEPOSIT_RETURN,
        {
          returnAddress: address,
          amount: u64,
        },
      ),
    },
    {
      type: m.UC_TIMELOCK,
      case: 'timelock',
      codec: struct<m.TimelockUnlockCondition, pb.TimelockUnlockCondition>(m.UC_TIMELOCK, { unixTime: u32 }),
    },
    {
      type: m.UC_EXPIRATION,
      case: 'expiration',
      codec: struct<m.ExpirationUnlockCondition, pb.ExpirationUnlockCondition>(m.UC_EXPIRATION, {
        returnAddress: address,
        unixTime: u32,
      }),
    },
    {
      type: m.UC_STATE_CONTROLLER,
      case: 'stateControllerAddress',
      codec: struct<m.StateControllerAddressUnlockCondition, pb.StateControllerAddressUnlockCondition>(
        m.UC_STATE_CONTROLLER,
        { address },
      ),
    },
    {
      type: m.UC_GOVERNOR,
      case: 'governorAddress',
      codec: struct<m.GovernorAddressUnlockCondition, pb.GovernorAddressUnlockCondition>(m.UC_GOVERNOR, { address }),
    },
    {
      type: m.UC_IMMUTABLE_ALIAS,
      case: 'immutableAliasAddress',
      codec: struct<m.ImmutableAliasAddressUnlockCondition, pb.ImmutableAliasAddressUnlockCondition>(
        m.UC_IMMUTABLE_ALIAS,
        {
          address: aliasAddress,
        },
      ),
    },
  ],
);

// ---------------------------------------------------------------- features

export const feature: C<m.Feature, pb.Feature> = union<m.Feature, pb.Feature>('feature', [
  {
    type: m.FEATURE_SENDER,
    case: 'sender',
    codec: struct<m.SenderFeature, pb.SenderFeature>(m.FEATURE_SENDER, { address }),
  },
  {
    type: m.FEATURE_ISSUER,
    case: 'issuer',
    codec: struct<m.IssuerFeature, pb.IssuerFeature>(m.FEATURE_ISSUER, { address }),
  },
  {
    type: m.FEATURE_METADATA,
    case: 'metadata',
    codec: struct<m.MetadataFeature, pb.MetadataFeature>(m.FEATURE_METADATA, { data: bytes }),
  },
  { type: m.FEATURE_TAG, case: 'tag', codec: struct<m.TagFeature, pb.TagFeature>(m.FEATURE_TAG, { tag: bytes }) },
]);

// ---------------------------------------------------------------- native tokens, token schemes

export const nativeToken: C<m.NativeToken, pb.NativeToken> = struct<m.NativeToken, pb.NativeToken>(undefined, {
  id: fixedBytes(TOKEN_ID_LENGTH),
  amount: u256,
});

export const tokenScheme: C<m.TokenScheme, pb.TokenScheme> = union<m.TokenScheme, pb.TokenScheme>('token scheme', [
  {
    type: m.TOKEN_SCHEME_SIMPLE,
    case: 'simple',
    codec: struct<m.SimpleTokenScheme, pb.SimpleTokenScheme>(m.TOKEN_SCHEME_SIMPLE, {
      mintedTokens: u256,
      meltedTokens: u256,
      maximumSupply: u256,
    }),
  },
]);

// ---------------------------------------------------------------- outputs

const features = list(feature);
const unlockConditions = list(unlockCondition);
const nativeTokens = list(nativeToken);

export const treasuryOutput: C<m.TreasuryOutput, pb.TreasuryOutput> = struct<m.TreasuryOutput, pb.TreasuryOutput>(
  m.OUTPUT_TREASURY,
  { amount: u64 },
);

export const basicOutput: C<m.BasicOutput, pb.BasicOutput> = struct<m.BasicOutput, pb.BasicOutput>(m.OUTPUT_BASIC, {
  amount: u64,
  nativeTokens,
  unlockConditions,
  features,
});

export const aliasOutput: C<m.AliasOutput, pb.AliasOutput> = struct<m.AliasOutput, pb.AliasOutput>(m.OUTPUT_ALIAS, {
  amount: u64,
  nativeTokens,
  aliasId: id,
  stateIndex: u32,
  stateMetadata: bytes,
  foundryCounter: u32,
  unlockConditions,
  features,
  immutableFeatures: features,
});

export const foundryOutput: C<m.FoundryOutput, pb.FoundryOutput> = struct<m.FoundryOutput, pb.FoundryOutput>(
  m.OUTPUT_FOUNDRY,
  {
    amount: u64,
    nativeTokens,
    serialNumber: u32,
    tokenScheme,
    unlockConditions,
    features,
    immutableFeatures: features,
  },
);

export const nftOutput: C<m.NftOutput, pb.NftOutput> = struct<m.NftOutput, pb.NftOutput>(m.OUTPUT_NFT, {
  amount: u64,
  nativeTokens,
  nftId: id,
  unlockConditions,
  features,
  immutableFeatures: features,
});

/** The outputs an essence may create (treasury outputs live only in treasury transactions). */
export const output: C<m.CommonOutput, pb.Output> = union<m.CommonOutput, pb.Output>('output', [
  { type: m.OUTPUT_BASIC, case: 'basic', codec: basicOutput },
  { type: m.OUTPUT_ALIAS, case: 'alias', codec: aliasOutput },
  { type: m.OUTPUT_FOUNDRY, case: 'foundry', codec: foundryOutput },
  { type: m.OUTPUT_NFT, case: 'nft', codec: nftOutput },
]);

// ---------------------------------------------------------------- inputs, signatures, unlocks

export const utxoInput: C<m.UtxoInput, pb.UtxoInput> = struct<m.UtxoInput, pb.UtxoInput>(m.INPUT_UTXO, {
  transactionId: id,
  transactionOutputIndex: u16,
});
export const treasuryInput: C<m.TreasuryInput, pb.TreasuryInput> = struct<m.TreasuryInput, pb.TreasuryInput>(
  m.INPUT_TREASURY,
  { milestoneId: id },
);

export const ed25519Signature: C<m.Ed25519Signature, pb.Ed25519Signature> = struct<
  m.Ed25519Signature,
  pb.Ed25519Signature
>(m.SIGNATURE_ED25519, {
  publicKey: fixedBytes(ED25519_PUBLIC_KEY_LENGTH),
  signature: fixedBytes(ED25519_SIGNATURE_LENGTH),
});

export const signature: C<m.Signature, pb.Signature> = union<m.Signature, pb.Signature>('signature', [
  { type: m.SIGNATURE_ED25519, case: 'ed25519', codec: ed25519Signature },
]);

export const unlock: C<m.Unlock, pb.Unlock> = union<m.Unlock, pb.Unlock>('unlock', [
  {
    type: m.UNLOCK_SIGNATURE,
    case: 'signature',
    codec: struct<m.SignatureUnlock, pb.SignatureUnlock>(m.UNLOCK_SIGNATURE, { signature }),
  },
  {
    type: m.UNLOCK_REFERENCE,
    case: 'reference',
    codec: struct<m.ReferenceUnlock, pb.ReferenceUnlock>(m.UNLOCK_REFERENCE, { reference: u16 }),
  },
  {
    type: m.UNLOCK_ALIAS,
    case: 'alias',
    codec: struct<m.AliasUnlock, pb.AliasUnlock>(m.UNLOCK_ALIAS, { reference: u16 }),
  },
  { type: m.UNLOCK_NFT, case: 'nft', codec: struct<m.NftUnlock, pb.NftUnlock>(m.UNLOCK_NFT, { reference: u16 }) },
]);

// ---------------------------------------------------------------- payloads

export const taggedDataPayload: C<m.TaggedDataPayload, pb.TaggedDataPayload> = struct<
  m.TaggedDataPayload,
  pb.TaggedDataPayload
>(m.PAYLOAD_TAGGED_DATA, { tag: bytes, data: bytes });

export const transactionEssence: C<m.TransactionEssence, pb.TransactionEssence> = struct<
  m.TransactionEssence,
  pb.TransactionEssence
>(m.ESSENCE_REGULAR, {
  networkId: u64,
  inputs: list(utxoInput),
  inputsCommitment: id,
  outputs: list(output),
  payload: optional(taggedDataPayload),
});

export const transactionPayload: C<m.TransactionPayload, pb.TransactionPayload> = struct<
  m.TransactionPayload,
  pb.TransactionPayload
>(m.PAYLOAD_TRANSACTION, {
  essence: transactionEssence,
  unlocks: list(unlock),
});

export const treasuryTransactionPayload: C<m.TreasuryTransactionPayload, pb.TreasuryTransactionPayload> = struct<
  m.TreasuryTransactionPayload,
  pb.TreasuryTransactionPayload
>(m.PAYLOAD_TREASURY_TRANSACTION, {
  input: treasuryInput,
  output: treasuryOutput,
});

export const migratedFundsEntry: C<m.MigratedFundsEntry, pb.MigratedFundsEntry> = struct<
  m.MigratedFundsEntry,
  pb.MigratedFundsEntry
>(undefined, {
  tailTransactionHash: fixedBytes(TAIL_TRANSACTION_HASH_LENGTH),
  address,
  deposit: u64,
});

export const receiptMilestoneOption: C<m.ReceiptMilestoneOption, pb.ReceiptMilestoneOption> = struct<
  m.ReceiptMilestoneOption,
  pb.ReceiptMilestoneOption
>(m.MILESTONE_OPTION_RECEIPT, {
  migratedAt: u32,
  final: bool,
  funds: list(migratedFundsEntry),
  transaction: treasuryTransactionPayload,
});

export const protocolParamsMilestoneOption: C<m.ProtocolParamsMilestoneOption, pb.ProtocolParamsMilestoneOption> =
  struct<m.ProtocolParamsMilestoneOption, pb.ProtocolParamsMilestoneOption>(m.MILESTONE_OPTION_PROTOCOL_PARAMS, {
    targetMilestoneIndex: u32,
    protocolVersion: u8,
    params: bytes,
  });

export const milestoneOption: C<m.MilestoneOption, pb.MilestoneOption> = union<m.MilestoneOption, pb.MilestoneOption>(
  'milestone option',
  [
    { type: m.MILESTONE_OPTION_RECEIPT, case: 'receipt', codec: receiptMilestoneOption },
    { type: m.MILESTONE_OPTION_PROTOCOL_PARAMS, case: 'protocolParams', codec: protocolParamsMilestoneOption },
  ],
);

export const milestonePayload: C<m.MilestonePayload, pb.MilestonePayload> = struct<
  m.MilestonePayload,
  pb.MilestonePayload
>(m.PAYLOAD_MILESTONE, {
  index: u32,
  timestamp: u32,
  protocolVersion: u8,
  previousMilestoneId: id,
  parents: list(id),
  inclusionMerkleRoot: id,
  appliedMerkleRoot: id,
  metadata: bytes,
  options: list(milestoneOption),
  signatures: list(ed25519Signature),
});

/** The payloads a block may carry. */
export const blockPayload: C<m.BlockPayload, pb.BlockPayload> = union<m.BlockPayload, pb.BlockPayload>('payload', [
  { type: m.PAYLOAD_TAGGED_DATA, case: 'taggedData', codec: taggedDataPayload },
  { type: m.PAYLOAD_TRANSACTION, case: 'transaction', codec: transactionPayload },
  { type: m.PAYLOAD_MILESTONE, case: 'milestone', codec: milestonePayload },
]);

// ---------------------------------------------------------------- block, protocol parameters

export const block: C<m.Block, pb.Block> = struct<m.Block, pb.Block>(undefined, {
  protocolVersion: u8,
  parents: list(id),
  payload: optional(blockPayload),
  nonce: u64,
});

export const rentStructure: C<m.RentStructure, pb.RentStructure> = struct<m.RentStructure, pb.RentStructure>(
  undefined,
  {
    vByteCost: u32,
    vByteFactorData: u8,
    vByteFactorKey: u8,
  },
);

export const protocolParameters: C<m.ProtocolParameters, pb.ProtocolParameters> = struct<
  m.ProtocolParameters,
  pb.ProtocolParameters
>(undefined, {
  version: u8,
  networkName: string,
  bech32Hrp: string,
  minPowScore: u32,
  belowMaxDepth: u8,
  rentStructure,
  tokenSupply: u64,
});
