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
 * SpentRecord version 1, 41 bytes: version (1) ‖ spending transaction ID (32) ‖ milestone index u32
 * ‖ timestamp u32.
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

/**
 * Both records start version ‖ 32-byte ID ‖ milestone index u32 ‖ milestone timestamp u32; these name the three.
 */
type StampKeys = readonly [id: string, index: string, timestamp: string];
type Stamp<K extends StampKeys> = { [P in K[0]]: Uint8Array } & { [P in K[1] | K[2]]: number };

const BOOKED = ['blockId', 'milestoneIndexBooked', 'milestoneTimestampBooked'] as const;
const SPENT = ['transactionIdSpent', 'milestoneIndexSpent', 'milestoneTimestampSpent'] as const;

/** Checks the stamp first, then appends `tail()` (if any) with its u16 length after it. */
function encodeStamped<K extends StampKeys>(
  record: string,
  version: number,
  [id, index, time]: K,
  v: Stamp<K>,
  tail?: () => Uint8Array,
): Uint8Array {
  const fields = v as Record<string, unknown>;
  const [idBytes, indexValue, timeValue] = [fields[id] as Uint8Array, fields[index] as number, fields[time] as number];
  checkId(idBytes, record, id);
  checkU32(indexValue, record, index);
  checkU32(timeValue, record, time);
  const rest = tail?.();
  const w = new ByteWriter(41 + (rest === undefined ? 0 : 2 + rest.length))
    .u8(version)
    .bytes(idBytes)
    .u32(indexValue)
    .u32(timeValue);
  if (rest !== undefined) w.u16(rest.length).bytes(rest);
  return w.finish();
}

/** Reads the version and the stamp; the caller reads on and ends the record. */
function decodeStamped<K extends StampKeys>(
  bytes: Uint8Array,
  subject: string,
  current: number,
  [id, index, time]: K,
): { r: ByteReader; version: number; stamp: Stamp<K> } {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, current);
  const stamp = { [id]: r.fixed(ID_LENGTH, id), [index]: r.u32(index), [time]: r.u32(time) } as Stamp<K>;
  return { r, version, stamp };
}

export function encodeOutputRecord(r: OutputRecord): Uint8Array {
  return encodeStamped('output record', OUTPUT_RECORD_VERSION, BOOKED, r, () => encodeOutput(r.output));
}

export function decodeOutputRecord(bytes: Uint8Array, subject = 'output record'): OutputRecord {
  const { r, version, stamp } = decodeStamped(bytes, subject, OUTPUT_RECORD_VERSION, BOOKED);
  const at = r.offset;
  const outputBytes = r.prefixed(2, 'output', 1, LIMITS.maxBlockLength);
  endRecord(r, version, OUTPUT_RECORD_VERSION);
  let output: CommonOutput;
  try {
    output = decodeCommonOutput(outputBytes);
  } catch (e) {
    return r.fail('INVALID_FIELD', `output does not decode (${(e as Error).message})`, 'output', at + 2);
  }
  return { ...stamp, output };
}

export function encodeSpentRecord(s: SpentRecord): Uint8Array {
  return encodeStamped('spent record', SPENT_RECORD_VERSION, SPENT, s);
}

export function decodeSpentRecord(bytes: Uint8Array, subject = 'spent record'): SpentRecord {
  const { r, version, stamp } = decodeStamped(bytes, subject, SPENT_RECORD_VERSION, SPENT);
  endRecord(r, version, SPENT_RECORD_VERSION);
  return stamp;
}

export function checkId(id: Uint8Array, record: string, field: string, length: number = ID_LENGTH): void {
  if (!(id instanceof Uint8Array) || id.length !== length) {
    throw new RangeError(
      `${record}: ${field} must be ${length} bytes, got ${id instanceof Uint8Array ? id.length : typeof id}`,
    );
  }
}

export function checkU32(v: number, record: string, field: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
    throw new RangeError(`${record}: ${field} must be a u32, got ${v}`);
}
