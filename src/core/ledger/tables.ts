/**
 * The ledger's tables, at the prefixes store/prefixes.ts reserves for them (0x10-0x15). Small ledger-wide values
 * live in the node's meta table (ledger-meta.ts); the ledger index is the node's META.ledgerIndex.
 *
 * | byte | table          | key                                        | value                                   |
 * |------|----------------|--------------------------------------------|-----------------------------------------|
 * | 0x10 | outputs        | output ID (34 bytes)                       | OutputRecord (spent ones are kept)      |
 * | 0x11 | unspent        | output ID                                  | empty (a set)                           |
 * | 0x12 | spent          | output ID                                  | SpentRecord                             |
 * | 0x13 | milestoneDiffs | milestone index (u32 BE)                   | MilestoneDiff                           |
 * | 0x14 | treasury       | ID of the milestone that created it (32)   | TreasuryRecord (amount, spent flag)     |
 * | 0x15 | receipts       | migratedAt (u32 BE) ‖ milestone index (BE) | the receipt milestone option            |
 */
import { ByteReader } from '../codec/reader.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH } from '../model/limits.ts';
import type { ReceiptMilestoneOption } from '../model/payload.ts';
import { emptyCodec, u32KeyCodec, type Codec } from '../store/codec.ts';
import { PREFIX } from '../store/prefixes.ts';
import { defineTable } from '../store/table.ts';
import { decodeMilestoneDiff, encodeMilestoneDiff, type MilestoneDiff } from './milestone-diff.ts';
import {
  decodeOutputRecord,
  decodeSpentRecord,
  encodeOutputRecord,
  encodeSpentRecord,
  type OutputRecord,
  type SpentRecord,
} from './output-record.ts';
import { decodeReceiptRecord, encodeReceiptRecord, receiptKeyCodec, type ReceiptKey } from './receipt-record.ts';
import { decodeTreasuryRecord, encodeTreasuryRecord, type TreasuryRecord } from './treasury-record.ts';

/** A key of exactly `length` bytes (fixed-size IDs need no length byte). */
function fixedKeyCodec(length: number, what: string): Codec<Uint8Array> {
  return {
    encode: (id) => {
      if (!(id instanceof Uint8Array) || id.length !== length) {
        throw new RangeError(
          `${what} must be ${length} bytes, got ${id instanceof Uint8Array ? id.length : typeof id}`,
        );
      }
      return id.slice();
    },
    decode: (b, subject) => {
      const r: ByteReader = new ByteReader(b, subject);
      const id = r.fixed(length, what);
      r.end();
      return id;
    },
  };
}

const outputIdKey = fixedKeyCodec(OUTPUT_ID_LENGTH, 'output ID');

export const LEDGER_TABLES = Object.freeze({
  outputs: defineTable<Uint8Array, OutputRecord>('outputs', PREFIX.outputs, outputIdKey, {
    encode: encodeOutputRecord,
    decode: decodeOutputRecord,
  }),
  unspent: defineTable('unspent', PREFIX.unspent, outputIdKey, emptyCodec),
  spent: defineTable<Uint8Array, SpentRecord>('spent', PREFIX.spent, outputIdKey, {
    encode: encodeSpentRecord,
    decode: decodeSpentRecord,
  }),
  milestoneDiffs: defineTable<number, MilestoneDiff>('milestoneDiffs', PREFIX.milestoneDiffs, u32KeyCodec, {
    encode: encodeMilestoneDiff,
    decode: decodeMilestoneDiff,
  }),
  treasury: defineTable<Uint8Array, TreasuryRecord>(
    'treasury',
    PREFIX.treasury,
    fixedKeyCodec(ID_LENGTH, 'milestone ID'),
    {
      encode: encodeTreasuryRecord,
      decode: decodeTreasuryRecord,
    },
  ),
  receipts: defineTable<ReceiptKey, ReceiptMilestoneOption>('receipts', PREFIX.receipts, receiptKeyCodec, {
    encode: encodeReceiptRecord,
    decode: decodeReceiptRecord,
  }),
});
