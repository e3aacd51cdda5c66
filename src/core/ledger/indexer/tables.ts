/**
 * The indexer's tables (TIP-26 queries over the unspent outputs, docs/indexer.md), at the prefixes store/prefixes.ts
 * reserves for them (0x30-0x3f). Only unspent outputs are indexed: an output's entries are written in the batch that
 * books it and deleted in the batch that spends it, so the index commits atomically with the ledger.
 *
 * A position is `createdAt ‖ output ID` (38 bytes): the booking milestone's timestamp (u32 big-endian) and the
 * 34-byte output ID. Every list table ends its key with the position, so a range scan over one group (a type, an
 * address and a type) yields outputs ordered by (createdAt, output ID), inx-indexer's order; a cursor is the hex of a
 * position.
 *
 * | byte | table          | key                                                          | value          |
 * |------|----------------|--------------------------------------------------------------|----------------|
 * | 0x30 | indexByType    | output type (u8) ‖ position                                  | empty          |
 * | 0x31 | indexByAddress | address (type u8 ‖ 32-byte ID) ‖ output type (u8) ‖ position | roles ‖ flags  |
 * | 0x32 | indexByChainId | output type (u8) ‖ alias or NFT ID (32) / foundry ID (38)    | output ID (34) |
 *
 * An indexByAddress value holds the address's roles (u8, ROLE) ‖ flags (u8, FLAG).
 *
 * The meta field `indexer.version` says the index is complete for the ledger in the store (written with the genesis
 * ledger, or after a build on open: build.ts); a store without it, or with another version, is (re)built once.
 */
import { ByteReader } from '../../codec/reader.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH, TOKEN_ID_LENGTH } from '../../model/limits.ts';
import { OUTPUT_ALIAS, OUTPUT_BASIC, OUTPUT_FOUNDRY, OUTPUT_NFT } from '../../model/output.ts';
import { emptyCodec, u32Codec, type Codec } from '../../store/codec.ts';
import type { MetaField } from '../../store/meta.ts';
import { PREFIX } from '../../store/prefixes.ts';
import { defineTable } from '../../store/table.ts';

/** createdAt (u32 BE) ‖ output ID. */
export const POSITION_LENGTH = 4 + OUTPUT_ID_LENGTH;
/** A serialized address: type byte ‖ 32-byte hash or ID. */
export const ADDRESS_KEY_LENGTH = 1 + ID_LENGTH;

export type IndexedOutputType = typeof OUTPUT_BASIC | typeof OUTPUT_ALIAS | typeof OUTPUT_FOUNDRY | typeof OUTPUT_NFT;
export const INDEXED_OUTPUT_TYPES: readonly IndexedOutputType[] = [
  OUTPUT_BASIC,
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
];

/** What an address is to an output (bits of the indexByAddress value; one entry per distinct address of an output). */
export const ROLE = Object.freeze({
  /** Address Unlock Condition (basic, NFT). */
  address: 0x01,
  /** Return address of the Storage Deposit Return Unlock Condition. */
  storageDepositReturn: 0x02,
  /** Return address of the Expiration Unlock Condition. */
  expirationReturn: 0x04,
  stateController: 0x08,
  governor: 0x10,
  /** Immutable Alias Address Unlock Condition (foundry). */
  immutableAlias: 0x20,
} as const);
const ALL_ROLES = 0x3f;

/**
 * What the output has, whoever the address is (second byte of the indexByAddress value): the `has*` filters of a query
 * by address are settled on the index entry, without reading and decoding the output (iota.js asks every balance query
 * with hasExpiration, hasTimelock and hasStorageDepositReturn set to false).
 */
export const FLAG = Object.freeze({
  nativeTokens: 0x01,
  storageDepositReturn: 0x02,
  expiration: 0x04,
  timelock: 0x08,
} as const);
const ALL_FLAGS = 0x0f;

/** The indexByAddress value as one number: roles in the low byte, flags in the next. */
export function addressEntryValue(roles: number, flags: number): number {
  return roles | (flags << 8);
}

export interface TypeIndexKey {
  outputType: IndexedOutputType;
  position: Uint8Array;
}

export interface AddressIndexKey {
  /** 33 bytes: type ‖ ID. */
  address: Uint8Array;
  outputType: IndexedOutputType;
  position: Uint8Array;
}

export interface ChainIndexKey {
  outputType: typeof OUTPUT_ALIAS | typeof OUTPUT_FOUNDRY | typeof OUTPUT_NFT;
  /** Alias or NFT ID (32 bytes), foundry ID (38 bytes). */
  chainId: Uint8Array;
}

/** The position of an output: createdAt (u32 BE) ‖ output ID. */
export function positionOf(createdAt: number, outputId: Uint8Array): Uint8Array {
  if (!Number.isInteger(createdAt) || createdAt < 0 || createdAt > 0xffffffff)
    throw new RangeError(`index position: createdAt must be a u32, got ${createdAt}`);
  checkLength(outputId, OUTPUT_ID_LENGTH, 'output ID');
  const out = new Uint8Array(POSITION_LENGTH);
  new DataView(out.buffer).setUint32(0, createdAt, false);
  out.set(outputId, 4);
  return out;
}

export function positionCreatedAt(position: Uint8Array): number {
  return new DataView(position.buffer, position.byteOffset, 4).getUint32(0, false);
}

export function positionOutputId(position: Uint8Array): Uint8Array {
  return position.slice(4, POSITION_LENGTH);
}

