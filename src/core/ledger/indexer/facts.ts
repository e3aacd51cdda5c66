/**
 * What the indexer knows about one output, the way inx-indexer's `entryForOutput` (pkg/indexer/indexer.go) reads it:
 * the unlock-condition addresses with their roles, expiration and timelock times, sender, issuer, tag, the number of
 * native tokens and the chain ID (an alias or NFT whose ID field is zero gets BLAKE2b-256 of the output ID that
 * created it, TIP-18/19; a foundry's ID is its token ID). Both the index writes and the query filters use these
 * facts, so what is indexed and what is matched cannot drift apart.
 */
import { encodeAddress } from '../../codec/address.ts';
import { equalBytes } from '../../bytes.ts';
import { chainIdOf } from '../../ids/chain-ids.ts';
import type { Address } from '../../model/address.ts';
import {
  FEATURE_ISSUER,
  FEATURE_SENDER,
  FEATURE_TAG,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  unlockConditionAddress,
  type AddressNamingUnlockCondition,
  type CommonOutput,
  type Feature,
} from '../../model/output.ts';
import { ROLE, type IndexedOutputType } from './tables.ts';

export interface OutputFacts {
  outputType: IndexedOutputType;
  nativeTokenCount: number;
  /** Serialized addresses (type ‖ 32-byte ID), by unlock condition. */
  address?: Uint8Array;
  storageDepositReturnAddress?: Uint8Array;
  expirationReturnAddress?: Uint8Array;
  expirationTime?: number;
  timelockTime?: number;
  stateController?: Uint8Array;
  governor?: Uint8Array;
  immutableAlias?: Uint8Array;
  /** Serialized addresses of the Sender (features) and Issuer (immutable features) features. */
  sender?: Uint8Array;
  issuer?: Uint8Array;
  tag?: Uint8Array;
  /** Alias / NFT ID (implicit ones resolved) or foundry ID. */
  chainId?: Uint8Array;
}

/** An address of an unlock condition and every role it has in the output. */
export interface UnlockAddress {
  address: Uint8Array;
  roles: number;
}

function featureAddress(
  features: readonly Feature[],
  type: typeof FEATURE_SENDER | typeof FEATURE_ISSUER,
): Uint8Array | undefined {
  const f = features.find((x) => x.type === type) as { address: Address } | undefined;
  return f === undefined ? undefined : encodeAddress(f.address);
}

/** Where the address each kind of unlock condition names goes among the facts, and its role in the index. */
const UNLOCK_ADDRESS_FACTS = {
  [UC_ADDRESS]: { field: 'address', role: ROLE.address },
  [UC_STORAGE_DEPOSIT_RETURN]: { field: 'storageDepositReturnAddress', role: ROLE.storageDepositReturn },
  [UC_EXPIRATION]: { field: 'expirationReturnAddress', role: ROLE.expirationReturn },
  [UC_STATE_CONTROLLER]: { field: 'stateController', role: ROLE.stateController },
  [UC_GOVERNOR]: { field: 'governor', role: ROLE.governor },
  [UC_IMMUTABLE_ALIAS]: { field: 'immutableAlias', role: ROLE.immutableAlias },
} as const satisfies Record<AddressNamingUnlockCondition['type'], { field: keyof OutputFacts; role: number }>;

export function outputFacts(outputId: Uint8Array, output: CommonOutput): OutputFacts {
  const facts: OutputFacts = { outputType: output.type, nativeTokenCount: output.nativeTokens.length };
  for (const uc of output.unlockConditions) {
    if (uc.type === UC_TIMELOCK) {
      facts.timelockTime = uc.unixTime;
      continue;
    }
    if (uc.type === UC_EXPIRATION) facts.expirationTime = uc.unixTime;
    facts[UNLOCK_ADDRESS_FACTS[uc.type].field] = encodeAddress(unlockConditionAddress(uc));
  }
  const sender = featureAddress(output.features, FEATURE_SENDER);
  if (sender !== undefined) facts.sender = sender;
  if (output.type !== 3) {
    const issuer = featureAddress(output.immutableFeatures, FEATURE_ISSUER);
    if (issuer !== undefined) facts.issuer = issuer;
  }
  const tag = output.features.find((f) => f.type === FEATURE_TAG);
  if (tag !== undefined) facts.tag = tag.tag.slice();
  const chainId = chainIdOf(outputId, output);
  if (chainId !== undefined) facts.chainId = chainId.slice();
  return facts;
}

/** The distinct unlock-condition addresses of an output with their roles, in a fixed order (address, then by role). */
export function unlockAddresses(f: OutputFacts): UnlockAddress[] {
  const out: UnlockAddress[] = [];
  for (const { field, role } of Object.values(UNLOCK_ADDRESS_FACTS)) {
    const address = f[field];
    if (address === undefined) continue;
    const same = out.find((u) => equalBytes(u.address, address));
    if (same !== undefined) same.roles |= role;
    else out.push({ address, roles: role });
  }
  return out;
}
