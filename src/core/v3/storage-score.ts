/**
 * Storage score and minimum storage deposit of an output (TIP-47, iota.go StorageScoreStructure), checked against
 * the TIP-41..44/54/40 vectors. Every serialized byte scores `factorData`, plus:
 *   offsetOutput = offsetOutputOverhead + factorData × (38 + 36 + 4)   (output ID, block ID, slot stored with it)
 *   + offsetEd25519BlockIssuerKey per block issuer key, + offsetStakingFeature with a Staking Feature,
 *   + offsetDelegation for a Delegation Output,
 *   and an Implicit Account Creation address scores offsetImplicitAccountCreationAddress instead of its 33 bytes:
 *   the score of a minimal block issuer account minus a basic output without its address (so that the deposit of
 *   an implicit account covers the account it becomes).
 * minimum deposit = storageCost × score.
 */
import type { AccountOutputV3, BasicOutputV3, OutputV3 } from './model/output.ts';
import type { AddressV3 } from './model/address.ts';
import type { StorageScoreParametersV3 } from './model/params.ts';
import { encodeOutputV3 } from './codec/index.ts';

const STORED_METADATA_BYTES = 38 + 36 + 4;
const ADDRESS_BYTES = 33;

/** Score of the output with every address scored as plain bytes. */
function byteScore(output: OutputV3, s: StorageScoreParametersV3): bigint {
  const factor = BigInt(s.factorData);
  let score =
    s.offsetOutputOverhead + factor * BigInt(STORED_METADATA_BYTES) + factor * BigInt(encodeOutputV3(output).length);
  const features = 'features' in output ? output.features : [];
  for (const f of features) {
    if (f.type === 6) score += s.offsetEd25519BlockIssuerKey * BigInt(f.blockIssuerKeys.length);
    if (f.type === 7) score += s.offsetStakingFeature;
  }
  if (output.type === 5) score += s.offsetDelegation;
  return score;
}

const ZERO32 = new Uint8Array(32);

/** offsetImplicitAccountCreationAddress of iota.go, derived from the parameters. */
export function implicitAccountCreationAddressOffsetV3(s: StorageScoreParametersV3): bigint {
  const dummyAccount: AccountOutputV3 = {
    type: 1,
    amount: 0n,
    mana: 0n,
    accountId: ZERO32,
    foundryCounter: 0,
    unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: ZERO32 } }],
    features: [{ type: 6, expirySlot: 0, blockIssuerKeys: [{ type: 0, pubKeyHash: ZERO32 }] }],
    immutableFeatures: [],
  };
  const dummyBasic: BasicOutputV3 = {
    type: 0,
    amount: 0n,
    mana: 0n,
    unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: ZERO32 } }],
    features: [],
  };
  return byteScore(dummyAccount, s) - (byteScore(dummyBasic, s) - BigInt(s.factorData) * BigInt(ADDRESS_BYTES));
}

function implicitAddressCount(output: OutputV3): number {
  const addresses: AddressV3[] = [];
  for (const uc of output.unlockConditions) {
    if ('address' in uc) addresses.push(uc.address);
    if ('returnAddress' in uc) addresses.push(uc.returnAddress);
  }
  for (const f of 'features' in output ? output.features : []) if ('address' in f) addresses.push(f.address);
  for (const f of 'immutableFeatures' in output ? output.immutableFeatures : [])
    if ('address' in f) addresses.push(f.address);
  return addresses.filter((a) => a.type === 32).length;
}

export function storageScoreV3(output: OutputV3, s: StorageScoreParametersV3): bigint {
  const implicit = implicitAddressCount(output);
  const score = byteScore(output, s);
  if (implicit === 0) return score;
  return (
    score +
    BigInt(implicit) * (implicitAccountCreationAddressOffsetV3(s) - BigInt(s.factorData) * BigInt(ADDRESS_BYTES))
  );
}

export function minimumStorageDepositV3(output: OutputV3, s: StorageScoreParametersV3): bigint {
  return s.storageCost * storageScoreV3(output, s);
}

/** Minimum deposit of the basic output that returns a Storage Deposit Return amount to `returnAddress`. */
export function minimumReturnDepositV3(returnAddress: AddressV3, s: StorageScoreParametersV3): bigint {
  return minimumStorageDepositV3(
    { type: 0, amount: 0n, mana: 0n, unlockConditions: [{ type: 0, address: returnAddress }], features: [] },
    s,
  );
}
