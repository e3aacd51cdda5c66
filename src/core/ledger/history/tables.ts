/**
 * The history for explorers (docs/explorer.md): tables at the prefixes store/prefixes.ts reserves for them
 * (0x40-0x4f). A confirmation writes few entries of bounded size (writes.ts): its blocks, its ledger updates and each
 * touched address's updates in it, each as *parts* of at most PART_SIZE items keyed by their first item, so its batch
 * grows by about one entry per address, not per output or block, and no value grows with the milestone (a range read
 * that ends next to a huge value reads it whole). The outputs a snapshot or a build adds in chunks get one part each.
 * The parts of one milestone (of one address) never overlap, so read in key order they are its items in order.
 * Block pruning adds, for each referenced block it deletes, the block's milestone and its child edges (the store's own
 * `children` table loses them then). Addresses are serialized (type ‖ 32-byte ID, 33 bytes); numbers in keys are
 * big-endian; an update's position is output ID (34) ‖ spent (u8 0/1).
 *
 * | byte | table                  | key                                            | value                            |
 * |------|------------------------|------------------------------------------------|----------------------------------|
 * | 0x40 | historyMilestones      | milestone index                                | milestone ID ‖ timestamp         |
 * | 0x41 | historyMilestoneIds    | milestone ID (32)                              | milestone index (u32 LE)         |
 * | 0x42 | historyBlocks          | block ID (32) of a pruned block                | its milestone index and parents  |
 * | 0x43 | historyMilestoneBlocks | milestone index ‖ first white-flag index       | (block ID, payload type)s        |
 * | 0x44 | historyChildren        | parent ID ‖ child's milestone index ‖ child ID | empty (the child was pruned)     |
 * | 0x45 | historyByAddress       | address ‖ milestone index ‖ first position     | timestamp, positions             |
 * | 0x46 | historyByMilestone     | milestone index ‖ first position               | addresses, (position, address)s  |
 * | 0x47 | addressBalances        | address                                        | AddressBalance                   |
 * | 0x48 | richestAddresses       | balance (u64) ‖ address                        | empty                            |
 * | 0x49 | tokenDistribution      | magnitude u8 (digits of the balance - 1)       | DistributionBucket               |
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
import { BytesMap, fixedBytesCodec, fixedKeyCodec, readU32BE, readU64BE, type KeyWriter } from './keys.ts';

/** A serialized address: type ‖ 32 bytes. */
export const ADDRESS_BYTES = 1 + ID_LENGTH;
/** Items of one part at most: 256 updates are 9-17 KB, 256 blocks 10-75 KB. */
export const PART_SIZE = 256;
/** The payload type byte of a block without payload. */
export const NO_PAYLOAD = 0xff;

export interface HistoryMilestone {
  milestoneId: Uint8Array;
  timestamp: number;
}

/** A block a milestone referenced; its white-flag index is its place in the milestone's list. */
export interface MilestoneBlock {
  blockId: Uint8Array;
  /** Undefined: the block has no payload. */
  payloadType: number | undefined;
}

/** What the history keeps of a referenced block block pruning deleted: its milestone and its parents. */
export interface PrunedBlock {
  milestoneIndex: number;
  parents: Uint8Array[];
}

export interface ChildKey {
  parentId: Uint8Array;
  milestoneIndex: number;
  childId: Uint8Array;
}

/** A part of a milestone's ledger updates: keyed by its first update's position. */
export interface UpdatesPartKey {
  milestoneIndex: number;
  first: UpdateEntry;
}

/** A part of an address's ledger updates in one milestone. */
export interface AddressPartKey extends UpdatesPartKey {
  address: Uint8Array;
}

/** A part of a milestone's blocks: keyed by its first block's white-flag index. */
export interface BlocksPartKey {
  milestoneIndex: number;
  firstWhiteFlagIndex: number;
}

/** An output booked (`spent` false) or spent. */
export interface UpdateEntry {
  outputId: Uint8Array;
  spent: boolean;
}

/** (A part of) an address's ledger updates in one milestone, sorted by (output ID, spent). */
export interface AddressGroup {
  timestamp: number;
  entries: UpdateEntry[];
}

