/**
 * v3 account addresses in bech32 (TIP-31 over the v3 address kinds, docs/protocol.md §V6.5): the bech32 of the type
 * byte 8 followed by the 32-byte account ID, under the network's HRP. The REST routes that name an account by its
 * address (`/validators/{bech32Address}`, `/accounts/{bech32Address}/congestion`) read it with
 * `accountIdFromBech32V3`, which refuses, as iota-core does, a malformed bech32, one of another network and an address
 * of another kind. Every refusal is a ProtocolError (INVALID_BECH32 or INVALID_FIELD).
 */
import { bech32Decode, bech32Encode } from '../../ids/bech32.ts';
import { reject } from '../../errors.ts';

/** The address type byte of an account address. */
export const ACCOUNT_ADDRESS_TYPE_V3 = 8;

/** The names of the v3 address type bytes (iota.go AddressType), for messages. */
const ADDRESS_KINDS: Readonly<Record<number, string>> = {
  0: 'an Ed25519 address',
  8: 'an account address',
  16: 'an NFT address',
  24: 'an anchor address',
  32: 'an implicit account creation address',
  40: 'a multi address',
  48: 'a restricted address',
};

/** The bech32 of the account address of `accountId` (32 bytes) under `hrp`. */
export function accountAddressToBech32V3(hrp: string, accountId: Uint8Array): string {
  if (accountId.length !== 32) throw new RangeError(`an account ID has 32 bytes, got ${accountId.length}`);
  const data = new Uint8Array(33);
  data[0] = ACCOUNT_ADDRESS_TYPE_V3;
  data.set(accountId, 1);
  return bech32Encode(hrp, data);
}

/**
 * The account ID of a bech32 account address of the network with HRP `hrp`. Refused: a malformed bech32 (its
 * checksum, characters, mixed case), another HRP, an address of another kind (named), a wrong length.
 */
export function accountIdFromBech32V3(text: string, hrp: string): Uint8Array {
  const decoded = bech32Decode(text);
  if (decoded.hrp !== hrp)
    reject(
      'INVALID_BECH32',
      `invalid bech32 address ${text}: human-readable part "${decoded.hrp}" is not this network's "${hrp}"`,
      { value: text },
    );
  const type = decoded.data[0];
  if (type !== ACCOUNT_ADDRESS_TYPE_V3) {
    const kind = type === undefined ? 'empty' : (ADDRESS_KINDS[type] ?? `of unknown type ${type}`);
    reject('INVALID_FIELD', `address ${text} is not an account address: it is ${kind}`, { value: text });
  }
  if (decoded.data.length !== 33)
    reject(
      'INVALID_BECH32',
      `invalid bech32 address ${text}: an account address has 33 bytes, got ${decoded.data.length}`,
      { value: text },
    );
  return decoded.data.slice(1);
}
