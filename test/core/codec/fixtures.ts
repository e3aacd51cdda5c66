/** Small hand-built models for codec and validator tests (valid under the Shimmer parameters unless changed). */
import type {
  Address,
  BasicOutput,
  Block,
  MilestonePayload,
  TransactionPayload,
  AliasOutput,
  FoundryOutput,
  NftOutput,
  ReceiptMilestoneOption,
} from '../../../src/core/model/index.ts';

export const SHIMMER_NETWORK_ID = 14364762045254553490n;

export const fill = (n: number, v: number): Uint8Array => new Uint8Array(n).fill(v);
export const ed = (v: number): Address => ({ type: 0, pubKeyHash: fill(32, v) });
export const aliasAddr = (v: number): Address => ({ type: 8, aliasId: fill(32, v) });
export const nftAddr = (v: number): Address => ({ type: 16, nftId: fill(32, v) });

export function basicOutput(amount = 1_000_000n): BasicOutput {
  return { type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address: ed(0x11) }], features: [] };
}

export function aliasOutput(): AliasOutput {
  return {
    type: 4,
    amount: 1_000_000n,
    nativeTokens: [],
    aliasId: fill(32, 0xa1),
    stateIndex: 3,
    stateMetadata: new Uint8Array([1, 2, 3]),
    foundryCounter: 1,
    unlockConditions: [
      { type: 4, address: ed(0x12) },
      { type: 5, address: ed(0x13) },
    ],
    features: [{ type: 0, address: ed(0x12) }],
    immutableFeatures: [{ type: 1, address: ed(0x14) }],
  };
}

export function foundryOutput(): FoundryOutput {
  return {
    type: 5,
    amount: 1_000_000n,
    nativeTokens: [],
    serialNumber: 1,
    tokenScheme: { type: 0, mintedTokens: 100n, meltedTokens: 10n, maximumSupply: 1000n },
    unlockConditions: [{ type: 6, address: { type: 8, aliasId: fill(32, 0xa1) } }],
    features: [],
    immutableFeatures: [{ type: 2, data: new Uint8Array([9]) }],
  };
}

export function nftOutput(): NftOutput {
  return {
    type: 6,
    amount: 1_000_000n,
    nativeTokens: [],
    nftId: fill(32, 0xb1),
    unlockConditions: [{ type: 0, address: ed(0x15) }],
    features: [{ type: 3, tag: new Uint8Array([7]) }],
    immutableFeatures: [],
  };
}

export function transaction(): TransactionPayload {
  return {
    type: 6,
    essence: {
      type: 1,
      networkId: SHIMMER_NETWORK_ID,
      inputs: [
        { type: 0, transactionId: fill(32, 0x21), transactionOutputIndex: 0 },
        { type: 0, transactionId: fill(32, 0x21), transactionOutputIndex: 1 },
      ],
      inputsCommitment: fill(32, 0x31),
      outputs: [basicOutput(), aliasOutput(), foundryOutput(), nftOutput()],
      payload: { type: 5, tag: new Uint8Array([1]), data: new Uint8Array([2]) },
    },
    unlocks: [
      { type: 0, signature: { type: 0, publicKey: fill(32, 0x41), signature: fill(64, 0x42) } },
      { type: 1, reference: 0 },
    ],
  };
}

export function txBlock(): Block {
  return { protocolVersion: 2, parents: [fill(32, 1), fill(32, 2)], payload: transaction(), nonce: 12345n };
}

export function receipt(): ReceiptMilestoneOption {
  return {
    type: 0,
    migratedAt: 10,
    final: false,
    funds: [
      { tailTransactionHash: fill(49, 0xa0), address: ed(0x51), deposit: 1_000_000n },
      { tailTransactionHash: fill(49, 0xa1), address: ed(0x52), deposit: 2_000_000n },
    ],
    transaction: { type: 4, input: { type: 1, milestoneId: fill(32, 0x61) }, output: { type: 2, amount: 5_000_000n } },
  };
}

export function milestone(parents: Uint8Array[]): MilestonePayload {
  return {
    type: 7,
    index: 100,
    timestamp: 1_700_000_000,
    protocolVersion: 2,
    previousMilestoneId: fill(32, 0x71),
    parents,
    inclusionMerkleRoot: fill(32, 0x72),
    appliedMerkleRoot: fill(32, 0x73),
    metadata: new Uint8Array([1]),
    options: [receipt(), { type: 1, targetMilestoneIndex: 110, protocolVersion: 2, params: new Uint8Array([1, 2]) }],
    signatures: [
      { type: 0, publicKey: fill(32, 0x81), signature: fill(64, 0x91) },
      { type: 0, publicKey: fill(32, 0x82), signature: fill(64, 0x92) },
    ],
  };
}

export function milestoneBlock(): Block {
  const parents = [fill(32, 1), fill(32, 2)];
  return { protocolVersion: 2, parents, payload: milestone(parents), nonce: 0n };
}

export function taggedBlock(tag: Uint8Array = new Uint8Array([1]), data: Uint8Array = new Uint8Array([2])): Block {
  return { protocolVersion: 2, parents: [fill(32, 1)], payload: { type: 5, tag, data }, nonce: 1n };
}

/** Deep copy preserving Uint8Array and bigint. */
export function clone<T>(x: T): T {
  return structuredClone(x);
}
