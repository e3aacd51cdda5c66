/** Map keys and human-readable names of addresses and chains, for messages and identity bookkeeping. */
import { toHex, toHex0x } from '../../bytes.ts';
import { encodeAddress } from '../../codec/address.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519, type Address } from '../../model/address.ts';

/** Stable map key of an address: hex of its 33 serialized bytes (type byte first). */
export function addressKey(a: Address): string {
  return toHex(encodeAddress(a));
}

export function describeAddress(a: Address): string {
  if (a.type === ADDRESS_ED25519) return `Ed25519 address ${toHex0x(a.pubKeyHash)}`;
  if (a.type === ADDRESS_ALIAS) return `alias address ${toHex0x(a.aliasId)}`;
  return `NFT address ${toHex0x(a.nftId)}`;
}
