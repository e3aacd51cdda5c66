/**
 * The history for explorers (docs/explorer.md): tables at the prefixes store/prefixes.ts reserves for them
 * (0x40-0x4f), written in the batch that confirms a milestone (writes.ts), so they commit atomically with the ledger.
 * Addresses are serialized (type ‖ 32-byte ID, 33 bytes); numbers in keys are big-endian.
 *
 * | byte | table                  | key                                                | value                      |
 * |------|------------------------|----------------------------------------------------|----------------------------|
 * | 0x40 | historyMilestones      | milestone index                                    | HistoryMilestone           |
 * | 0x41 | historyMilestoneIds    | milestone ID (32)                                  | milestone index (u32 LE)   |
 * | 0x42 | historyBlocks          | block ID (32)                                      | HistoryBlock               |
 * | 0x43 | historyMilestoneBlocks | milestone index ‖ white-flag index                 | block ID ‖ payload type u8 |
 * | 0x44 | historyChildren        | parent ID ‖ the child's milestone index ‖ child ID | empty                      |
 * | 0x45 | historyByAddress       | address ‖ milestone index ‖ output ID ‖ spent u8   | milestone timestamp u32 LE |
 * | 0x46 | historyByMilestone     | milestone index ‖ output ID (34) ‖ spent u8 (0/1)  | address                    |
 * | 0x47 | addressBalances        | address                                            | AddressBalance             |
 * | 0x48 | richestAddresses       | balance (u64) ‖ address                            | empty                      |
 * | 0x49 | tokenDistribution      | magnitude u8 (digits of the balance - 1)           | DistributionBucket         |
 *
 * 0x40-0x46 are history (bounded by its own retention, prune.ts); 0x47-0x49 are aggregates of the ledger now
 * (balances.ts), never pruned. Meta fields: `history.version` (the layout; written last by a build, build.ts),
 * `history.start` (the lowest milestone whose blocks and ledger updates are all kept) and `history.prunedTo` (entries
 * of milestones at or below it are deleted; absent before the first retention run).
 */
import { ByteReader } from '../../codec/reader.ts';
import { ByteWriter } from '../../codec/writer.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH } from '../../model/limits.ts';
import { emptyCodec, u32Codec, type Codec } from '../../store/codec.ts';
import type { MetaField } from '../../store/meta.ts';
import { PREFIX } from '../../store/prefixes.ts';
import { endRecord, readVersion } from '../../store/record.ts';
import { defineTable } from '../../store/table.ts';
import { fixedBytesCodec, fixedKeyCodec, readU32BE, readU64BE } from './keys.ts';

/** A serialized address: type ‖ 32 bytes. */
export const ADDRESS_BYTES = 1 + ID_LENGTH;
/** The payload type byte of a block without payload. */
export const NO_PAYLOAD = 0xff;

export interface HistoryMilestone {
  milestoneId: Uint8Array;
  timestamp: number;
}

export interface HistoryBlock {
  milestoneIndex: number;
  whiteFlagIndex: number;
  /** Undefined: the block has no payload. */
  payloadType: number | undefined;
  parents: Uint8Array[];
}

export interface MilestoneBlockKey {
  milestoneIndex: number;
  whiteFlagIndex: number;
}

export interface MilestoneBlockEntry {
  blockId: Uint8Array;
  payloadType: number | undefined;
}

export interface ChildKey {
  parentId: Uint8Array;
  milestoneIndex: number;
  childId: Uint8Array;
}

export interface AddressUpdateKey {
  address: Uint8Array;
  milestoneIndex: number;
  outputId: Uint8Array;
  spent: boolean;
}

export interface MilestoneUpdateKey {
  milestoneIndex: number;
  outputId: Uint8Array;
  spent: boolean;
}

/**
 * What an address holds now: the unspent outputs it owns (inx-chronicle's owning address: owner.ts), their amount,
 * how many carry a storage deposit return, expiration or timelock (their balance needs the output, balance.ts), and
 * how many unspent outputs of other owners name it as their expiration return address.
 */
export interface AddressBalance {
  amount: bigint;
  outputs: number;
  special: number;
  returns: number;
}

export interface RichKey {
  amount: bigint;
  address: Uint8Array;
}

export interface DistributionBucket {
  addresses: bigint;
  total: bigint;
}

const RECORD_V1 = 1;

