/** Hand-built v3 models for the kinds tests: one of every address kind, a signature, a transaction, a basic output. */
import type * as V3 from '../../../src/core/v3/index.ts';

export const b32 = (n: number) => new Uint8Array(32).fill(n);
export const ed = (n: number): V3.Ed25519AddressV3 => ({ type: 0, pubKeyHash: b32(n) });
export const account = (n: number): V3.AccountAddressV3 => ({ type: 8, accountId: b32(n) });
export const nft: V3.NftAddressV3 = { type: 16, nftId: b32(3) };
export const anchor: V3.AnchorAddressV3 = { type: 24, anchorId: b32(4) };
export const implicit: V3.ImplicitAccountCreationAddressV3 = { type: 32, pubKeyHash: b32(5) };
export const multi: V3.MultiAddressV3 = {
  type: 40,
  addresses: [
    { address: ed(1), weight: 1 },
    { address: account(2), weight: 2 },
  ],
  threshold: 3,
};
export const restricted: V3.RestrictedAddressV3 = {
  type: 48,
  address: multi,
  allowedCapabilities: Uint8Array.of(0x01),
};
export const addresses: V3.AddressV3[] = [ed(1), account(2), nft, anchor, implicit, multi, restricted];

export const sig: V3.Ed25519SignatureV3 = { type: 0, publicKey: b32(9), signature: new Uint8Array(64).fill(8) };

/** A transaction of slot 5 spending two outputs of one transaction into `outputs`. */
export function tx(outputs: V3.OutputV3[], extra: Partial<V3.TransactionV3> = {}): V3.TransactionV3 {
  return {
    networkId: 8342982141227064571n,
    creationSlot: 5,
    contextInputs: [],
    inputs: [
      { type: 0, transactionId: new Uint8Array(36).fill(1), transactionOutputIndex: 0 },
      { type: 0, transactionId: new Uint8Array(36).fill(1), transactionOutputIndex: 1 },
    ],
    allotments: [],
    capabilities: new Uint8Array(0),
    outputs,
    ...extra,
  };
}

/** A basic output of amount 1 and no Mana that `address` unlocks; `extra` overrides any field. */
export function basicOutput(address: V3.AddressV3, extra: Partial<V3.BasicOutputV3> = {}): V3.BasicOutputV3 {
  return { type: 0, amount: 1n, mana: 0n, unlockConditions: [{ type: 0, address }], features: [], ...extra };
}

/** A new account output (ID zero, foundry counter 0) of amount 1 that ed(1) unlocks; `extra` overrides any field. */
export function accountOutput(extra: Partial<V3.AccountOutputV3> = {}): V3.AccountOutputV3 {
  return {
    type: 1,
    amount: 1n,
    mana: 0n,
    accountId: b32(0),
    foundryCounter: 0,
    unlockConditions: [{ type: 0, address: ed(1) }],
    features: [],
    immutableFeatures: [],
    ...extra,
  };
}

/** Foundry 1 of account(1), amount 1, one token at most and none minted; `extra` overrides any field. */
export function foundryOutput(extra: Partial<V3.FoundryOutputV3> = {}): V3.FoundryOutputV3 {
  return {
    type: 3,
    amount: 1n,
    serialNumber: 1,
    tokenScheme: { type: 0, mintedTokens: 0n, meltedTokens: 0n, maximumSupply: 1n },
    unlockConditions: [{ type: 6, address: account(1) }],
    features: [],
    immutableFeatures: [],
    ...extra,
  };
}

/** A new delegation (ID zero, nothing delegated yet) to account(1) that ed(1) unlocks; `extra` overrides any field. */
export function delegationOutput(extra: Partial<V3.DelegationOutputV3> = {}): V3.DelegationOutputV3 {
  return {
    type: 5,
    amount: 1n,
    delegatedAmount: 0n,
    delegationId: b32(0),
    validatorAddress: account(1),
    startEpoch: 0,
    endEpoch: 0,
    unlockConditions: [{ type: 0, address: ed(1) }],
    ...extra,
  };
}
