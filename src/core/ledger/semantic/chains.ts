/**
 * Chain-constrained outputs (alias, NFT, foundry) and their chain keys.
 * Keys: an alias or NFT chain uses the key of its address (so an unlocked chain and its address share one key);
 * a foundry uses the hex of its 38-byte foundry ID (= native token ID), which never collides with a 33-byte key.
 */
import { isZero, toHex } from '../../bytes.ts';
import { chainIdOf, foundryId } from '../../ids/chain-ids.ts';
import { ADDRESS_ALIAS, ADDRESS_NFT, type Address } from '../../model/address.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  UC_IMMUTABLE_ALIAS,
  type AliasOutput,
  type CommonOutput,
  type FoundryOutput,
  type NftOutput,
} from '../../model/output.ts';
import { addressKey } from './describe.ts';
import { findCondition } from './lookup.ts';

export type ChainOutput = AliasOutput | NftOutput | FoundryOutput;

export interface ChainEntry {
  /** Map key (see above). */
  key: string;
  /** Alias ID, NFT ID (32 bytes) or foundry ID (38 bytes); implicit IDs already resolved on the input side. */
  id: Uint8Array;
  output: ChainOutput;
  /** Input or output index. */
  index: number;
}

export function isChainOutput(o: CommonOutput): o is ChainOutput {
  return o.type === OUTPUT_ALIAS || o.type === OUTPUT_NFT || o.type === OUTPUT_FOUNDRY;
}

/** The alias a foundry belongs to (its Immutable Alias Address unlock condition). */
export function foundryAliasId(f: FoundryOutput): Uint8Array {
  const uc = findCondition(f, UC_IMMUTABLE_ALIAS);
  if (!uc)
    throw new TypeError('foundry output without an Immutable Alias Address unlock condition (not syntactically valid)');
  return uc.address.aliasId;
}

export function foundryIdOf(f: FoundryOutput): Uint8Array {
  return foundryId(foundryAliasId(f), f.serialNumber, f.tokenScheme.type);
}

/** The address of an alias or NFT chain, whose key equals the chain key. */
export function chainAddress(output: AliasOutput | NftOutput, id: Uint8Array): Address {
  return output.type === OUTPUT_ALIAS ? { type: ADDRESS_ALIAS, aliasId: id } : { type: ADDRESS_NFT, nftId: id };
}

function entry(output: ChainOutput, id: Uint8Array, index: number): ChainEntry {
  const key = output.type === OUTPUT_FOUNDRY ? toHex(id) : addressKey(chainAddress(output, id));
  return { key, id, output, index };
}

/** Chain entry of a consumed output; a zero alias/NFT ID is replaced by the implicit ID derived from the output ID. */
export function inputChain(output: ChainOutput, outputId: Uint8Array, index: number): ChainEntry {
  // foundryIdOf throws for a foundry without its alias, which chainIdOf leaves undefined
  const id = output.type === OUTPUT_FOUNDRY ? foundryIdOf(output) : chainIdOf(outputId, output)!;
  return entry(output, id, index);
}

/** Chain entry of a created output, or `undefined` for an alias/NFT with a zero ID (a chain created by this tx). */
export function outputChain(output: ChainOutput, index: number): ChainEntry | undefined {
  if (output.type === OUTPUT_FOUNDRY) return entry(output, foundryIdOf(output), index);
  const explicit = output.type === OUTPUT_ALIAS ? output.aliasId : output.nftId;
  return isZero(explicit) ? undefined : entry(output, explicit, index);
}

export function describeChain(c: { output: ChainOutput; id: Uint8Array }): string {
  const kind = c.output.type === OUTPUT_ALIAS ? 'alias' : c.output.type === OUTPUT_NFT ? 'NFT' : 'foundry';
  return `${kind} 0x${toHex(c.id)}`;
}
