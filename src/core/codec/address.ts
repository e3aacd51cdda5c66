/** Addresses (docs/protocol.md §9): u8 type, then 32 bytes. */
import { ADDRESS_ALIAS, ADDRESS_ED25519, type Address } from '../model/address.ts';
import { ID_LENGTH } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { addressKindProblem, type AddressContext } from './rules.ts';
import { decodeWhole, failAt, writeFixed } from './common.ts';

export const ADDRESS_LENGTH = 33;

export function readAddress(r: ByteReader, field: string, context: AddressContext = 'any'): Address {
  const at = r.offset;
  const type = r.u8(field);
  const p = addressKindProblem(context, type);
  if (p) failAt(r, p, field, at, String(type));
  const id = r.fixed(ID_LENGTH, field);
  if (type === ADDRESS_ED25519) return { type, pubKeyHash: id };
  if (type === ADDRESS_ALIAS) return { type, aliasId: id };
  return { type: 16, nftId: id };
}

/** The 32 bytes an address carries (key hash, alias ID or NFT ID). */
export function addressId(a: Address): Uint8Array {
  return a.type === ADDRESS_ED25519 ? a.pubKeyHash : a.type === ADDRESS_ALIAS ? a.aliasId : a.nftId;
}

export function writeAddress(w: ByteWriter, a: Address): void {
  if (a.type !== 0 && a.type !== 8 && a.type !== 16)
    throw new RangeError(`Cannot encode address: unknown type ${String((a as Address).type)}`);
  w.u8(a.type);
  writeFixed(w, addressId(a), ID_LENGTH, 'address');
}

/** The 33 bytes of `a`, written directly (the same bytes as writeAddress). */
export function encodeAddress(a: Address): Uint8Array {
  if (a.type !== 0 && a.type !== 8 && a.type !== 16)
    throw new RangeError(`Cannot encode address: unknown type ${String((a as Address).type)}`);
  const id = addressId(a);
  if (!(id instanceof Uint8Array) || id.length !== ID_LENGTH)
    throw new RangeError(
      `Cannot encode address: expected ${ID_LENGTH} bytes, got ${id instanceof Uint8Array ? id.length : typeof id}`,
    );
  const out = new Uint8Array(ADDRESS_LENGTH);
  out[0] = a.type;
  out.set(id, 1);
  return out;
}

export function decodeAddress(bytes: Uint8Array): Address {
  return decodeWhole(bytes, 'address', (r) => readAddress(r, 'address'));
}

export function addressEquals(a: Address, b: Address): boolean {
  if (a.type !== b.type) return false;
  const x = addressId(a);
  const y = addressId(b);
  for (let i = 0; i < ID_LENGTH; i++) if (x[i] !== y[i]) return false;
  return true;
}
