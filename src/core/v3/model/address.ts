/** Addresses (docs/protocol.md §V6.5). Field names are the JSON names iota-core emits. */
export interface Ed25519AddressV3 {
  type: 0;
  pubKeyHash: Uint8Array;
}
export interface AccountAddressV3 {
  type: 8;
  accountId: Uint8Array;
}
export interface NftAddressV3 {
  type: 16;
  nftId: Uint8Array;
}
export interface AnchorAddressV3 {
  type: 24;
  anchorId: Uint8Array;
}
export interface ImplicitAccountCreationAddressV3 {
  type: 32;
  pubKeyHash: Uint8Array;
}
export type SimpleAddressV3 = Ed25519AddressV3 | AccountAddressV3 | NftAddressV3 | AnchorAddressV3;
export interface WeightedAddressV3 {
  address: SimpleAddressV3;
  weight: number;
}
export interface MultiAddressV3 {
  type: 40;
  addresses: WeightedAddressV3[];
  threshold: number;
}
export interface RestrictedAddressV3 {
  type: 48;
  address: SimpleAddressV3 | MultiAddressV3;
  allowedCapabilities: Uint8Array;
}
export type AddressV3 = SimpleAddressV3 | ImplicitAccountCreationAddressV3 | MultiAddressV3 | RestrictedAddressV3;