export function isIndexedOutputType(t: number): t is IndexedOutputType {
  return t === OUTPUT_BASIC || t === OUTPUT_ALIAS || t === OUTPUT_FOUNDRY || t === OUTPUT_NFT;
}

function checkLength(bytes: Uint8Array, length: number, what: string): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== length) {
    throw new RangeError(
      `index key: ${what} must be ${length} bytes, got ${bytes instanceof Uint8Array ? bytes.length : typeof bytes}`,
    );
  }
}

function checkType(t: number): void {
  if (!isIndexedOutputType(t)) throw new RangeError(`index key: output type must be 3, 4, 5 or 6, got ${t}`);
}

function readType(r: ByteReader): IndexedOutputType {
  const at = r.offset;
  const t = r.u8('output type');
  if (!isIndexedOutputType(t)) r.fail('INVALID_FIELD', `output type ${t} is not indexed`, 'output type', at, String(t));
  return t;
}

function chainIdLength(t: number): number {
  return t === OUTPUT_FOUNDRY ? TOKEN_ID_LENGTH : ID_LENGTH;
}

const typeKeyCodec: Codec<TypeIndexKey> = {
  encode: (k) => {
    checkType(k.outputType);
    checkLength(k.position, POSITION_LENGTH, 'position');
    const out = new Uint8Array(1 + POSITION_LENGTH);
    out[0] = k.outputType;
    out.set(k.position, 1);
    return out;
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    const key = { outputType: readType(r), position: r.fixed(POSITION_LENGTH, 'position') };
    r.end();
    return key;
  },
};

const addressKeyCodec: Codec<AddressIndexKey> = {
  encode: (k) => {
    checkLength(k.address, ADDRESS_KEY_LENGTH, 'address');
    checkType(k.outputType);
    checkLength(k.position, POSITION_LENGTH, 'position');
    const out = new Uint8Array(ADDRESS_KEY_LENGTH + 1 + POSITION_LENGTH);
    out.set(k.address, 0);
    out[ADDRESS_KEY_LENGTH] = k.outputType;
    out.set(k.position, ADDRESS_KEY_LENGTH + 1);
    return out;
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    const key = {
      address: r.fixed(ADDRESS_KEY_LENGTH, 'address'),
      outputType: readType(r),
      position: r.fixed(POSITION_LENGTH, 'position'),
    };
    r.end();
    return key;
  },
};

const chainKeyCodec: Codec<ChainIndexKey> = {
  encode: (k) => {
    if (k.outputType !== OUTPUT_ALIAS && k.outputType !== OUTPUT_FOUNDRY && k.outputType !== OUTPUT_NFT)
      throw new RangeError(`index key: chain output type must be 4, 5 or 6, got ${k.outputType}`);
    checkLength(k.chainId, chainIdLength(k.outputType), 'chain ID');
    const out = new Uint8Array(1 + k.chainId.length);
    out[0] = k.outputType;
    out.set(k.chainId, 1);
    return out;
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    const at = r.offset;
    const t = r.u8('output type');
    if (t !== OUTPUT_ALIAS && t !== OUTPUT_FOUNDRY && t !== OUTPUT_NFT)
      return r.fail('INVALID_FIELD', `output type ${t} has no chain ID`, 'output type', at, String(t));
    const key: ChainIndexKey = { outputType: t, chainId: r.fixed(chainIdLength(t), 'chain ID') };
    r.end();
    return key;
  },
};

const rolesCodec: Codec<number> = {
  encode: (v) => {
    const [roles, flags] = [v & 0xff, v >> 8];
    if (!Number.isInteger(v) || roles < 1 || roles > ALL_ROLES)
      throw new RangeError(`index value: roles must be 1..${ALL_ROLES}, got ${roles}`);
    if (flags > ALL_FLAGS) throw new RangeError(`index value: flags must be 0..${ALL_FLAGS}, got ${flags}`);
    return Uint8Array.of(roles, flags);
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    const roles = r.u8('roles');
    if (roles < 1 || roles > ALL_ROLES)
      r.fail('INVALID_FIELD', `roles ${roles} outside 1..${ALL_ROLES}`, 'roles', 0, String(roles));
    const flags = r.u8('flags');
    if (flags > ALL_FLAGS) r.fail('INVALID_FIELD', `flags ${flags} outside 0..${ALL_FLAGS}`, 'flags', 1, String(flags));
    r.end();
    return addressEntryValue(roles, flags);
  },
};

const outputIdValueCodec: Codec<Uint8Array> = {
  encode: (id) => {
    checkLength(id, OUTPUT_ID_LENGTH, 'output ID');
    return id.slice();
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    const id = r.fixed(OUTPUT_ID_LENGTH, 'output ID');
    r.end();
    return id;
  },
};

export const INDEXER_TABLES = Object.freeze({
  byType: defineTable<TypeIndexKey, null>('indexByType', PREFIX.indexByType, typeKeyCodec, emptyCodec),
  byAddress: defineTable<AddressIndexKey, number>('indexByAddress', PREFIX.indexByAddress, addressKeyCodec, rolesCodec),
  byChainId: defineTable<ChainIndexKey, Uint8Array>(
    'indexByChainId',
    PREFIX.indexByChainId,
    chainKeyCodec,
    outputIdValueCodec,
  ),
});

/** The layout of the index this code writes; a store holding another (or none) is rebuilt on open (build.ts). */
export const INDEX_VERSION = 2; // 2: flags beside the roles in indexByAddress

export const INDEXER_META = Object.freeze({
  version: Object.freeze({ name: 'indexer.version', codec: u32Codec }) as MetaField<number>,
});
