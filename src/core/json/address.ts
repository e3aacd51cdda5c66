/** Addresses (docs/protocol.md §9): `{ type: 0, pubKeyHash }`, `{ type: 8, aliasId }`, `{ type: 16, nftId }`. */
import {
  ADDRESS_ALIAS,
  ADDRESS_ED25519,
  ADDRESS_NFT,
  ID_LENGTH,
  type Address,
  type AliasAddress,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readFixed, readObject, required } from './read.ts';
import { readType, type TypeContext, type TypeFamily } from './type.ts';
import type { AddressJson, AliasAddressJson } from './types.ts';
import { bytesToJson } from './write.ts';

export const ADDRESS_TYPES: TypeFamily = {
  what: 'address',
  names: { [ADDRESS_ED25519]: 'Ed25519', [ADDRESS_ALIAS]: 'alias', [ADDRESS_NFT]: 'NFT' },
};

const ALIAS_ONLY: TypeContext = { allowed: [ADDRESS_ALIAS], where: 'an immutable alias address unlock condition' };
const ED25519_ONLY: TypeContext = { allowed: [ADDRESS_ED25519], where: 'a migrated funds entry' };

export function addressToJson(a: Address): AddressJson {
  switch (a.type) {
    case ADDRESS_ED25519:
      return { type: ADDRESS_ED25519, pubKeyHash: bytesToJson(a.pubKeyHash) };
    case ADDRESS_ALIAS:
      return { type: ADDRESS_ALIAS, aliasId: bytesToJson(a.aliasId) };
    case ADDRESS_NFT:
      return { type: ADDRESS_NFT, nftId: bytesToJson(a.nftId) };
    default:
      throw new TypeError(`addressToJson: unknown address type ${String((a as { type: unknown }).type)}`);
  }
}

export function parseAddress(v: unknown, p: JsonPath, context?: TypeContext): Address {
  const o = readObject(v, p);
  const type = readType(o, p, ADDRESS_TYPES, context);
  switch (type) {
    case ADDRESS_ED25519:
      return { type, pubKeyHash: readFixed(required(o, 'pubKeyHash', p), p.key('pubKeyHash'), ID_LENGTH) };
    case ADDRESS_ALIAS:
      return { type, aliasId: readFixed(required(o, 'aliasId', p), p.key('aliasId'), ID_LENGTH) };
    default:
      return { type: ADDRESS_NFT, nftId: readFixed(required(o, 'nftId', p), p.key('nftId'), ID_LENGTH) };
  }
}

export function parseAliasAddress(v: unknown, p: JsonPath): AliasAddress {
  return parseAddress(v, p, ALIAS_ONLY) as AliasAddress;
}

/** Migrated funds go to Ed25519 addresses only (TIP-34), as the binary decoder also insists. */
export function parseEd25519Address(v: unknown, p: JsonPath): Address {
  return parseAddress(v, p, ED25519_ONLY);
}

export function aliasAddressToJson(a: AliasAddress): AliasAddressJson {
  return addressToJson(a) as AliasAddressJson;
}

export function addressFromJson(json: unknown): Address {
  return fromJson('address', json, (v, p) => parseAddress(v, p));
}
