/** Building v3 genesis sections, signed transactions and signed blocks for the v3 node tests. */
import { blake2b256 } from '../../../src/core/crypto/blake2b.ts';
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../../src/core/crypto/ed25519.ts';
import {
  blockHashesV3,
  encodeBlockV3,
  networkIdFromName,
  outputIdV3,
  slotFromTime,
  transactionIdV3,
  transactionSigningHashV3,
  type BasicOutputV3,
  type BlockV3,
  type ProtocolParametersV3,
  type SignedTransactionPayloadV3,
  type TransactionV3,
  type UnlockV3,
} from '../../../src/core/v3/index.ts';
import { devProtocolParametersV3, genesisTransactionIdV3, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';

export const GENESIS_TIME = 1_700_000_000;
export const NS = 1_000_000_000n;

export interface Key {
  seed: Uint8Array;
  publicKey: Uint8Array;
  hash: Uint8Array;
  accountId: Uint8Array;
}

export function key(n: number): Key {
  const seed = new Uint8Array(32).fill(n);
  const publicKey = ed25519PublicKeyFromSeed(seed);
  const hash = blake2b256(publicKey);
  return { seed, publicKey, hash, accountId: blake2b256(hash) };
}

export function basic(amount: bigint, owner: Key, mana = 0n): BasicOutputV3 {
  return {
    type: 0,
    amount,
    mana,
    unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: owner.hash } }],
    features: [],
  };
}

/**
 * A genesis with `seats` validator seats (keys 1..seats, seeds held), a user issuer account (key 50) and
 * `funded` Basic outputs of 1 000 000 000 owned by key 60.
 */
export function testGenesisV3(
  options: { seats?: number; holdSeeds?: boolean; funded?: number; params?: ProtocolParametersV3 } = {},
): GenesisV3 {
  const params = options.params ?? devProtocolParametersV3(GENESIS_TIME);
  const seats = Array.from({ length: options.seats ?? 1 }, (_, i) => key(i + 1));
  return {
    protocolParameters: params,
    accounts: [
      ...seats.map((k) => ({
        accountId: k.accountId,
        blockIssuerKeys: [k.hash],
        seat: true,
        ...(options.holdSeeds === false ? {} : { validatorSeed: k.seed }),
      })),
      { accountId: USER.accountId, blockIssuerKeys: [USER.hash], seat: false },
    ],
    outputs: Array.from({ length: options.funded ?? 2 }, () => basic(1_000_000_000n, WALLET)),
  };
}

export const USER = key(50);
export const WALLET = key(60);

export function genesisOutputId(g: GenesisV3, i: number): Uint8Array {
  return outputIdV3(genesisTransactionIdV3(g.protocolParameters), i);
}

/** A transaction spending `inputs` (all owned by `owner`), signed: one signature unlock, then reference unlocks. */
export function signedTx(
  tx: Omit<TransactionV3, 'networkId' | 'contextInputs' | 'allotments' | 'capabilities'> & Partial<TransactionV3>,
  owner: Key,
  params: ProtocolParametersV3,
  badSignature = false,
): SignedTransactionPayloadV3 {
  const full: TransactionV3 = {
    networkId: networkIdFromName(params.networkName),
    contextInputs: [],
    allotments: [],
    capabilities: new Uint8Array(0),
    ...tx,
  };
  const signature = ed25519Sign(owner.seed, transactionSigningHashV3(full));
  if (badSignature) signature[0]! ^= 1;
  const unlocks: UnlockV3[] = full.inputs.map((_, i) =>
    i === 0 ? { type: 0, signature: { type: 0, publicKey: owner.publicKey, signature } } : { type: 1, reference: 0 },
  );
  return { type: 1, transaction: full, unlocks };
}

export function inputOf(outputId: Uint8Array) {
  return {
    type: 0 as const,
    transactionId: outputId.slice(0, 36),
    transactionOutputIndex: outputId[36]! | (outputId[37]! << 8),
  };
}

export function txIdOf(p: SignedTransactionPayloadV3): Uint8Array {
  return transactionIdV3(p.transaction);
}

/** A signed basic block by `issuer` with the given parents, issuing time (ns) and payload. */
export function basicBlock(
  params: ProtocolParametersV3,
  o: {
    issuer: Key;
    parents: Uint8Array[];
    issuingTime: bigint;
    payload?: SignedTransactionPayloadV3;
    commitmentId: Uint8Array;
    maxBurnedMana?: bigint;
  },
): Uint8Array {
  const block: BlockV3 = {
    header: {
      protocolVersion: 3,
      networkId: networkIdFromName(params.networkName),
      issuingTime: o.issuingTime,
      slotCommitmentId: o.commitmentId,
      latestFinalizedSlot: 0,
      issuerId: o.issuer.accountId,
    },
    body: {
      type: 0,
      strongParents: o.parents,
      weakParents: [],
      shallowLikeParents: [],
      maxBurnedMana: o.maxBurnedMana ?? 100_000n,
      ...(o.payload ? { payload: o.payload } : {}),
    },
    signature: { type: 0, publicKey: o.issuer.publicKey, signature: new Uint8Array(64) },
  };
  block.signature.signature = ed25519Sign(o.issuer.seed, blockHashesV3(encodeBlockV3(block)).signingMessage);
  return encodeBlockV3(block);
}

export function slotStartNs(params: ProtocolParametersV3, slot: number): bigint {
  const t =
    BigInt(params.genesisUnixTimestamp) * NS +
    BigInt(slot - params.genesisSlot - 1) * BigInt(params.slotDurationInSeconds) * NS;
  if (slotFromTime(t, params) !== slot)
    throw new Error(`slot arithmetic: ${t} is in slot ${slotFromTime(t, params)}, not ${slot}`);
  return t;
}
