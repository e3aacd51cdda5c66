/**
 * What the indexer knows about one output, the way inx-indexer's `entryForOutput` (pkg/indexer/indexer.go) reads it:
 * the unlock-condition addresses with their roles, expiration and timelock times, sender, issuer, tag, the number of
 * native tokens and the chain ID (an alias or NFT whose ID field is zero gets BLAKE2b-256 of the output ID that
 * created it, TIP-18/19; a foundry's ID is its token ID). Both the index writes and the query filters use these
 * facts, so what is indexed and what is matched cannot drift apart.
 */
import { encodeAddress } from '../../codec/address.ts';
import { equalBytes, isZero } from '../../bytes.ts';
import { aliasIdFromOutputId, foundryId, nftIdFromOutputId } from '../../ids/chain-ids.ts';
import type { Address } from '../../model/address.ts';
import {
  FEATURE_ISSUER,
  FEATURE_SENDER,
  FEATURE_TAG,
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
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

export function outputFacts(outputId: Uint8Array, output: CommonOutput): OutputFacts {
  const facts: OutputFacts = { outputType: output.type, nativeTokenCount: output.nativeTokens.length };
  for (const uc of output.unlockConditions) {
    switch (uc.type) {
      case UC_ADDRESS:
        facts.address = encodeAddress(uc.address);
        break;
      case UC_STORAGE_DEPOSIT_RETURN:
        facts.storageDepositReturnAddress = encodeAddress(uc.returnAddress);
        break;
      case UC_TIMELOCK:
        facts.timelockTime = uc.unixTime;
        break;
      case UC_EXPIRATION:
        facts.expirationReturnAddress = encodeAddress(uc.returnAddress);
        facts.expirationTime = uc.unixTime;
        break;
      case UC_STATE_CONTROLLER:
        facts.stateController = encodeAddress(uc.address);
        break;
      case UC_GOVERNOR:
        facts.governor = encodeAddress(uc.address);
        break;
      case UC_IMMUTABLE_ALIAS:
        facts.immutableAlias = encodeAddress(uc.address);
        break;
    }
  }
  const sender = featureAddress(output.features, FEATURE_SENDER);
  if (sender !== undefined) facts.sender = sender;
  if (output.type !== 3) {
    const issuer = featureAddress(output.immutableFeatures, FEATURE_ISSUER);
    if (issuer !== undefined) facts.issuer = issuer;
  }
  const tag = output.features.find((f) => f.type === FEATURE_TAG);
  if (tag !== undefined) facts.tag = tag.tag.slice();
  if (output.type === OUTPUT_ALIAS)
    facts.chainId = isZero(output.aliasId) ? aliasIdFromOutputId(outputId) : output.aliasId.slice();
  else if (output.type === OUTPUT_NFT)
    facts.chainId = isZero(output.nftId) ? nftIdFromOutputId(outputId) : output.nftId.slice();
  else if (output.type === OUTPUT_FOUNDRY && facts.immutableAlias !== undefined) {
    facts.chainId = foundryId(facts.immutableAlias.subarray(1), output.serialNumber, output.tokenScheme.type);
  }
  return facts;
}

/** The distinct unlock-condition addresses of an output with their roles, in a fixed order (address, then by role). */
export function unlockAddresses(f: OutputFacts): UnlockAddress[] {
  const out: UnlockAddress[] = [];
  const add = (address: Uint8Array | undefined, role: number): void => {
    if (address === undefined) return;
    const same = out.find((u) => equalBytes(u.address, address));
    if (same !== undefined) same.roles |= role;
    else out.push({ address, roles: role });
  };
  add(f.address, ROLE.address);
  add(f.storageDepositReturnAddress, ROLE.storageDepositReturn);
  add(f.expirationReturnAddress, ROLE.expirationReturn);
  add(f.stateController, ROLE.stateController);
  add(f.governor, ROLE.governor);
  add(f.immutableAlias, ROLE.immutableAlias);
  return out;
}