function versioned<T>(what: string, write: (w: ByteWriter, v: T) => void, read: (r: ByteReader) => T): Codec<T> {
  return {
    encode: (v) => {
      const w = new ByteWriter(64).u8(RECORD_V1);
      write(w, v);
      return w.finish();
    },
    decode: (bytes, subject) => {
      const r = new ByteReader(bytes, subject || what);
      const version = readVersion(r, RECORD_V1);
      const v = read(r);
      endRecord(r, version, RECORD_V1);
      return v;
    },
  };
}

function checkLength(b: Uint8Array, length: number, what: string): Uint8Array {
  if (!(b instanceof Uint8Array) || b.length !== length)
    throw new RangeError(`${what} must be ${length} bytes, got ${b instanceof Uint8Array ? b.length : typeof b}`);
  return b;
}

function payloadByte(t: number | undefined): number {
  if (t === undefined) return NO_PAYLOAD;
  if (!Number.isInteger(t) || t < 0 || t >= NO_PAYLOAD) throw new RangeError(`payload type out of range: ${t}`);
  return t;
}

const payloadOf = (b: number): number | undefined => (b === NO_PAYLOAD ? undefined : b);

const milestoneCodec = versioned<HistoryMilestone>(
  'history milestone',
  (w, v) => w.bytes(checkLength(v.milestoneId, ID_LENGTH, 'milestone ID')).u32(v.timestamp),
  (r) => ({ milestoneId: r.fixed(ID_LENGTH, 'milestoneId'), timestamp: r.u32('timestamp') }),
);

const blockCodec = versioned<HistoryBlock>(
  'history block',
  (w, v) => {
    w.u32(v.milestoneIndex).u32(v.whiteFlagIndex).u8(payloadByte(v.payloadType)).u8(v.parents.length);
    for (const p of v.parents) w.bytes(checkLength(p, ID_LENGTH, 'parent'));
  },
  (r) => {
    const milestoneIndex = r.u32('milestoneIndex');
    const whiteFlagIndex = r.u32('whiteFlagIndex');
    const payloadType = payloadOf(r.u8('payloadType'));
    const n = r.u8('parents count');
    const parents = Array.from({ length: n }, (_, i) => r.fixed(ID_LENGTH, `parents[${i}]`));
    return { milestoneIndex, whiteFlagIndex, payloadType, parents };
  },
);

const balanceCodec = versioned<AddressBalance>(
  'address balance',
  (w, v) => w.u64(v.amount).u32(v.outputs).u32(v.special).u32(v.returns),
  (r) => ({ amount: r.u64('amount'), outputs: r.u32('outputs'), special: r.u32('special'), returns: r.u32('returns') }),
);

const bucketCodec = versioned<DistributionBucket>(
  'distribution bucket',
  (w, v) => w.u64(v.addresses).u64(v.total),
  (r) => ({ addresses: r.u64('addresses'), total: r.u64('total') }),
);

const u32Key = fixedKeyCodec<number>(
  'milestone index key',
  4,
  (w, k) => w.u32(k, 'index'),
  (r) => readU32BE(r, 'index'),
);

const milestoneBlockKey = fixedKeyCodec<MilestoneBlockKey>(
  'milestone block key',
  8,
  (w, k) => w.u32(k.milestoneIndex, 'milestoneIndex').u32(k.whiteFlagIndex, 'whiteFlagIndex'),
  (r) => ({ milestoneIndex: readU32BE(r, 'milestoneIndex'), whiteFlagIndex: readU32BE(r, 'whiteFlagIndex') }),
);

const milestoneBlockValue = fixedKeyCodec<MilestoneBlockEntry>(
  'milestone block entry',
  ID_LENGTH + 1,
  (w, v) => w.fixed(v.blockId, ID_LENGTH, 'blockId').u8(payloadByte(v.payloadType), 'payloadType'),
  (r) => ({ blockId: r.fixed(ID_LENGTH, 'blockId'), payloadType: payloadOf(r.u8('payloadType')) }),
);

const childKey = fixedKeyCodec<ChildKey>(
  'child key',
  2 * ID_LENGTH + 4,
  (w, k) =>
    w
      .fixed(k.parentId, ID_LENGTH, 'parentId')
      .u32(k.milestoneIndex, 'milestoneIndex')
      .fixed(k.childId, ID_LENGTH, 'id'),
  (r) => ({
    parentId: r.fixed(ID_LENGTH, 'parentId'),
    milestoneIndex: readU32BE(r, 'milestoneIndex'),
    childId: r.fixed(ID_LENGTH, 'childId'),
  }),
);

