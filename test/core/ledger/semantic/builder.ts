/**
 * Builders for semantic-validation tests: real Ed25519 keys, outputs of every kind, resolved inputs and transactions
 * whose inputs commitment and signatures are computed, so a test changes exactly the one thing it is about.
 */
import {
  ed25519AddressFromPublicKey,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
} from '../../../../src/core/crypto/index.ts';
import {
  aliasIdFromOutputId,
  essenceHash,
  foundryId,
  inputsCommitmentOf,
  nftIdFromOutputId,
  outputId,
} from '../../../../src/core/ids/index.ts';
import {
  validateTransactionSemantics,
  type SemanticInput,
  type SemanticResult,
} from '../../../../src/core/ledger/semantic.ts';
import {
  ADDRESS_ALIAS,
  ADDRESS_NFT,
  ESSENCE_REGULAR,
  INPUT_UTXO,
  OUTPUT_ALIAS,
  OUTPUT_BASIC,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  PAYLOAD_TRANSACTION,
  SHIMMER_PROTOCOL,
  SIGNATURE_ED25519,
  TOKEN_SCHEME_SIMPLE,
  UC_ADDRESS,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UNLOCK_ALIAS,
  UNLOCK_NFT,
  UNLOCK_REFERENCE,
  UNLOCK_SIGNATURE,
  type Address,
  type AliasAddress,
  type AliasOutput,
  type BasicOutput,
  type CommonOutput,
  type Ed25519Address,
  type Feature,
  type FoundryOutput,
  type NativeToken,
  type NftAddress,
  type NftOutput,
  type TransactionPayload,
  type Unlock,
  type UnlockCondition,
} from '../../../../src/core/model/index.ts';

/** The confirming milestone's timestamp used by every test. */
export const NOW = 1_700_000_000;
export const CTX = { milestoneIndex: 1000, milestoneTimestamp: NOW, protocol: SHIMMER_PROTOCOL };

export interface Key {
  seed: Uint8Array;
  publicKey: Uint8Array;
  address: Ed25519Address;
}

export function key(n: number): Key {
  const seed = new Uint8Array(32).fill(n);
  const publicKey = ed25519PublicKeyFromSeed(seed);
  return { seed, publicKey, address: ed25519AddressFromPublicKey(publicKey) };
}

export function aliasAddress(aliasId: Uint8Array): AliasAddress {
  return { type: ADDRESS_ALIAS, aliasId };
}
export function nftAddress(nftId: Uint8Array): NftAddress {
  return { type: ADDRESS_NFT, nftId };
}

