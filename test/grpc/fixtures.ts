/** Hand-built model objects covering every kind the proto mapping knows, with extreme values. */
import * as m from '../../src/core/model/index.ts';

export const U64_MAX = (1n << 64n) - 1n;
export const U256_MAX = (1n << 256n) - 1n;

/** `n` bytes counting up from `seed` (distinct, non-zero content so swapped fields show). */
export function bytesOf(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (seed + i) & 0xff);
}

export const ed25519: m.Ed25519Address = { type: m.ADDRESS_ED25519, pubKeyHash: bytesOf(32, 1) };
export const alias: m.AliasAddress = { type: m.ADDRESS_ALIAS, aliasId: bytesOf(32, 2) };
export const nft: m.NftAddress = { type: m.ADDRESS_NFT, nftId: bytesOf(32, 3) };

export const allUnlockConditions: m.UnlockCondition[] = [
  { type: m.UC_ADDRESS, address: ed25519 },
  { type: m.UC_STORAGE_DEPOSIT_RETURN, returnAddress: alias, amount: U64_MAX },
  { type: m.UC_TIMELOCK, unixTime: 0xffffffff },
  { type: m.UC_EXPIRATION, returnAddress: nft, unixTime: 1 },
  { type: m.UC_STATE_CONTROLLER, address: ed25519 },
  { type: m.UC_GOVERNOR, address: alias },
  { type: m.UC_IMMUTABLE_ALIAS, address: alias },
];

export const allFeatures: m.Feature[] = [
  { type: m.FEATURE_SENDER, address: ed25519 },
  { type: m.FEATURE_ISSUER, address: nft },
  { type: m.FEATURE_METADATA, data: bytesOf(100, 4) },
  { type: m.FEATURE_TAG, tag: bytesOf(64, 5) },
];

export const nativeTokens: m.NativeToken[] = [
  { id: bytesOf(38, 6), amount: U256_MAX },
  { id: bytesOf(38, 7), amount: 1n },
  { id: bytesOf(38, 8), amount: 0x0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1fn },
];

export const basic: m.BasicOutput = {
  type: m.OUTPUT_BASIC,
  amount: U64_MAX,
  nativeTokens,
  unlockConditions: allUnlockConditions.slice(0, 4),
  features: allFeatures,
};

export const aliasOutput: m.AliasOutput = {
  type: m.OUTPUT_ALIAS,
  amount: 1n,
  nativeTokens: [],
  aliasId: bytesOf(32, 9),
  stateIndex: 0xffffffff,
  stateMetadata: bytesOf(3, 10),
  foundryCounter: 7,
  unlockConditions: [allUnlockConditions[4]!, allUnlockConditions[5]!],
  features: [allFeatures[0]!, allFeatures[2]!],
  immutableFeatures: [allFeatures[1]!, allFeatures[2]!],
};

export const foundry: m.FoundryOutput = {
  type: m.OUTPUT_FOUNDRY,
  amount: 1000n,
  nativeTokens: [nativeTokens[1]!],
  serialNumber: 42,
  tokenScheme: { type: m.TOKEN_SCHEME_SIMPLE, mintedTokens: U256_MAX, meltedTokens: 0n, maximumSupply: 1n << 255n },
  unlockConditions: [allUnlockConditions[6]!],
  features: [allFeatures[2]!],
  immutableFeatures: [allFeatures[2]!],
};

export const nftOutput: m.NftOutput = {
  type: m.OUTPUT_NFT,
  amount: 0n,
  nativeTokens: [],
  nftId: bytesOf(32, 11),
  unlockConditions: [
    allUnlockConditions[0]!,
    allUnlockConditions[1]!,
    allUnlockConditions[2]!,
    allUnlockConditions[3]!,
  ],
  features: [allFeatures[0]!, allFeatures[2]!, allFeatures[3]!],
  immutableFeatures: [allFeatures[1]!, allFeatures[2]!],
};