/** A milestone's ledger update, with the address it went to. */
export interface MilestoneUpdate extends UpdateEntry {
  address: Uint8Array;
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

/**
 * A record of version 1. `size` bounds the encoded length from above, so a part is written into one buffer of that
 * size (a writer grown from 64 bytes to a part's 10-17 KB copies it eight times): returned as is when filled
 * exactly, else copied to its length.
 */
function versioned<T>(
  what: string,
  write: (w: ByteWriter, v: T) => void,
  read: (r: ByteReader) => T,
  size: (v: T) => number = () => 64,
): Codec<T> {
  return {
    encode: (v) => {
      const capacity = size(v);
      const w = new ByteWriter(capacity).u8(RECORD_V1);
      write(w, v);
      return w.length === capacity ? w.written() : w.finish();
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

/** Reads a u32 count of items, each at least `min` bytes, refusing a count the bytes left cannot hold. */
function readCount(r: ByteReader, field: string, min: number): number {
  const at = r.offset;
  const n = r.u32(`${field} count`);
  if (n * min > r.remaining)
    r.fail('TRUNCATED', `${field} count ${n} exceeds the ${r.remaining} bytes left`, field, at, String(n));
  return n;
}

function readSpent(r: ByteReader): boolean {
  const at = r.offset;
  const b = r.u8('spent');
  if (b > 1) r.fail('VALUE_OUT_OF_RANGE', `spent flag ${b} is neither 0 nor 1`, 'spent', at, String(b));
  return b === 1;
}

const milestoneBlocksCodec = versioned<MilestoneBlock[]>(
  'milestone blocks',
  (w, blocks) => {
    w.u32(blocks.length);
    for (const b of blocks) w.bytes(checkLength(b.blockId, ID_LENGTH, 'block ID')).u8(payloadByte(b.payloadType));
  },
  (r) =>
    Array.from({ length: readCount(r, 'blocks', ID_LENGTH + 1) }, (_, i) => ({
      blockId: r.fixed(ID_LENGTH, `blocks[${i}].blockId`),
      payloadType: payloadOf(r.u8('payloadType')),
    })),
  (blocks) => 5 + blocks.length * (ID_LENGTH + 1),
);

const prunedBlockCodec = versioned<PrunedBlock>(
  'pruned block',
  (w, b) => {
    w.u32(b.milestoneIndex).u8(b.parents.length);
    for (const p of b.parents) w.bytes(checkLength(p, ID_LENGTH, 'parent'));
  },
  (r) => {
    const milestoneIndex = r.u32('milestoneIndex');
    const n = r.u8('parents count');
    return { milestoneIndex, parents: Array.from({ length: n }, (_, i) => r.fixed(ID_LENGTH, `parents[${i}]`)) };
  },
);

const addressGroupCodec = versioned<AddressGroup>(
  'address group',
  (w, g) => {
    w.u32(g.timestamp).u32(g.entries.length);
    for (const e of g.entries) w.bytes(checkLength(e.outputId, OUTPUT_ID_LENGTH, 'output ID')).u8(e.spent ? 1 : 0);
  },
  (r) => {
    const timestamp = r.u32('timestamp');
    const n = readCount(r, 'entries', OUTPUT_ID_LENGTH + 1);
    const entries = Array.from({ length: n }, (_, i) => ({
      outputId: r.fixed(OUTPUT_ID_LENGTH, `entries[${i}].outputId`),
      spent: readSpent(r),
    }));
    return { timestamp, entries };
  },
  (g) => 9 + g.entries.length * (OUTPUT_ID_LENGTH + 1),
);

/** A part's updates with its distinct addresses listed once: u16 count ‖ addresses ‖ u32 count ‖ updates. */
const milestoneUpdatesCodec = versioned<MilestoneUpdate[]>(
  'milestone updates',
  (w, updates) => {
    const index = new BytesMap<number>();
    const addresses: Uint8Array[] = [];
    const refs = updates.map((u) =>
      index.getOrAdd(checkLength(u.address, ADDRESS_BYTES, 'address'), () => addresses.push(u.address) - 1),
    );
    if (addresses.length > 0xffff) throw new RangeError(`a part names ${addresses.length} addresses, at most 65535`);
    w.u16(addresses.length);
    for (const a of addresses) w.bytes(a);
    w.u32(updates.length);
    updates.forEach((u, i) => {
      w.bytes(checkLength(u.outputId, OUTPUT_ID_LENGTH, 'output ID'))
        .u8(u.spent ? 1 : 0)
        .u16(refs[i]!);
    });
  },
  (r) => {
    const at = r.offset;
    const n = r.u16('addresses count');
    if (n * ADDRESS_BYTES > r.remaining)
      r.fail('TRUNCATED', `addresses count ${n} exceeds the ${r.remaining} bytes left`, 'addresses', at, String(n));
    const addresses = Array.from({ length: n }, (_, i) => r.fixed(ADDRESS_BYTES, `addresses[${i}]`));
    return Array.from({ length: readCount(r, 'updates', OUTPUT_ID_LENGTH + 3) }, (_, i) => {
      const outputId = r.fixed(OUTPUT_ID_LENGTH, `updates[${i}].outputId`);
      const spent = readSpent(r);
      const refAt = r.offset;
      const ref = r.u16('address');
      const address = addresses[ref];
      if (address === undefined)
        return r.fail('VALUE_OUT_OF_RANGE', `address ${ref} of ${n} listed`, 'address', refAt, String(ref));
      return { outputId, spent, address };
    });
  },
  // at most one address per update
  (updates) => 7 + updates.length * (ADDRESS_BYTES + OUTPUT_ID_LENGTH + 3),
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

const POSITION = OUTPUT_ID_LENGTH + 1;

function writePosition(w: KeyWriter, e: UpdateEntry): KeyWriter {
  return w.fixed(e.outputId, OUTPUT_ID_LENGTH, 'outputId').u8(e.spent ? 1 : 0, 'spent');
}

function readPosition(r: ByteReader): UpdateEntry {
  return { outputId: r.fixed(OUTPUT_ID_LENGTH, 'outputId'), spent: readSpent(r) };
}

const updatesPartKey = fixedKeyCodec<UpdatesPartKey>(
  'milestone updates key',
  4 + POSITION,
  (w, k) => writePosition(w.u32(k.milestoneIndex, 'milestoneIndex'), k.first),
  (r) => ({ milestoneIndex: readU32BE(r, 'milestoneIndex'), first: readPosition(r) }),
);

const addressPartKey = fixedKeyCodec<AddressPartKey>(
  'address updates key',
  ADDRESS_BYTES + 4 + POSITION,
  (w, k) =>
    writePosition(w.fixed(k.address, ADDRESS_BYTES, 'address').u32(k.milestoneIndex, 'milestoneIndex'), k.first),
  (r) => ({
    address: r.fixed(ADDRESS_BYTES, 'address'),
    milestoneIndex: readU32BE(r, 'milestoneIndex'),
    first: readPosition(r),
  }),
);

const blocksPartKey = fixedKeyCodec<BlocksPartKey>(
  'milestone blocks key',
  8,
  (w, k) => w.u32(k.milestoneIndex, 'milestoneIndex').u32(k.firstWhiteFlagIndex, 'firstWhiteFlagIndex'),
  (r) => ({ milestoneIndex: readU32BE(r, 'milestoneIndex'), firstWhiteFlagIndex: readU32BE(r, 'firstWhiteFlagIndex') }),
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
const idCodec = (what: string): Codec<Uint8Array> => fixedBytesCodec(what, ID_LENGTH);

export const HISTORY_TABLES = Object.freeze({
  milestones: defineTable('historyMilestones', PREFIX.historyMilestones, u32Key, milestoneCodec),
  milestoneIds: defineTable('historyMilestoneIds', PREFIX.historyMilestoneIds, idCodec('milestone ID'), u32Codec),
  /** Referenced blocks block pruning deleted (the store's metadata says the milestone of the others). */
  blocks: defineTable('historyBlocks', PREFIX.historyBlocks, idCodec('block ID'), prunedBlockCodec),
  milestoneBlocks: defineTable(
    'historyMilestoneBlocks',
    PREFIX.historyMilestoneBlocks,
    blocksPartKey,
    milestoneBlocksCodec,
  ),
  /** Child edges of referenced blocks block pruning deleted (the store's `children` table holds the others). */
  children: defineTable('historyChildren', PREFIX.historyChildren, childKey, emptyCodec),
  byAddress: defineTable('historyByAddress', PREFIX.historyByAddress, addressPartKey, addressGroupCodec),
  byMilestone: defineTable('historyByMilestone', PREFIX.historyByMilestone, updatesPartKey, milestoneUpdatesCodec),
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