export function id32(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

export const ZERO_ID = new Uint8Array(32);

export function basic(
  amount: bigint,
  address: Address,
  more: Partial<Omit<BasicOutput, 'type'>> & { conditions?: UnlockCondition[] } = {},
): BasicOutput {
  const { conditions = [], ...rest } = more;
  return {
    type: OUTPUT_BASIC,
    amount,
    nativeTokens: [],
    features: [],
    ...rest,
    unlockConditions: [{ type: UC_ADDRESS, address } as UnlockCondition, ...conditions].sort((a, b) => a.type - b.type),
  };
}

export function alias(
  amount: bigint,
  aliasId: Uint8Array,
  stateController: Address,
  governor: Address,
  more: Partial<Omit<AliasOutput, 'type'>> = {},
): AliasOutput {
  return {
    type: OUTPUT_ALIAS,
    amount,
    nativeTokens: [],
    aliasId,
    stateIndex: 0,
    stateMetadata: new Uint8Array(),
    foundryCounter: 0,
    unlockConditions: [
      { type: UC_STATE_CONTROLLER, address: stateController },
      { type: UC_GOVERNOR, address: governor },
    ],
    features: [],
    immutableFeatures: [],
    ...more,
  };
}

export function nft(
  amount: bigint,
  nftId: Uint8Array,
  owner: Address,
  more: Partial<Omit<NftOutput, 'type'>> & { conditions?: UnlockCondition[] } = {},
): NftOutput {
  const { conditions = [], ...rest } = more;
  return {
    type: OUTPUT_NFT,
    amount,
    nativeTokens: [],
    nftId,
    features: [],
    immutableFeatures: [],
    ...rest,
    unlockConditions: [{ type: UC_ADDRESS, address: owner } as UnlockCondition, ...conditions].sort(
      (a, b) => a.type - b.type,
    ),
  };
}

export interface Supply {
  minted: bigint;
  melted?: bigint;
  max?: bigint;
}

export function foundry(
  amount: bigint,
  aliasId: Uint8Array,
  serialNumber: number,
  supply: Supply,
  more: Partial<Omit<FoundryOutput, 'type'>> = {},
): FoundryOutput {
  return {
    type: OUTPUT_FOUNDRY,
    amount,
    nativeTokens: [],
    serialNumber,
    tokenScheme: {
      type: TOKEN_SCHEME_SIMPLE,
      mintedTokens: supply.minted,
      meltedTokens: supply.melted ?? 0n,
      maximumSupply: supply.max ?? 1_000_000n,
    },
    unlockConditions: [{ type: UC_IMMUTABLE_ALIAS, address: aliasAddress(aliasId) }],
    features: [],
    immutableFeatures: [],
    ...more,
  };
}

export function tokenId(aliasId: Uint8Array, serialNumber: number): Uint8Array {
  return foundryId(aliasId, serialNumber, TOKEN_SCHEME_SIMPLE);
}

export function tokens(...list: [Uint8Array, bigint][]): NativeToken[] {
  return list.map(([id, amount]) => ({ id, amount }));
}

export function sender(address: Address): Feature {
  return { type: 0, address };
}
export function issuer(address: Address): Feature {
  return { type: 1, address };
}
export function metadata(text: string): Feature {
  return { type: 2, data: new TextEncoder().encode(text) };
}

/** A consumed output: output `index` of a transaction whose ID is 32 × `txByte`. */
export function input(output: CommonOutput, txByte: number, index = 0): SemanticInput {
  return { outputId: outputId(id32(txByte), index), output };
}

/** The implicit alias / NFT ID of a consumed zero-ID output. */
export function implicitAliasId(i: SemanticInput): Uint8Array {
  return aliasIdFromOutputId(i.outputId);
}
export function implicitNftId(i: SemanticInput): Uint8Array {
  return nftIdFromOutputId(i.outputId);
}

/** How input i is unlocked: a signature by a key, or a reference / alias / NFT unlock to an earlier index. */
export type UnlockSpec = { sig: Key } | { ref: number } | { alias: number } | { nft: number } | { badSig: Key };

export interface TxOptions {
  /** Replaces the computed inputs commitment. */
  inputsCommitment?: Uint8Array;
}

export function transaction(
  inputs: SemanticInput[],
  outputs: CommonOutput[],
  unlocks: UnlockSpec[],
  opts: TxOptions = {},
): TransactionPayload {
  const essence = {
    type: ESSENCE_REGULAR,
    networkId: 14379272398717627559n,
    inputs: inputs.map((i) => ({
      type: INPUT_UTXO,
      transactionId: i.outputId.slice(0, 32),
      transactionOutputIndex: i.outputId[32]! | (i.outputId[33]! << 8),
    })),
    inputsCommitment: opts.inputsCommitment ?? inputsCommitmentOf(inputs.map((i) => i.output)),
    outputs,
  } as TransactionPayload['essence'];
  const message = essenceHash(essence);
  const built: Unlock[] = unlocks.map((u) => {
    if ('sig' in u)
      return {
        type: UNLOCK_SIGNATURE,
        signature: { type: SIGNATURE_ED25519, publicKey: u.sig.publicKey, signature: ed25519Sign(u.sig.seed, message) },
      };
    if ('badSig' in u) {
      const other = ed25519Sign(u.badSig.seed, new Uint8Array(32));
      return {
        type: UNLOCK_SIGNATURE,
        signature: { type: SIGNATURE_ED25519, publicKey: u.badSig.publicKey, signature: other },
      };
    }
    if ('ref' in u) return { type: UNLOCK_REFERENCE, reference: u.ref };
    if ('alias' in u) return { type: UNLOCK_ALIAS, reference: u.alias };
    return { type: UNLOCK_NFT, reference: u.nft };
  });
  return { type: PAYLOAD_TRANSACTION, essence, unlocks: built };
}

/** Builds, signs and validates in one go. */
export function validate(
  inputs: SemanticInput[],
  outputs: CommonOutput[],
  unlocks: UnlockSpec[],
  opts?: TxOptions,
): SemanticResult {
  return validateTransactionSemantics(transaction(inputs, outputs, unlocks, opts), inputs, CTX);
}

/** Asserts the transaction applies, showing the conflict message otherwise. */
export function expectApplies(result: SemanticResult): void {
  if (result.reason !== 0)
    throw new Error(`expected the transaction to apply, got conflict ${result.reason}: ${result.message}`);
}

/** Asserts the exact conflict code, and optionally that the message mentions `text`. */
export function expectConflict(result: SemanticResult, reason: number, text?: string): void {
  if (result.reason !== reason)
    throw new Error(`expected conflict ${reason}, got ${result.reason}${result.message ? `: ${result.message}` : ''}`);
  if (!result.message) throw new Error(`conflict ${reason} without a message`);
  if (text !== undefined && !result.message.includes(text))
    throw new Error(`message "${result.message}" does not mention "${text}"`);
}
