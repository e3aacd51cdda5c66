/**
 * `/outputs/alias/{aliasId}`, `/outputs/nft/{nftId}`, `/outputs/foundry/{foundryId}` (TIP-26): the output ID of the
 * unspent output that holds the chain now, from indexByChainId. An alias or NFT created with a zero ID is found under
 * BLAKE2b-256 of the output ID that created it (facts.ts), as inx-indexer stores it. IDs given as text must be
 * 0x-prefixed hex of the exact length (32 bytes, a foundry ID 38); anything else is a ProtocolError naming the
 * parameter. Undefined when no unspent output holds the chain (the route answers 404).
 */
import { clip, fromHex0x } from '../../bytes.ts';
import { reject } from '../../errors.ts';
import { ID_LENGTH, TOKEN_ID_LENGTH } from '../../model/limits.ts';
import { OUTPUT_ALIAS, OUTPUT_FOUNDRY, OUTPUT_NFT } from '../../model/output.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { INDEXER_TABLES, type ChainIndexKey } from './tables.ts';

/** Reads a chain ID path parameter (`aliasId`, `nftId`, `foundryId`): 0x-hex of `length` bytes. */
export function parseChainId(param: 'aliasId' | 'nftId' | 'foundryId', text: string): Uint8Array {
  const length = param === 'foundryId' ? TOKEN_ID_LENGTH : ID_LENGTH;
  let id: Uint8Array;
  try {
    id = fromHex0x(text, param);
  } catch (e) {
    return reject('INVALID_HEX', `Invalid ${param}: ${(e as Error).message.replace(`${param}: `, '')}`, {
      field: param,
      value: clip(String(text)),
    });
  }
  if (id.length !== length)
    reject('LENGTH_OUT_OF_RANGE', `Invalid ${param}: expected ${length} bytes, got ${id.length}`, {
      field: param,
      value: clip(text),
    });
  return id;
}

async function lookup(
  store: NodeStore,
  outputType: ChainIndexKey['outputType'],
  param: 'aliasId' | 'nftId' | 'foundryId',
  id: Uint8Array | string,
): Promise<Uint8Array | undefined> {
  const chainId = typeof id === 'string' ? parseChainId(param, id) : id;
  const length = param === 'foundryId' ? TOKEN_ID_LENGTH : ID_LENGTH;
  if (!(chainId instanceof Uint8Array) || chainId.length !== length)
    throw new RangeError(`${param} must be ${length} bytes`);
  return store.get(INDEXER_TABLES.byChainId, { outputType, chainId });
}

export function outputIdByAliasId(store: NodeStore, aliasId: Uint8Array | string): Promise<Uint8Array | undefined> {
  return lookup(store, OUTPUT_ALIAS, 'aliasId', aliasId);
}

export function outputIdByNftId(store: NodeStore, nftId: Uint8Array | string): Promise<Uint8Array | undefined> {
  return lookup(store, OUTPUT_NFT, 'nftId', nftId);
}

export function outputIdByFoundryId(store: NodeStore, foundryId: Uint8Array | string): Promise<Uint8Array | undefined> {
  return lookup(store, OUTPUT_FOUNDRY, 'foundryId', foundryId);
}
