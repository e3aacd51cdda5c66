/** Type codes of IOTA 2.0 (protocol version 3) objects (docs/protocol.md §V2). All are u8 on the wire. */

export const PROTOCOL_VERSION_V3 = 3;
/** Largest serialized block. */
export const MAX_BLOCK_SIZE_V3 = 32768;

export const BODY_BASIC = 0;
export const BODY_VALIDATION = 1;

export const PAYLOAD_TAGGED_DATA = 0;
export const PAYLOAD_SIGNED_TRANSACTION = 1;
export const PAYLOAD_CANDIDACY_ANNOUNCEMENT = 2;

export const SIGNATURE_ED25519 = 0;

export const CONTEXT_INPUT_COMMITMENT = 0;
export const CONTEXT_INPUT_BLOCK_ISSUANCE_CREDIT = 1;
export const CONTEXT_INPUT_REWARD = 2;

export const INPUT_UTXO = 0;

export const OUTPUT_BASIC = 0;
export const OUTPUT_ACCOUNT = 1;
export const OUTPUT_ANCHOR = 2;
export const OUTPUT_FOUNDRY = 3;
export const OUTPUT_NFT = 4;
export const OUTPUT_DELEGATION = 5;

export const UC_ADDRESS = 0;
export const UC_STORAGE_DEPOSIT_RETURN = 1;
export const UC_TIMELOCK = 2;
export const UC_EXPIRATION = 3;
export const UC_STATE_CONTROLLER = 4;
export const UC_GOVERNOR = 5;
export const UC_IMMUTABLE_ACCOUNT = 6;

export const FEATURE_SENDER = 0;
export const FEATURE_ISSUER = 1;
export const FEATURE_METADATA = 2;
export const FEATURE_STATE_METADATA = 3;
export const FEATURE_TAG = 4;
export const FEATURE_NATIVE_TOKEN = 5;
export const FEATURE_BLOCK_ISSUER = 6;
export const FEATURE_STAKING = 7;

export const ADDRESS_ED25519 = 0;
export const ADDRESS_ACCOUNT = 8;
export const ADDRESS_NFT = 16;
export const ADDRESS_ANCHOR = 24;
export const ADDRESS_IMPLICIT_ACCOUNT_CREATION = 32;
export const ADDRESS_MULTI = 40;
export const ADDRESS_RESTRICTED = 48;

export const UNLOCK_SIGNATURE = 0;
export const UNLOCK_REFERENCE = 1;
export const UNLOCK_ACCOUNT = 2;
export const UNLOCK_ANCHOR = 3;
export const UNLOCK_NFT = 4;
export const UNLOCK_MULTI = 5;
export const UNLOCK_EMPTY = 6;

export const BLOCK_ISSUER_KEY_ED25519 = 0;
export const TOKEN_SCHEME_SIMPLE = 0;
export const PROTOCOL_PARAMETERS_V3 = 0;

/** Capability bits of a transaction (bit i = byte i>>3, bit i&7). */
export const CAPABILITY_BURN_NATIVE_TOKENS = 0;
export const CAPABILITY_BURN_MANA = 1;
export const CAPABILITY_DESTROY_ACCOUNT_OUTPUTS = 2;
export const CAPABILITY_DESTROY_ANCHOR_OUTPUTS = 3;
export const CAPABILITY_DESTROY_FOUNDRY_OUTPUTS = 4;
export const CAPABILITY_DESTROY_NFT_OUTPUTS = 5;

export const BLOCK_ID_LENGTH = 36;
export const SLOT_COMMITMENT_ID_LENGTH = 36;
export const TRANSACTION_ID_LENGTH = 36;
export const OUTPUT_ID_LENGTH = 38;
export const ACCOUNT_ID_LENGTH = 32;
export const TOKEN_ID_LENGTH = 38;