export const signature: m.Ed25519Signature = {
  type: m.SIGNATURE_ED25519,
  publicKey: bytesOf(32, 12),
  signature: bytesOf(64, 13),
};

export const taggedData: m.TaggedDataPayload = {
  type: m.PAYLOAD_TAGGED_DATA,
  tag: bytesOf(5, 14),
  data: bytesOf(300, 15),
};
export const emptyTaggedData: m.TaggedDataPayload = {
  type: m.PAYLOAD_TAGGED_DATA,
  tag: new Uint8Array(0),
  data: new Uint8Array(0),
};

export const transaction: m.TransactionPayload = {
  type: m.PAYLOAD_TRANSACTION,
  essence: {
    type: m.ESSENCE_REGULAR,
    networkId: U64_MAX,
    inputs: [
      { type: m.INPUT_UTXO, transactionId: bytesOf(32, 16), transactionOutputIndex: 0 },
      { type: m.INPUT_UTXO, transactionId: bytesOf(32, 17), transactionOutputIndex: 0xffff },
    ],
    inputsCommitment: bytesOf(32, 18),
    outputs: [basic, aliasOutput, foundry, nftOutput],
    payload: taggedData,
  },
  unlocks: [
    { type: m.UNLOCK_SIGNATURE, signature },
    { type: m.UNLOCK_REFERENCE, reference: 0 },
    { type: m.UNLOCK_ALIAS, reference: 0xffff },
    { type: m.UNLOCK_NFT, reference: 3 },
  ],
};

export const treasuryTransaction: m.TreasuryTransactionPayload = {
  type: m.PAYLOAD_TREASURY_TRANSACTION,
  input: { type: m.INPUT_TREASURY, milestoneId: bytesOf(32, 19) },
  output: { type: m.OUTPUT_TREASURY, amount: U64_MAX },
};

export const protocolParamsOption: m.ProtocolParamsMilestoneOption = {
  type: m.MILESTONE_OPTION_PROTOCOL_PARAMS,
  targetMilestoneIndex: 0xffffffff,
  protocolVersion: 255,
  params: bytesOf(50, 20),
};

export const milestone: m.MilestonePayload = {
  type: m.PAYLOAD_MILESTONE,
  index: 0xffffffff,
  timestamp: 1_700_000_000,
  protocolVersion: 2,
  previousMilestoneId: bytesOf(32, 21),
  parents: [bytesOf(32, 22), bytesOf(32, 23)],
  inclusionMerkleRoot: bytesOf(32, 24),
  appliedMerkleRoot: bytesOf(32, 25),
  metadata: bytesOf(10, 26),
  options: [
    {
      type: m.MILESTONE_OPTION_RECEIPT,
      migratedAt: 123,
      final: true,
      funds: [
        { tailTransactionHash: bytesOf(49, 27), address: ed25519, deposit: U64_MAX },
        { tailTransactionHash: bytesOf(49, 28), address: ed25519, deposit: 1_000_000n },
      ],
      transaction: treasuryTransaction,
    },
    protocolParamsOption,
  ],
  signatures: [signature, { type: m.SIGNATURE_ED25519, publicKey: bytesOf(32, 29), signature: bytesOf(64, 30) }],
};

const parents = [bytesOf(32, 31), bytesOf(32, 32), bytesOf(32, 33)];

/** One block per payload kind, plus one without payload and one asking the node to fill parents and nonce. */
export const blocks: Record<string, m.Block> = {
  'no payload': { protocolVersion: 2, parents, nonce: U64_MAX },
  'tagged data': { protocolVersion: 2, parents, payload: taggedData, nonce: 12345n },
  'empty tagged data': { protocolVersion: 2, parents: [parents[0]!], payload: emptyTaggedData, nonce: 1n },
  transaction: { protocolVersion: 2, parents, payload: transaction, nonce: 0n },
  milestone: { protocolVersion: 255, parents, payload: milestone, nonce: 0n },
  'auto-fill (no parents, nonce 0)': { protocolVersion: 2, parents: [], payload: taggedData, nonce: 0n },
};
