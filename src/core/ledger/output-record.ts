/**
 * Ledger records of one output: what created it (the `outputs` table) and, once consumed, what spent it (`spent`).
 *
 * OutputRecord version 1, little-endian:
 * | offset | size | field                                                   |
 * |--------|------|---------------------------------------------------------|
 * | 0      | 1    | record version (1)                                      |
 * | 1      | 32   | ID of the block whose transaction created the output    |
 * | 33     | 4    | milestone index that booked it (u32)                    |
 * | 37     | 4    | that milestone's timestamp (u32, Unix seconds)          |
 * | 41     | 2    | output length n (u16)                                   |
 * | 43     | n    | the serialized output (docs/protocol.md §5)             |
 *
 * SpentRecord version 1, 41 bytes: version (1) ‖ spending transaction ID (32) ‖ milestone index u32 ‖ timestamp u32.
 */
import { decodeCommonOutput, encodeOutput } from '../codec/output.ts';
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { CommonOutput } from '../model/output.ts';
import { endRecord, readVersion } from '../store/record.ts';

export const OUTPUT_RECORD_VERSION = 1;
export const SPENT_RECORD_VERSION = 1;

export interface OutputRecord {
  /** Block that carried the creating transaction (for migrated funds: the milestone's block). */
  blockId: Uint8Array;
  milestoneIndexBooked: number;
  milestoneTimestampBooked: number;
  output: CommonOutput;
}

export interface SpentRecord {
  transactionIdSpent: Uint8Array;
  milestoneIndexSpent: number;
  milestoneTimestampSpent: number;
}

export function encodeOutputRecord(r: OutputRecord): Uint8Array {
  checkId(r.blockId, 'output record', 'blockId');
  checkU32(r.milestoneIndexBooked, 'output record', 'milestoneIndexBooked');
  checkU32(r.milestoneTimestampBooked, 'output record', 'milestoneTimestampBooked');
  const output = encodeOutput(r.output);
  return new ByteWriter(43 + output.length)
    .u8(OUTPUT_RECORD_VERSION)
    .bytes(r.blockId)
    .u32(r.milestoneIndexBooked)
    .u32(r.milestoneTimestampBooked)
    .u16(output.length)
    .bytes(output)
    .finish();
}

export function decodeOutputRecord(bytes: Uint8Array, subject = 'output record'): OutputRecord {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, OUTPUT_RECORD_VERSION);
  const blockId = r.fixed(ID_LENGTH, 'blockId');
  const milestoneIndexBooked = r.u32('milestoneIndexBooked');
  const milestoneTimestampBooked = r.u32('milestoneTimestampBooked');
  const at = r.offset;
  const outputBytes = r.prefixed(2, 'output', 1, LIMITS.maxBlockLength);
  endRecord(r, version, OUTPUT_RECORD_VERSION);
  let output: CommonOutput;
  try {
    output = decodeCommonOutput(outputBytes);
  } catch (e) {
    return r.fail('INVALID_FIELD', `output does not decode (${(e as Error).message})`, 'output', at + 2);
  }
  return { blockId, milestoneIndexBooked, milestoneTimestampBooked, output };
}

export function encodeSpentRecord(s: SpentRecord): Uint8Array {
  checkId(s.transactionIdSpent, 'spent record', 'transactionIdSpent');
  checkU32(s.milestoneIndexSpent, 'spent record', 'milestoneIndexSpent');
  checkU32(s.milestoneTimestampSpent, 'spent record', 'milestoneTimestampSpent');
  return new ByteWriter(41).u8(SPENT_RECORD_VERSION).bytes(s.transactionIdSpent).u32(s.milestoneIndexSpent).u32(s.milestoneTimestampSpent).finish();
}

export function decodeSpentRecord(bytes: Uint8Array, subject = 'spent record'): SpentRecord {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, SPENT_RECORD_VERSION);
  const transactionIdSpent = r.fixed(ID_LENGTH, 'transactionIdSpent');
  const milestoneIndexSpent = r.u32('milestoneIndexSpent');
  const milestoneTimestampSpent = r.u32('milestoneTimestampSpent');
  endRecord(r, version, SPENT_RECORD_VERSION);
  return { transactionIdSpent, milestoneIndexSpent, milestoneTimestampSpent };
}

export function checkId(id: Uint8Array, record: string, field: string, length: number = ID_LENGTH): void {
  if (!(id instanceof Uint8Array) || id.length !== length) {
    throw new RangeError(`${record}: ${field} must be ${length} bytes, got ${id instanceof Uint8Array ? id.length : typeof id}`);
  }
}

export function checkU32(v: number, record: string, field: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`${record}: ${field} must be a u32, got ${v}`);
}
