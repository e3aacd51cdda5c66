/**
 * Stardust protocol limits (docs/protocol.md §1.3). One table, used by the codec, the JSON mapping and the validator.
 */
export const LIMITS = {
  protocolVersion: 2,
  maxBlockLength: 32768,
  parents: { min: 1, max: 8 },
  inputs: { min: 1, max: 128 },
  outputs: { min: 1, max: 128 },
  /** Output index in an output ID / UTXO input: 0..127. */
  maxOutputIndex: 127,
  nativeTokens: { min: 0, max: 64 },
  /** Distinct native token IDs over all outputs of a transaction. */
  maxDistinctNativeTokens: 64,
  taggedDataTag: { min: 0, max: 64 },
  tagFeature: { min: 1, max: 64 },
  metadataFeature: { min: 1, max: 8192 },
  aliasStateMetadata: { min: 0, max: 8192 },
  milestoneMetadata: { min: 0, max: 8192 },
  protocolParamsBytes: { min: 0, max: 8192 },
  milestoneOptions: { min: 0, max: 2 },
  milestoneSignatures: { min: 1, max: 255 },
  receiptFunds: { min: 1, max: 127 },
  minMigratedFundsDeposit: 1_000_000n,
  /** Protocol parameters option: index < target <= index + 30. */
  maxProtocolParamsTargetDistance: 30,
  tailTransactionHashLength: 49,
  /** Per output kind: unlock conditions / features / immutable features count bounds. */
  basic: { unlockConditions: { min: 1, max: 4 }, features: { min: 0, max: 3 } },
  alias: { unlockConditions: { min: 2, max: 2 }, features: { min: 0, max: 2 }, immutableFeatures: { min: 0, max: 2 } },
  foundry: {
    unlockConditions: { min: 1, max: 1 },
    features: { min: 0, max: 1 },
    immutableFeatures: { min: 0, max: 1 },
  },
  nft: { unlockConditions: { min: 1, max: 4 }, features: { min: 0, max: 3 }, immutableFeatures: { min: 0, max: 2 } },
  maxUnlockReference: 127,
} as const;

export const ID_LENGTH = 32; // block, transaction, milestone, alias, NFT IDs; Ed25519 key hashes
export const OUTPUT_ID_LENGTH = 34;
export const TOKEN_ID_LENGTH = 38; // = foundry ID
export const ED25519_PUBLIC_KEY_LENGTH = 32;
export const ED25519_SIGNATURE_LENGTH = 64;
