/**
 * Bech32 addresses (docs/protocol.md §9): BIP-173 bech32 of the 33 serialized address bytes (type byte ‖ 32-byte
 * hash/ID) under the network's HRP (`smr`, `rms`, `iota`, `atoi`).
 */
import { reject } from '../errors.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519, ADDRESS_NFT, type Address } from '../model/address.ts';
import { ID_LENGTH } from '../model/limits.ts';
import { bech32Decode, bech32Encode } from './bech32.ts';

const SERIALIZED_ADDRESS_LENGTH = 1 + ID_LENGTH;

export interface DecodedBech32Address {
  hrp: string;
  address: Address;
}

function addressBody(address: Address): Uint8Array {
  switch (address.type) {
    case ADDRESS_ED25519:
      return address.pubKeyHash;
    case ADDRESS_ALIAS:
      return address.aliasId;
    case ADDRESS_NFT:
      return address.nftId;
    default:
      throw new TypeError(`bech32EncodeAddress: unknown address type ${(address as { type: unknown }).type}`);
  }
}

export function bech32EncodeAddress(hrp: string, address: Address): string {
  const body = addressBody(address);
  if (body.length !== ID_LENGTH)
    throw new RangeError(`bech32EncodeAddress: address body must be ${ID_LENGTH} bytes, got ${body.length}`);
  const bytes = new Uint8Array(SERIALIZED_ADDRESS_LENGTH);
  bytes[0] = address.type;
  bytes.set(body, 1);
  return bech32Encode(hrp, bytes);
}

/**
 * Decodes a bech32 address. With `expectedHrp`, a different HRP is rejected too (INVALID_BECH32).
 */
export function bech32DecodeAddress(text: string, expectedHrp?: string): DecodedBech32Address {
  const { hrp, data } = bech32Decode(text);
  if (expectedHrp !== undefined && hrp !== expectedHrp) {
    reject('INVALID_BECH32', `Cannot decode bech32 address: human-readable part "${hrp}" is not "${expectedHrp}"`, {
      value: text,
    });
  }
  if (data.length !== SERIALIZED_ADDRESS_LENGTH) {
    reject(
      'INVALID_BECH32',
      `Cannot decode bech32 address: ${data.length} data bytes, an address has ${SERIALIZED_ADDRESS_LENGTH}`,
      { value: text },
    );
  }
  const body = data.slice(1);
  switch (data[0]) {
    case ADDRESS_ED25519:
      return { hrp, address: { type: ADDRESS_ED25519, pubKeyHash: body } };
    case ADDRESS_ALIAS:
      return { hrp, address: { type: ADDRESS_ALIAS, aliasId: body } };
    case ADDRESS_NFT:
      return { hrp, address: { type: ADDRESS_NFT, nftId: body } };
    default:
      return reject('INVALID_BECH32', `Cannot decode bech32 address: unknown address type ${data[0]}`, { value: text });
  }
}