function readSpent(r: ByteReader): boolean {
  const at = r.offset;
  const b = r.u8('spent');
  if (b > 1) r.fail('VALUE_OUT_OF_RANGE', `spent flag ${b} is neither 0 nor 1`, 'spent', at, String(b));
  return b === 1;
}

const addressUpdateKey = fixedKeyCodec<AddressUpdateKey>(
  'ledger update key',
  ADDRESS_BYTES + 4 + OUTPUT_ID_LENGTH + 1,
  (w, k) =>
    w
      .fixed(k.address, ADDRESS_BYTES, 'address')
      .u32(k.milestoneIndex, 'milestoneIndex')
      .fixed(k.outputId, OUTPUT_ID_LENGTH, 'outputId')
      .u8(k.spent ? 1 : 0, 'spent'),
  (r) => ({
    address: r.fixed(ADDRESS_BYTES, 'address'),
    milestoneIndex: readU32BE(r, 'milestoneIndex'),
    outputId: r.fixed(OUTPUT_ID_LENGTH, 'outputId'),
    spent: readSpent(r),
  }),
);

const milestoneUpdateKey = fixedKeyCodec<MilestoneUpdateKey>(
  'milestone update key',
  4 + OUTPUT_ID_LENGTH + 1,
  (w, k) =>
    w
      .u32(k.milestoneIndex, 'milestoneIndex')
      .fixed(k.outputId, OUTPUT_ID_LENGTH, 'outputId')
      .u8(k.spent ? 1 : 0, 'spent'),
  (r) => ({
    milestoneIndex: readU32BE(r, 'milestoneIndex'),
    outputId: r.fixed(OUTPUT_ID_LENGTH, 'outputId'),
    spent: readSpent(r),
  }),
);

const richKey = fixedKeyCodec<RichKey>(
  'richest key',
  8 + ADDRESS_BYTES,
  (w, k) => w.u64(k.amount, 'amount').fixed(k.address, ADDRESS_BYTES, 'address'),
  (r) => ({ amount: readU64BE(r, 'amount'), address: r.fixed(ADDRESS_BYTES, 'address') }),
);

const magnitudeKey = fixedKeyCodec<number>(
  'distribution key',
  1,
  (w, k) => w.u8(k, 'magnitude'),
  (r) => r.u8('magnitude'),
);

const addressCodec = fixedBytesCodec('address', ADDRESS_BYTES);

export const HISTORY_TABLES = Object.freeze({
  milestones: defineTable('historyMilestones', PREFIX.historyMilestones, u32Key, milestoneCodec),
  milestoneIds: defineTable('historyMilestoneIds', PREFIX.historyMilestoneIds, fixedBytesCodec('ID', 32), u32Codec),
  blocks: defineTable('historyBlocks', PREFIX.historyBlocks, fixedBytesCodec('block ID', ID_LENGTH), blockCodec),
  milestoneBlocks: defineTable(
    'historyMilestoneBlocks',
    PREFIX.historyMilestoneBlocks,
    milestoneBlockKey,
    milestoneBlockValue,
  ),
  children: defineTable('historyChildren', PREFIX.historyChildren, childKey, emptyCodec),
  byAddress: defineTable('historyByAddress', PREFIX.historyByAddress, addressUpdateKey, u32Codec),
  byMilestone: defineTable('historyByMilestone', PREFIX.historyByMilestone, milestoneUpdateKey, addressCodec),
});

export const AGGREGATE_TABLES = Object.freeze({
  balances: defineTable('addressBalances', PREFIX.addressBalances, addressCodec, balanceCodec),
  richest: defineTable('richestAddresses', PREFIX.richestAddresses, richKey, emptyCodec),
  distribution: defineTable('tokenDistribution', PREFIX.tokenDistribution, magnitudeKey, bucketCodec),
});

/** The layout of the history this code writes; a store holding another (or none) is rebuilt on open (build.ts). */
export const HISTORY_VERSION = 1;

export const HISTORY_META = Object.freeze({
  version: Object.freeze({ name: 'history.version', codec: u32Codec }) as MetaField<number>,
  start: Object.freeze({ name: 'history.start', codec: u32Codec }) as MetaField<number>,
  prunedTo: Object.freeze({ name: 'history.prunedTo', codec: u32Codec }) as MetaField<number>,
});
