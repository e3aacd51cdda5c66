/** Addresses (TIP-18 / docs/protocol.md §9). Field names follow TIP-25 JSON. */
export const ADDRESS_ED25519 = 0;
export const ADDRESS_ALIAS = 8;
export const ADDRESS_NFT = 16;

export interface Ed25519Address {
  type: typeof ADDRESS_ED25519;
  /** BLAKE2b-256 of the public key, 32 bytes. */
  pubKeyHash: Uint8Array;
}
export interface AliasAddress {
  type: typeof ADDRESS_ALIAS;
  aliasId: Uint8Array;
}
export interface NftAddress {
  type: typeof ADDRESS_NFT;
  nftId: Uint8Array;
}
export type Address = Ed25519Address | AliasAddress | NftAddress;
